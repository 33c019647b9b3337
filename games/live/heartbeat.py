"""What a table socket's heartbeat tells its client (docs/protocol.md, "heartbeat"):
the table's latest game and its seq, so a client whose events were lost without a
gap it could see (the channel layer failed) learns it is behind.

One heartbeat per process (per running event loop), not one per socket: every
period a single task reads the position of every table that has sockets here in
ONE query (one trip to the process's one database thread, which the game actions
need) and sends each registered socket its table's heartbeat straight down the
socket, not through the channel layer, so it still arrives while the layer is down.
A task per socket made a database trip per socket: 80 a second with 800 sockets at
the default period, queued ahead of the game actions (the load test's latency tail).

The same beat keeps this process's socket rows alive (games.live.presence): each
socket is registered for that at connect (:func:`heartbeat_alive`), before its first
snapshot, and the rows are marked on the loop's own connection (games.live.action_pool)
first, not behind the database thread. When that thread was busy for longer than the
rows' staleness (800 sockets connecting and 200 deals at once: the load test at 200
tables), the sweeper took live sockets for a dead process's, and put their seats in
托管 for the server's own slowness.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field

from channels.db import database_sync_to_async
from django.conf import settings
from django.db.models import OuterRef, Subquery

from common.per_loop import PerLoop
from games.live.socket_rows import process_beat, sockets_seen
from games.models import GameRecord, Table

logger = logging.getLogger(__name__)

# What the heartbeat needs of a socket: the consumer's ``send(text_data=...)``.
Send = Callable[..., Awaitable[None]]


def table_positions(table_ids: Iterable[int]) -> dict[int, tuple[int | None, int]]:
    """Each table's latest game (running, or the last one: what a snapshot shows) and
    its seq; ``(None, 0)`` before its first deal. One query, each table one probe of
    the (table, id) index. Tables that no longer exist are left out. Call on the
    database thread."""
    latest = GameRecord.objects.filter(table=OuterRef("pk")).order_by("-pk")
    rows = Table.objects.filter(pk__in=list(table_ids)).annotate(
        latest_game=Subquery(latest.values("pk")[:1]),
        latest_seq=Subquery(latest.values("seq")[:1]),
    ).values_list("pk", "latest_game", "latest_seq")
    return {table: (game, seq or 0) for table, game, seq in rows}


async def _mark_alive(channels: list[str]) -> None:
    """This process's socket rows marked alive, on the loop's own connection."""
    if channels:
        await sockets_seen(channels)


def heartbeat_text(game: int | None, seq: int) -> str:
    return json.dumps({"type": "heartbeat", "game": game, "seq": seq})


@dataclass
class _Beat:
    """The heartbeat of one event loop: its sockets by table, and its task."""
    sockets: dict[int, dict[object, Send]] = field(default_factory=dict)
    alive: dict[object, str] = field(default_factory=dict)  # socket -> its channel name
    reading: asyncio.Future | None = None  # the tables' positions being read
    sending: dict[object, asyncio.Future] = field(default_factory=dict)
    task: asyncio.Task | None = None


# Per loop: a task of a finished loop must never be taken for a running heartbeat.
_beats: PerLoop[_Beat] = PerLoop()


def heartbeat_join(*, table_id: int, socket: object, send: Send) -> None:
    """Give ``socket`` (the key; ``send`` is how to reach it) its table's heartbeat
    every GAMES_HEARTBEAT_SECONDS (read when the loop's heartbeat starts; 0: none, and
    nothing is registered). Call on the socket's running loop, after its first
    snapshot; ``heartbeat_leave`` when it goes."""
    if float(settings.GAMES_HEARTBEAT_SECONDS) <= 0:
        return
    beat = _running_beat()
    beat.sockets.setdefault(table_id, {})[socket] = send


def heartbeat_alive(*, socket: object, channel: str) -> None:
    """Keep the presence row of ``socket`` (named ``channel``) alive from now on, on
    every beat, until ``heartbeat_leave``: call at connect, once the row is written
    (no heartbeat: rows never go stale, nothing to do)."""
    if float(settings.GAMES_HEARTBEAT_SECONDS) <= 0:
        return
    _running_beat().alive[socket] = channel


def _running_beat() -> _Beat:
    """The running loop's heartbeat, its task started if it is not running."""
    loop = asyncio.get_running_loop()
    beat = _beats.get_or_make(_Beat)
    if beat.task is None or beat.task.done():
        beat.task = loop.create_task(_beat_forever(loop, beat))
    return beat


