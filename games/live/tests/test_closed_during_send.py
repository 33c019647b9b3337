"""A socket that closes while the server is sending to it (games.live.dispatch): the send
fails (uvicorn raises ClientDisconnected), and the consumer must end the way a clean
close ends it: its presence row gone, the seat offline, and during a game the grace
started, then 托管 (docs/protocol.md, "Disconnects"). Before, the failed send ended the
consumer without its disconnect handling, and the seat stayed `connected` for good.

Real uvicorn (on a thread of this process, so the test can hold one of its sends) and
a real WebSocket client. Deterministic: the server's send of the `table` message that
the deal broadcasts is held, the client closes (its closing handshake done), then the
send is let go; the test waits on the database's state, never on a sleep."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import pytest
from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from websockets.asyncio.client import connect

from common.testing.server_helpers import served_in_thread
from games.live import action_pool, heartbeat, sweeps
from games.live.routing import websocket_urlpatterns
from games.live.seating import room_quick_join, table_ready
from games.management.commands.loadtest_prepare import _session_for
from games.models import GameEvent, Seat, TableSocket
from games.testing.live_helpers import RECEIVE_SECONDS, db, make_person, make_room, run

pytestmark = pytest.mark.django_db(transaction=True)

SITE_SOCKETS = AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))


class HeldSend:
    """An ASGI wrapper that holds the server's first send of a ``kind`` message until
    the test releases it (a threading event: the server runs on another thread)."""

    def __init__(self, app, kind: str) -> None:
        self.app = app
        self.kind = kind
        self.armed = False
        self.held = threading.Event()
        self.release = threading.Event()

    async def __call__(self, scope, receive, send):
        async def holding_send(message):
            if self.armed and not self.held.is_set() and message["type"] == "websocket.send" \
                    and json.loads(message["text"])["type"] == self.kind:
                self.held.set()
                await asyncio.to_thread(self.release.wait, RECEIVE_SECONDS)
            await send(message)
        return await self.app(scope, receive, holding_send)


def wait_for(condition, what: str, *, sweep: bool = False):
    """Poll the database until ``condition()`` is truthy (running the away sweep each
    time, as beat does, when ``sweep``); fail after a minute."""
    deadline = time.monotonic() + 60
    while not (found := condition()):
        assert time.monotonic() < deadline, f"never: {what}"
        if sweep:
            sweeps.sweep_away()
        time.sleep(0.05)
    return found


def no_heartbeat_left() -> bool:
    """No event loop's heartbeat still writes to, or keeps alive, any socket."""
    return not any(beat.sockets or beat.alive for beat in heartbeat._beats.values())


@pytest.mark.parametrize("held", ["table", "error"])
def test_a_socket_closed_while_a_message_is_sent_to_it_goes_to_trustee_after_the_grace(
        settings, held):
    """``table``: the broadcast of the deal; ``error``: the reply to the player's own
    message (sent by the socket's receive, not the channel layer)."""
    settings.GAMES_DISCONNECT_GRACE_SECONDS = 1
    settings.GAMES_HEARTBEAT_SECONDS = 0.2  # the heartbeat must let go of the socket too
    room = make_room()  # bots fill the other seats as soon as alice is ready
    alice = make_person("alice")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id
    session = _session_for(alice)
    app = HeldSend(SITE_SOCKETS, held)

    with served_in_thread(app, on_close=action_pool.close) as port:
        async def scenario():
            async with connect(f"ws://127.0.0.1:{port}/ws/table/{table_id}/",
                               origin=f"http://127.0.0.1:{port}",
                               additional_headers={"Cookie": f"sessionid={session}"}) as socket:
                while json.loads(await asyncio.wait_for(socket.recv(), RECEIVE_SECONDS)) \
                        ["type"] != "snapshot":
                    pass
                if held == "error":
                    await db(table_ready)(user=alice)
                    app.armed = True
                    await socket.send(json.dumps({"type": "cheat"}))  # answered: an error
                else:
                    app.armed = True
                    await db(table_ready)(user=alice)  # dealt: the table is told, alice too
                assert await asyncio.to_thread(app.held.wait, RECEIVE_SECONDS)
                connected = await db(lambda: Seat.objects.get(user=alice).connected)()
            # The closing handshake is done: the server's side of the socket is closed.
            app.release.set()
            return connected

        connected_before = run(scenario)
        wait_for(lambda: not TableSocket.objects.filter(user=alice).exists(),
                 "the socket's presence row is dropped")
        wait_for(no_heartbeat_left, "the heartbeat lets go of the socket")

    seat = Seat.objects.get(user=alice)
    assert connected_before and not seat.connected
    assert seat.away_deadline is not None  # the grace started
    trustee = wait_for(lambda: GameEvent.objects.filter(
        game__table_id=table_id, type="trustee").first(), "托管 after the grace", sweep=True)
    assert trustee.data == {"seq": trustee.seq, "type": "trustee", "seat": seat.index,
                            "on": True, "reason": "disconnect"}
