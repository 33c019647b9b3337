"""What every socket consumer of the site shares."""

from __future__ import annotations

from channels.consumer import get_handler_name


class DirectDispatchMixin:
    """Call handlers without the database-thread hop Channels >= 4.2 makes first.

    Channels' ``dispatch`` runs ``close_old_connections`` through ``sync_to_async``
    before every message (django/channels#2090). That lands on the process's one
    database thread, so each event fanned out to a socket queued behind the game writes
    of every other table: the main cause of the load test's latency tail. Our handlers
    touch the database only through ``database_sync_to_async``, which closes stale
    connections itself, on that thread, before and after each call.
    """

    async def dispatch(self, message: dict) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
