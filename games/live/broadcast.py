"""Notifications to the sockets of a table, sent after commit (GUIDE "data flow").

The channel layer carries notifications only: a client that misses one sees a
gap in ``seq`` and asks for a snapshot. Group names are ASCII. Messages to the
whole table carry public data only; a seat's own cards go to that seat's group.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading

from asgiref.sync import SyncToAsync
from channels.layers import get_channel_layer
from django.db import transaction

from games.live.snapshots import table_state
from games.models import Table

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
        asyncio.run_coroutine_threadsafe(layer.group_send(group, message),
                                         _sender_loop()).result(SEND_TIMEOUT_SECONDS)


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The ASGI server's loop when called from one of its sync_to_async threads."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    # A thread-local left behind by a loop that has since finished (tests run many).
    return loop if loop is not None and loop.is_running() else None


_sending: set[asyncio.Task] = set()  # strong references until each send is done


def _start_send(layer, group: str, message: dict) -> None:
    task = asyncio.ensure_future(layer.group_send(group, message))
    _sending.add(task)
    task.add_done_callback(_sent)


def _sent(task: asyncio.Task) -> None:
    _sending.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.error("channel layer send failed", exc_info=task.exception())


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


def announce_table(table_id: int) -> None:
    """After commit, send the table's public state (seats, ready, connected) to its
    sockets: read once here rather than by every socket of the table. Robust, as
    send_after_commit is and for its reasons."""
    def send() -> None:
        table = Table.objects.filter(pk=table_id).first()
        if table is not None:
            send_now(table_group(table_id), {"type": "table.changed",
                                             "table": table_state(table)})

    transaction.on_commit(send, robust=True)


def announce_seats(table_id: int, room_id: int) -> None:
    """After commit, tell the table (its seats) and the lobby (its counts) that the
    seats of a table changed."""
    announce_table(table_id)
    send_after_commit(LOBBY_GROUP, {"type": "lobby.changed", "room": room_id})
