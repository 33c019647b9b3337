"""Notifications to the sockets of a table, sent after commit (GUIDE "data flow").

The channel layer carries notifications only: a client that misses one sees a
gap in ``seq`` and asks for a snapshot. Group names are ASCII. Messages to the
whole table carry public data only; a seat's own cards go to that seat's group.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


def seat_group(table_id: int, seat: int) -> str:
    return f"seat.{table_id}.{seat}"


LOBBY_GROUP = "lobby"


def send_after_commit(group: str, message: dict) -> None:
    """Queue ``message`` (with ``"type"`` naming the consumer handler) for after commit."""
    transaction.on_commit(lambda: send_now(group, message))


def send_now(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)
