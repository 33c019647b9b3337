"""The table socket, ``/ws/table/<id>/`` (docs/protocol.md). Thin: parse,
authorise, call one service, reply. Every game write goes through
games.live.lifecycle or games.live.seating in one database transaction."""

from __future__ import annotations

import asyncio
import json
import logging
import time

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from common.metrics.action_clock import action_received
from games.errors import ActionError
from games.live import (
    presence,
    process_stop,
    quick_chat,
    seating,
    snapshots,
    socket_caps,
    warm_engines,
)
from games.live.broadcast import seat_group, table_group
from games.live.dispatch import DirectDispatchMixin, SocketGone
from games.live.frames import parse_frame
from games.live.heartbeat import heartbeat_alive, heartbeat_join, heartbeat_leave
from games.live.hints import table_hints
from games.live.inprocess_sweeps import ensure_sweeper
from games.live.language import connection_language
from games.live.lifecycle.act import game_act_on_loop
from games.live.message_fields import flag, is_whole_number
from games.live.opening_gate import opening_turn
from ledger.selectors import coin_wallet

logger = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 4096
# The rate limit's clock: a module attribute so tests can move time themselves.
clock = time.monotonic

# Database work runs on the process's one database thread (database_sync_to_async).
# Measured under the load test, a thread pool instead made latency worse (GIL).
db = database_sync_to_async