def heartbeat_leave(*, table_id: int, socket: object) -> None:
    """No more heartbeats for ``socket``. Safe to call for a socket never joined."""
    beat = _beats.get()
    if beat is None:
        return
    beat.alive.pop(socket, None)
    table = beat.sockets.get(table_id)
    if table is not None:
        table.pop(socket, None)
        if not table:
            del beat.sockets[table_id]
    # The task notices at its next beat that nobody is left, and ends.


def heartbeat_sockets() -> dict[int, set]:
    """The sockets registered on the running loop, by table (for tests)."""
    beat = _beats.get()
    return {table: set(sockets) for table, sockets in beat.sockets.items()} if beat else {}


async def _beat_forever(loop: asyncio.AbstractEventLoop, beat: _Beat) -> None:
    period = float(settings.GAMES_HEARTBEAT_SECONDS)
    # The process's own row beats more often than its sockets' rows and heartbeats
    # (games.live.socket_rows): one row, so that its death is known within seconds.
    process_period = float(settings.GAMES_PROCESS_BEAT_SECONDS)
    tick = min(period, process_period) if process_period > 0 else period
    next_full = loop.time() + period
    try:
        while beat.sockets or beat.alive:
            await asyncio.sleep(tick)
            if not (beat.sockets or beat.alive):
                break
            if process_period > 0 and beat.alive:
                try:
                    await process_beat()
                except Exception:  # a database hiccup: the next beat tries again
                    logger.exception("table heartbeat: marking the process alive failed")
            if loop.time() < next_full - tick / 2:
                continue
            next_full = loop.time() + period
            try:
                await _mark_alive(list(beat.alive.values()))
            except Exception:  # a database hiccup: the next beat tries again
                logger.exception("table heartbeat: marking the sockets alive failed")
            # The read waits its turn on the database thread; the next beat's marking
            # must not wait for it. A beat whose previous read is still queued skips.
            if beat.sockets and (beat.reading is None or beat.reading.done()):
                beat.reading = asyncio.ensure_future(_read_and_send(beat))
    finally:
        # Nothing awaits between the last check and here: a socket joining now finds
        # the task done and starts a new one.
        if not (beat.sockets or beat.alive):
            _beats.forget(beat, loop)


async def _read_and_send(beat: _Beat) -> None:
    try:
        positions = await database_sync_to_async(table_positions)(list(beat.sockets))
    except Exception:  # a database hiccup: the next beat tries again
        logger.exception("table heartbeat: reading the tables failed")
        return
    await _send_all(beat, positions)


async def _send_all(beat: _Beat, positions: dict[int, tuple[int | None, int]]) -> None:
    """Each socket its table's heartbeat, encoded once per table. Sends run side by
    side and are not awaited: a client that does not read stalls only its own
    heartbeat (it is skipped while its previous one is still being sent), as it did
    when each socket had its own task.

    Paced: GAMES_HEARTBEAT_BATCH sockets, then GAMES_HEARTBEAT_BATCH_PAUSE seconds.
    Started all at once, 800 sends (400 tables on two processes) ran back to back in
    one turn of the loop, every 10 s, and a game action arriving then waited for all
    of them: the load test's slowest samples were a heartbeat period apart
    (docs/performance.md, "The 400-table tail")."""
    batch = max(1, int(settings.GAMES_HEARTBEAT_BATCH))
    pause = max(0.0, float(settings.GAMES_HEARTBEAT_BATCH_PAUSE))
    started = 0  # sends since the last pause
    for table_id, (game, seq) in positions.items():
        sockets = beat.sockets.get(table_id)
        if not sockets:
            continue
        text = heartbeat_text(game, seq)
        for socket, send in list(sockets.items()):
            if started == batch:
                await asyncio.sleep(pause)
                started = 0
            if socket in beat.sending or socket not in sockets:
                continue  # still sending the last one, or gone during a pause
            started += 1
            sending = asyncio.ensure_future(send(text_data=text))
            beat.sending[socket] = sending
            sending.add_done_callback(
                lambda done, socket=socket, table_id=table_id: _sent(beat, socket, table_id,
                                                                     done))


def _sent(beat: _Beat, socket: object, table_id: int, done: asyncio.Future) -> None:
    beat.sending.pop(socket, None)
    if done.cancelled():
        return
    error = done.exception()
    if error is not None:  # a socket going away: skip it, the others get theirs
        logger.warning("table %s: a heartbeat send failed: %r", table_id, error)
