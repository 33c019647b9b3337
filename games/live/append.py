"""One step of a game written at once: the step's events appended and the game row moved
to the step's seq, turn and deadline, if and only if the row is still at the seq the
step was computed from (issue #12).

The check replaces the row lock of the live path: a process computes a step on its warm
engine (games.live.warm_engines) without reading the row, then writes it here. If
another process (or the sweeper, or a settlement) moved the game meanwhile, nothing is
written and the caller reloads the engine and tries again. On PostgreSQL it is one
statement, so one round trip and its own transaction when autocommit is on: the UPDATE
takes the row's lock, and a concurrent writer holding it makes this statement wait and
then re-check the seq (READ COMMITTED), so two steps from the same seq cannot both land.
Elsewhere (SQLite under ``make run``) it is the same check in two statements in one
transaction. A table socket's action runs the statement from the event loop
(:func:`append_step_on_loop`, games.live.action_pool), the rest from the database thread.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from django.db import connection, transaction

from games.live import action_pool
from games.models import GameEvent, GameRecord

_STEP_SQL = f"""
WITH moved AS (
    UPDATE {GameRecord._meta.db_table}
       SET seq = %(seq)s, turn = %(turn)s, deadline = %(deadline)s, status = %(status)s,
           result = %(result)s::jsonb, ended_at = %(ended_at)s
     WHERE id = %(game)s AND seq = %(base)s AND status = %(playing)s
 RETURNING id
)
INSERT INTO {GameEvent._meta.db_table} (game_id, seq, type, data, created_at)
SELECT moved.id, step.seq, step.type, step.data, now()
  FROM moved, jsonb_to_recordset(%(events)s::jsonb) AS step(seq integer, type text, data jsonb)
"""


_SEQ_SQL = f"SELECT seq FROM {GameRecord._meta.db_table} WHERE id = %(game)s"


@dataclass(frozen=True)
class Step:
    """A step of ``game``: its new events (seq ``base`` + 1 onwards) and the row after it."""

    game: int
    base: int
    events: list[dict]
    turn: int | None
    deadline: datetime | None
    result: dict | None = None  # set when the step ends the game
    ended_at: datetime | None = None

    @property
    def seq(self) -> int:
        return self.base + len(self.events)

    @property
    def status(self) -> str:
        return GameRecord.Status.ENDED if self.result is not None else GameRecord.Status.PLAYING


def append_step(step: Step) -> bool:
    """Write ``step`` if the game row is still playing at ``step.base``; return whether
    it was written. Nothing is written otherwise."""
    if connection.vendor == "postgresql":
        return _append_in_one_statement(step)
    return _append_with_orm(step)


async def append_step_on_loop(step: Step) -> bool:
    """:func:`append_step` from the event loop, through its own connections
    (games.live.action_pool; PostgreSQL only)."""
    rowcount, _row = await action_pool.execute(_STEP_SQL, _statement_params(step))
    return rowcount == len(step.events)


async def row_seq_on_loop(game_id: int) -> int | None:
    """The game row's seq, read from the event loop (PostgreSQL only)."""
    _rowcount, row = await action_pool.execute(_SEQ_SQL, {"game": game_id})
    return None if row is None else row[0]


def _append_in_one_statement(step: Step) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(_STEP_SQL, _statement_params(step))
        return cursor.rowcount == len(step.events)


def _statement_params(step: Step) -> dict:
    rows = [{"seq": event["seq"], "type": event["type"], "data": event}
            for event in step.events]
    return {"game": step.game, "base": step.base, "seq": step.seq, "turn": step.turn,
            "deadline": step.deadline, "status": step.status,
            "result": None if step.result is None else json.dumps(step.result),
            "ended_at": step.ended_at, "playing": GameRecord.Status.PLAYING,
            "events": json.dumps(rows)}


def _append_with_orm(step: Step) -> bool:
    with transaction.atomic():
        moved = GameRecord.objects.filter(
            pk=step.game, seq=step.base, status=GameRecord.Status.PLAYING,
        ).update(seq=step.seq, turn=step.turn, deadline=step.deadline, status=step.status,
                 result=step.result, ended_at=step.ended_at)
        if not moved:
            return False
        GameEvent.objects.bulk_create(
            [GameEvent(game_id=step.game, seq=event["seq"], type=event["type"], data=event)
             for event in step.events])
    return True