class TableConsumer(DirectDispatchMixin, AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        user = self.scope.get("user")
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        # Errors reach this player in their language: the page's, from the cookie the
        # header's language switch sets, else Accept-Language (docs/i18n.md).
        self.language = connection_language(self.scope)
        # Accept, then close with the code: a close before the accept is a bare HTTP 403
        # to the browser (ASGI spec), so it could not tell 4401 from 4404.
        if user is None or not user.is_authenticated:
            await self.accept()
            await self.close(code=4401)
            return
        address = socket_caps.client_address(self.scope)
        if not socket_caps.admit(user.pk, address):
            await self.accept()
            await self.close(code=socket_caps.CLOSE_TOO_MANY)
            return
        self.admitted = (user.pk, address)  # released once, by disconnect
        self.opened = False  # until accepted: disconnect has nothing else to undo
        self.user_id = user.pk
        self.seat: int | None = None
        # settings.GAMES_SOCKET_RATE, read once: a socket keeps the limit it connected with.
        self.rate_per_second = float(settings.GAMES_SOCKET_RATE["per_second"])
        self.rate_burst = float(settings.GAMES_SOCKET_RATE["burst"])
        self.tokens = self.rate_burst
        self.refilled = clock()
        # The handshake first, the database after: a client must not wait for its
        # handshake behind the database thread (at a cold start of 400 tables that
        # queue outlasted the load client's 30 s open timeout). Refusals close with
        # their code once the one read below says so.
        await self.accept()
        ensure_sweeper()
        process_stop.watch_stop_signals()
        self.opened = True  # from here disconnect undoes what opening may have done
        try:
            async with opening_turn():  # a herd is served in order (games.live.opening_gate)
                opened = await db(presence.open_socket)(user, self.table_id,
                                                        self.channel_name)
                if isinstance(opened, presence.Refusal):
                    self.opened = False
                    await self.close(code=opened.code)
                    return
                heartbeat_alive(socket=self, channel=self.channel_name)
                # Both groups before the snapshot is read, so no event falls between them.
                await self.channel_layer.group_add(table_group(self.table_id),
                                                   self.channel_name)
                await self._join_seat(opened)
                await self._send_snapshot()
            self._start_heartbeat()
        except SocketGone:
            raise  # the client went away meanwhile: the mixin ends this consumer
        except Exception:
            # A clean close, so the disconnect handling runs: the seat may be marked
            # connected already.
            logger.exception("table %s: connecting user %s failed", self.table_id, user.pk)
            self.connect_failed = True
            await self._server_error()
            await self.close(code=1011)

    async def disconnect(self, code: int) -> None:
        self._stop_heartbeat()
        if not hasattr(self, "admitted"):
            return
        socket_caps.release(*self.admitted)
        del self.admitted
        if not self.opened:
            return  # refused: no row, no group, no seat
        await self.channel_layer.group_discard(table_group(self.table_id), self.channel_name)
        if self.seat is not None:
            await self.channel_layer.group_discard(seat_group(self.table_id, self.seat),
                                                   self.channel_name)
        if process_stop.stopping():
            return  # closed by this process's stop: the row stays, as a killed process's
        # Every opened socket has a presence row: the seat is away only when its user's
        # last socket at the table has closed (games.live.presence).
        await db(presence.socket_closed)(user_id=self.user_id, table_id=self.table_id,
                                         channel=self.channel_name)

    async def handler_failed(self, message: dict, error: Exception) -> None:
        # A channel-layer handler that fails (a snapshot read during a database
        # hiccup) must not end the consumer either: its disconnect handling would
        # never run. The socket's own messages are guarded in receive.
        if message["type"].startswith("websocket."):
            raise error
        logger.error("table %s: %s for user %s failed", self.table_id, message["type"],
                     getattr(self, "user_id", None), exc_info=error)
        await self._server_error()

    # --- from the client ----------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None,
                      **kwargs) -> None:
        # The last resort: an exception escaping a handler ends the consumer without its
        # disconnect handling (the seat stayed `connected`, no 托管). Whatever
        # a message sets off is answered, and the socket stays open.
        action_received()  # where an action's latency starts (shuangkou_site.metrics)
        try:
            await self._receive(text_data)
        except SocketGone:
            raise  # not a fault of the message: the client left (the mixin ends us)
        except Exception:
            logger.exception("table %s: a message from user %s failed", self.table_id,
                             getattr(self, "user_id", None))
            await self._server_error()

    async def _receive(self, text_data: str | None) -> None:
        if text_data is None or len(text_data.encode()) > MAX_MESSAGE_BYTES:
            await self._error(ActionError(_("消息必须是不超过 %(bytes)s 字节的 JSON 文本"),
                                          {"bytes": MAX_MESSAGE_BYTES}))
            return
        if not self._take_token():
            await self._error(ActionError(_("消息太多了：请慢一点"), code="rate_limited"))
            return
        try:
            content = parse_frame(text_data)
        except ActionError as error:
            await self._error(error)
            return
        if not isinstance(content, dict) or not isinstance(content.get("type"), str):
            await self._error(ActionError(_("消息必须是带有字符串 “type” 的 JSON 对象")))
            return
        await self.receive_json(content)

    async def receive_json(self, content: dict, **kwargs) -> None:
        handler = getattr(self, f"do_{content['type']}", None)
        if handler is None:
            await self._error(ActionError(_("未知的消息类型 %(type)s"),
                                          {"type": repr(content["type"])}), content)
            return
        try:
            await handler(content)
        except ActionError as error:
            await self._error(error, content)
        except (TypeError, ValueError, KeyError) as error:
            await self._error(ActionError(_("无效的消息：%(error)s"), {"error": error}), content)

    async def do_snapshot(self, content: dict) -> None:
        await self._send_snapshot(content.get("ref"))

    async def do_sit(self, content: dict) -> None:
        seat = content.get("seat")
        await db(seating.sit_by_id)(user_id=self.user_id, table_id=self.table_id,
                                     seat_index=seat)
        await self._follow_seat()

    async def do_stand(self, content: dict) -> None:
        await db(seating.stand_by_id)(user_id=self.user_id)
        await self._follow_seat()

    async def do_ready(self, content: dict) -> None:
        await db(seating.ready_by_id)(user_id=self.user_id,
                                     ready=flag(content, "ready", default=True))

    async def do_play(self, content: dict) -> None:
        await self._act("play", content, cards=content.get("cards"),
                        reading=content.get("reading"))

    async def do_pass(self, content: dict) -> None:
        await self._act("pass", content)

    async def do_trustee(self, content: dict) -> None:
        await self._act("trustee", content, on=flag(content, "on", default=False))

    async def do_leave(self, content: dict) -> None:
        await self._act("leave", content)

    async def do_chat(self, content: dict) -> None:
        """A quick-chat phrase to the whole table (games.live.quick_chat): seated
        players only, within the chat limit. Not a game event: no seq, not logged."""
        phrase = quick_chat.check_phrase(content.get("phrase"))
        seat = quick_chat.check_seated(self.seat)
        # One round trip to Redis, no database: off the process's one database thread.
        await sync_to_async(quick_chat.take_chat_turn, thread_sensitive=False)(self.user_id)
        await self.channel_layer.group_send(table_group(self.table_id), {
            "type": "table.chat", "seat": seat, "user": self.user_id, "phrase": phrase})

    async def do_hint(self, content: dict) -> None:
        """The sender's legal plays on its turn, smallest first (a read: no event)."""
        reply = await db(table_hints)(self.table_id, self.user_id)
        if "ref" in content:
            reply["ref"] = content["ref"]
        await self.send_json(reply)

    async def _act(self, action: str, content: dict, **payload) -> None:
        seq = content.get("seq")
        if seq is not None and not is_whole_number(seq):
            raise ActionError(_("“seq” 必须是你收到的最后一个序号"))
        cards = payload.get("cards")
        if action == "play" and not isinstance(cards, (str, list)):
            raise ActionError(_("“cards” 必须是牌的编码列表或点数文字"))
        await act_at_table(self.table_id, self.user_id, action, seq, payload)

    # --- from the channel layer --------------------------------------------------------------

    async def game_events(self, message: dict) -> None:
        await self.send_json({"type": "events", "game": message["game"], "seq": message["seq"],
                              "turn": message["turn"], "deadline": message["deadline"],
                              "events": message["events"]})
        if self.seat is not None and any(event["type"] == "settled"
                                          for event in message["events"]):
            # The settlement moved this player's coins; it sends every player's wallet
            # with the event (games.live.lifecycle.end), this socket only its user's
            # (docs/protocol.md, "wallet").
            wallet = message.get("wallets", {}).get(str(self.user_id))
            await self._send_wallet(wallet if wallet is not None
                                    else await db(coin_wallet)(self.user_id))

    async def game_snapshot(self, message: dict) -> None:
        # At a deal the message carries the seat's snapshot (games.live.lifecycle.deal.
        # game_start): sent as it is, with no trip to the database thread. Only to its
        # user: after a 明牌 swap a socket may still be in its old seat's group (until
        # the `table` message moves it), and that seat's hand is now someone else's.
        snapshot = message.get("snapshot")
        if snapshot is not None and message.get("user") == self.user_id:
            await self.send_json(snapshot)
            if "wallet" in message:
                await self._send_wallet(message["wallet"])
        else:
            await self._send_snapshot()
            if "wallet" in message:
                # A deal whose swap moved this player: the wallet meant for this seat's
                # new occupant is not theirs, so read their own (docs/protocol.md).
                await self._send_wallet(await db(coin_wallet)(self.user_id))

    async def table_chat(self, message: dict) -> None:
        await self.send_json({"type": "chat", "seat": message["seat"], "user": message["user"],
                              "phrase": message["phrase"]})

    async def table_changed(self, message: dict) -> None:
        state = message["table"]
        mine = next((seat["index"] for seat in state["seats"]
                     if seat["user"] == self.user_id), None)
        await self._join_seat(mine)
        await self.send_json({"type": "table", "table": state})

    # --- heartbeat ------------------------------------------------------------

    def _start_heartbeat(self) -> None:
        """Every GAMES_HEARTBEAT_SECONDS (0: none), the process's one heartbeat tells
        the client the table's game and seq, straight down this socket: it does not go
        through the channel layer, so it still arrives while the layer is down, and a
        client whose events were lost asks for a snapshot (docs/protocol.md,
        "heartbeat"; games.live.heartbeat)."""
        heartbeat_join(table_id=self.table_id, socket=self, send=self.send)

    def _stop_heartbeat(self) -> None:
        if hasattr(self, "table_id"):
            heartbeat_leave(table_id=self.table_id, socket=self)

    # --- helpers ----------------------------------------------------------------------------------

    @classmethod
    async def encode_json(cls, content) -> str:
        # Python writes NaN and Infinity, which no browser's JSON.parse reads.
        return json.dumps(content, allow_nan=False)

    async def _follow_seat(self) -> None:
        """Join the seat's private group while this user sits here; leave it otherwise."""
        await self._join_seat(await db(presence.seat_here)(self.user_id, self.table_id))

    async def _join_seat(self, seat: int | None) -> None:
        if seat == self.seat:
            return
        if self.seat is not None:
            await self.channel_layer.group_discard(seat_group(self.table_id, self.seat),
                                                   self.channel_name)
        if seat is not None:
            await self.channel_layer.group_add(seat_group(self.table_id, seat), self.channel_name)
        self.seat = seat

    async def _send_wallet(self, wallet: dict) -> None:
        await self.send_json({"type": "wallet", **wallet})

    async def _send_snapshot(self, ref=None) -> None:
        snapshot = await shared_snapshot(self.table_id, self.user_id)
        await self.send_json(snapshot if ref is None else {**snapshot, "ref": ref})

    async def _server_error(self) -> None:
        """Something failed on the server's side (logged by the caller): say so, with a
        code a client acts on, and keep the socket (docs/protocol.md, ``server_error``)."""
        await self._error(ActionError(_("服务器出错了，请重试"), code="server_error"))

    async def _error(self, error: ActionError, content: dict | None = None) -> None:
        with translation.override(self.language):
            reply = {"type": "error", "message": str(error)}
        if error.code:
            reply["code"] = error.code
        if content and "ref" in content:
            reply["ref"] = content["ref"]
        await self.send_json(reply)

    def _take_token(self) -> bool:
        now = clock()
        self.tokens = min(self.rate_burst,
                          self.tokens + (now - self.refilled) * self.rate_per_second)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


