"""Notifications to the sockets of a table, sent after commit (GUIDE "data flow").

The channel layer carries notifications only: a client that misses one sees a
gap in ``seq`` and asks for a snapshot. Group names are ASCII. Messages to the
whole table carry public data only; a seat's own cards go to that seat's group.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import os
import threading

from asgiref.sync import SyncToAsync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

from common.metrics.action_clock import events_sent
from games.live.snapshots import table_state_by_id
from games.models import GameRecord

LOBBY_GROUP = "lobby"
SEND_TIMEOUT_SECONDS = 5

logger = logging.getLogger(__name__)


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


def seat_group(table_id: int, seat: int) -> str:
    return f"seat.{table_id}.{seat}"


def send_after_commit(group: str, message: dict) -> None:
    """Queue ``message`` (with ``"type"`` naming the consumer handler) for after commit.

    robust: a notification that cannot be sent is logged, not raised. The write has
    committed and clients resync on a gap in seq; raising here would fail a committed
    action, skip the callbacks after it (the settlement task) and stop a sweep midway."""
    transaction.on_commit(lambda: send_now(group, message), robust=True)


def send_now(group: str, message: dict) -> None:
    """Send ``message`` to ``group`` without failing the caller. If the message is about
    a game (it has ``"game"``) and the layer refuses it, the game is marked undelivered
    (:func:`mark_undelivered`): its turn then cannot time out against a player until
    the table has been told again (games.live.delivery)."""
    layer = get_channel_layer()
    if layer is None:
        return
    server_loop = _server_loop()
    if server_loop is not None:
        # A worker thread of the ASGI server: hand the send to the server's own loop and
        # return. Waiting for it would hold the process's one database thread while the
        # loop is busy, and every table's next action would queue behind it. The loop
        # starts the sends in this order, and the layer publishes them in that order.
        server_loop.call_soon_threadsafe(_start_send, layer, group, message)
    else:
        # Celery and other plain threads: one long-lived loop per process, so the
        # layer's Redis connections are reused, not opened per message (GUIDE).
        try:
            asyncio.run_coroutine_threadsafe(layer.group_send(group, message),
                                             _sender_loop()).result(SEND_TIMEOUT_SECONDS)
        except Exception:
            if message.get("game") is not None:
                mark_undelivered(message["game"])
            raise


def send_on_loop(group: str, message: dict) -> None:
    """:func:`send_now` from the server's event loop itself: the send is started on it
    and not waited for (a failure is logged and marks the game undelivered)."""
    layer = get_channel_layer()
    if layer is not None:
        _start_send(layer, group, message)


def send_confirmed(group: str, message: dict) -> None:
    """Send and wait until the layer has taken the message; raise if it does not.

    For the re-announcement of undelivered games (games.live.delivery), which must know
    whether the table heard it. From a server thread this waits on the server's loop,
    holding the database thread meanwhile: only the in-process sweeper of ``make run``
    calls it there; Celery beat calls it from a plain thread."""
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _server_loop() or _sender_loop()
    asyncio.run_coroutine_threadsafe(layer.group_send(group, message),
                                     loop).result(SEND_TIMEOUT_SECONDS)


def mark_undelivered(game_id: int) -> None:
    """Remember that the table of ``game_id`` missed some of its events: one UPDATE, on
    the failure path only. Always the latest failure's time, so that a re-announcement
    made before this failure does not clear it (games.live.delivery)."""
    GameRecord.objects.filter(pk=game_id).update(undelivered_since=timezone.now())


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The ASGI server's loop, for a thread of its own that hands its work to another
    thread whose sends must go out on that loop (games.live.strong_bots)."""
    return _server_loop()


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The ASGI server's loop when called from one of its sync_to_async threads."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    # A thread-local left behind by a loop that has since finished (tests run many).
    return loop if loop is not None and loop.is_running() else None


_sending: set[asyncio.Task] = set()  # strong references until each send is done


def _start_send(layer, group: str, message: dict) -> None:
    # Bounded: a Redis that hangs rather than refuses (no socket timeout on an open
    # connection) would otherwise leave the send pending for ever, and the game unmarked.
    task = asyncio.ensure_future(asyncio.wait_for(layer.group_send(group, message),
                                                  SEND_TIMEOUT_SECONDS))
    _sending.add(task)
    task.add_done_callback(functools.partial(_sent, message.get("game")))
    if message.get("type") == "game.events":
        task.add_done_callback(_events_sent)  # an action's broadcast, for its latency


