"""What a table socket's heartbeat tells its client (docs/protocol.md, "heartbeat"):
the table's latest game and its seq, so a client whose events were lost without a
gap it could see (the channel layer failed, issue #11) learns it is behind.

Read on the process's one database thread, so shared: the sockets of a table in this
process reuse one reading for half a heartbeat period.
"""

from __future__ import annotations

import time

from games.models import GameRecord

_readings: dict[int, tuple[float, int | None, int]] = {}  # table → (read at, game, seq)


def table_position(table_id: int, max_age: float) -> tuple[int | None, int]:
    """The table's latest game (running, or the last one: what a snapshot shows) and its
    seq; ``(None, 0)`` before its first deal. Call on the database thread."""
    now = time.monotonic()
    reading = _readings.get(table_id)
    if reading is not None and now - reading[0] < max_age:
        return reading[1], reading[2]
    latest = GameRecord.objects.filter(table_id=table_id).order_by("-pk") \
        .values_list("pk", "seq").first()
    game, seq = latest if latest is not None else (None, 0)
    _readings[table_id] = (now, game, seq)
    if len(_readings) > 10_000:  # tables closed long ago: start afresh
        _readings.clear()
    return game, seq


def heartbeat_message(table_id: int, max_age: float) -> dict:
    game, seq = table_position(table_id, max_age)
    return {"type": "heartbeat", "game": game, "seq": seq}