# --- one database read per user's snapshot at a time ----------------------------------------------

_snapshots_in_flight: dict[tuple, asyncio.Future] = {}


async def shared_snapshot(table_id: int, user_id: int) -> dict:
    """The snapshot of ``table_id`` for ``user_id``, read once for all of this user's
    sockets that ask while a read is in flight (one user's sockets asking
    for snapshots queued hundreds of reads on the process's one database thread, ahead
    of every other table). A joining socket gets the read already under way: if it is
    older than an event the socket has, the next event shows a gap and the socket asks
    again (docs/protocol.md, "Sequence numbers and resync"). The result is shared:
    copy it before changing it."""
    key = (asyncio.get_running_loop(), table_id, user_id)
    pending = _snapshots_in_flight.get(key)
    if pending is None:
        pending = asyncio.ensure_future(db(snapshots.table_snapshot)(table_id, user_id))
        _snapshots_in_flight[key] = pending
        pending.add_done_callback(lambda _: _snapshots_in_flight.pop(key, None))
    # Shielded: a socket that goes away must not cancel the read the others wait for.
    return await asyncio.shield(pending)


async def act_at_table(table_id: int, user_id: int, action: str, seq: int | None,
                       payload: dict) -> None:
    """A player's action at ``table_id``, on its current game.

    The action's statement runs from the event loop (games.live.action_pool). The
    table's game as this process last saw it, so no read is needed to find it; a game
    that has ended since sends us to the table's row for the current one."""
    act = game_act_on_loop
    known = warm_engines.table_game(table_id)
    if known is not None:
        try:
            await act(user_id=user_id, game_id=known, action=action, client_seq=seq,
                      **payload)
            return
        except ActionError as error:
            if error.code != "game_over":
                raise
            current = await db(warm_engines.current_game)(table_id)
            if current == known:  # no new game yet: the refusal stands
                raise
    else:
        current = await db(warm_engines.current_game)(table_id)
    if current is None:
        raise ActionError(_("这张牌桌没有进行中的牌局"))
    await act(user_id=user_id, game_id=current, action=action, client_seq=seq, **payload)
