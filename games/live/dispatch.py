"""What every socket consumer of the site shares."""

from __future__ import annotations

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer


class SocketGone(Exception):
    """The server would not send to the socket: its client has gone or is going
    (uvicorn raises ``ClientDisconnected``, or a ``RuntimeError`` once the socket has
    been closed). Raised from the consumer's sends; the original is its cause."""


class DirectDispatchMixin:
    """Call handlers without the database-thread hop Channels >= 4.2 makes first, and
    end the consumer through its clean-close path when a send to its socket fails.

    Channels' ``dispatch`` runs ``close_old_connections`` through ``sync_to_async``
    before every message (django/channels#2090). That lands on the process's one
    database thread, so each event fanned out to a socket queued behind the game writes
    of every other table: the main cause of the load test's latency tail. Our handlers
    touch the database only through ``database_sync_to_async``, which closes stale
    connections itself, on that thread, before and after each call.

    A socket whose client closes while a message is being sent to it (a broadcast at
    the moment a player shuts the tab) makes the send raise. Escaping the handler, that
    ended the consumer without its ``disconnect``: the presence row stayed, the seat
    stayed `connected` and never went to 托管 (games.live.presence), and the heartbeat
    kept writing to the dead socket. The server's ``websocket.disconnect`` is still in
    the consumer's queue then, behind the failed handler, and would never be read. So
    any failure of a send marks the socket gone; every later send fails at once
    without reaching the server; and once the handler is over, whatever it raised or
    swallowed, the consumer ends as a clean close does (``websocket_disconnect``:
    ``disconnect``, then StopConsumer).
    """

    socket_gone: BaseException | None = None  # the first failed send's exception

    async def __call__(self, scope, receive, send):
        async def send_to_socket(message: dict) -> None:
            if self.socket_gone is not None:
                raise SocketGone() from self.socket_gone
            try:
                await send(message)
            except Exception as error:
                self.socket_gone = error
                raise SocketGone(repr(error)) from error
        return await super().__call__(scope, receive, send_to_socket)

    async def dispatch(self, message: dict) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await self._handle(handler, message)
        except StopConsumer:
            raise
        except Exception:
            if self.socket_gone is None:
                raise
        if self.socket_gone is not None:
            await self.socket_closed_during_send()

    async def _handle(self, handler, message: dict) -> None:
        try:
            await handler(message)
        except StopConsumer:
            raise
        except SocketGone:
            raise  # nothing to answer: the socket is gone
        except Exception as error:
            await self.handler_failed(message, error)

    async def handler_failed(self, message: dict, error: Exception) -> None:
        """A handler raised ``error`` (called in its ``except`` block): re-raise it, or
        answer it. An answer's send that fails ends the consumer as above."""
        raise error

    async def socket_closed_during_send(self) -> None:
        """End as a clean close ends (1006: closed without a close the server saw)."""
        close = getattr(self, "websocket_disconnect", None)
        if close is not None:
            await close({"type": "websocket.disconnect", "code": 1006})
        raise StopConsumer()