def _sent(game_id: int | None, task: asyncio.Task) -> None:
    _sending.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.error("channel layer send failed", exc_info=task.exception())
        if game_id is not None:
            # On the loop: the UPDATE goes to the database thread, not this loop.
            marking = asyncio.ensure_future(database_sync_to_async(mark_undelivered)(game_id))
            _sending.add(marking)
            marking.add_done_callback(
                functools.partial(_finished, "could not mark a game undelivered"))


def _events_sent(task: asyncio.Task) -> None:
    events_sent(delivered=not task.cancelled() and task.exception() is None)


def _finished(failure: str, task: asyncio.Task) -> None:
    """A background task of the loop is done: let it go, and log ``failure`` if it failed."""
    _sending.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.error(failure, exc_info=task.exception())


_loop: asyncio.AbstractEventLoop | None = None
_loop_lock = threading.Lock()


def _sender_loop() -> asyncio.AbstractEventLoop:
    global _loop
    with _loop_lock:
        if _loop is None or _loop.is_closed():
            _loop = asyncio.new_event_loop()
            threading.Thread(target=_loop.run_forever, name="channel-layer-sender",
                             daemon=True).start()
        return _loop


def announce_table(table_id: int, state: dict | None = None, *, shared: bool = False) -> None:
    """After commit, send the table's public state (seats, ready, connected) to its
    sockets: read once here rather than by every socket of the table, or ``state`` when
    the caller read it already in the transaction (the deal). Robust, as
    send_after_commit is and for its reasons.

    ``shared``: the change is a seat's `connected` or `ready` flag, which nothing orders
    against the game's messages. In a server process its read is then a job of its own
    on the database thread, queued after the work already there, and shared: the flips
    that commit while it waits (at a start, each socket's `connected` and `ready`) are
    all in the one state it reads, rather than a read and a message each. It reads
    after they committed, so the last state sent is never older than the last change
    announced. Any other change (who sits where, a deal, a reopening, whose message
    comes just before `settled`) is read and sent in commit order."""
    def send() -> None:
        if state is not None:
            send_now(table_group(table_id), {"type": "table.changed", "table": state})
            return
        loop = _server_loop() if shared else None
        if loop is None:  # in order, or not on a server: read now
            _send_state(table_id)
            return
        with _reads_lock:
            if table_id in _reads_queued:
                return  # the queued read has not started: it will show this change
            _reads_queued.add(table_id)
        # In a context of its own: the database thread's (which call_soon would copy)
        # marks that thread busy, and asgiref refuses to queue the read from it.
        loop.call_soon_threadsafe(_queue_read, table_id, context=contextvars.Context())

    transaction.on_commit(send, robust=True)


_reads_queued: set[int] = set()  # tables whose state read waits on the database thread
_reads_lock = threading.Lock()


def _queue_read(table_id: int) -> None:
    task = asyncio.ensure_future(database_sync_to_async(_read_queued)(table_id))
    _sending.add(task)
    task.add_done_callback(functools.partial(_read_done, table_id))


def _read_queued(table_id: int) -> None:
    with _reads_lock:
        _reads_queued.discard(table_id)  # a change committed from now on queues its own
    _send_state(table_id)


def _read_done(table_id: int, task: asyncio.Task) -> None:
    if task.cancelled() or task.exception() is not None:
        with _reads_lock:  # a read that never ran must not hold the table's next ones
            _reads_queued.discard(table_id)
    _finished("a table's state could not be read", task)


def _send_state(table_id: int) -> None:
    public = table_state_by_id(table_id)
    if public is not None:
        send_now(table_group(table_id), {"type": "table.changed", "table": public})


def announce_seats(table_id: int, room_id: int, state: dict | None = None, *,
                   shared: bool = False) -> None:
    """After commit, tell the table (its seats) and the lobby (its counts) that the
    seats of a table changed; ``state`` and ``shared`` as for :func:`announce_table`."""
    announce_table(table_id, state, shared=shared)
    send_after_commit(LOBBY_GROUP, {"type": "lobby.changed", "room": room_id})
