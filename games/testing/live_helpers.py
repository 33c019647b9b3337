"""Helpers for the live-table tests: a table-socket client that keeps what it has
seen (a view of the game: its seat, its hand, the play to beat, the last seq), rooms
and people.

The client talks to the real consumer over the real channel layer (Redis in the
test settings) and the real database; nothing is mocked. Every message it
receives is kept in ``log`` so tests can check what each recipient saw.
"""

from __future__ import annotations

import asyncio
import copy
import json
import uuid
from collections.abc import Callable
from datetime import timedelta

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from accounts.models import User
from games.engine.bot import trustee_move
from games.engine.cards import BIG_JOKER, RANK_TOKENS, SMALL_JOKER, Counts, counts_of, unpack
from games.engine.hands import codes_for as hand_codes_for
from games.engine.moves import legal_moves
from games.engine.patterns import best_beating
from games.engine.records import reading_from_dict, reading_to_dict
from games.engine.rulesets import RuleSet
from games.engine.seat_view import FollowsView, SeqGap, fold, new_view
from games.engine.tests.game_helpers import CARD_BY_CODE
from games.live import action_pool
from games.live.routing import websocket_urlpatterns
from games.live.snapshots import engine_snapshot
from games.models import GameEvent, GameRecord, Room, RuleSetConfig, Seat
from games.presets import rule_set_presets_load

APPLICATION = URLRouter(websocket_urlpatterns)
RECEIVE_SECONDS = 10  # a message that takes longer than this is a hang, not a slow test
SCENARIO_SECONDS = 90

db = database_sync_to_async


# --- setup ------------------------------------------------------------------------------

def make_room(*, rule_set: str = "qq", **fields) -> Room:
    """A room with a preset (RULES §9), ``qq`` unless named; ``fields`` override the
    defaults."""
    rule_set_presets_load()
    return Room.objects.create(name=f"{rule_set} {uuid.uuid4().hex[:8]}",
                               rule_set=RuleSetConfig.objects.get(name=rule_set), **fields)


def make_coin_room(*, rule_set: str = "qq", **fields) -> Room:
    defaults = {"kind": Room.Kind.COINS, "coefficient": 100, "fee": 10, "min_coins": 2000,
                "max_loss": 50_000}
    return make_room(rule_set=rule_set, **{**defaults, **fields})


def make_person(name: str) -> User:
    return User.objects.create_user(username=f"{name}-{uuid.uuid4().hex[:6]}", nickname=name)


def run(scenario: Callable, seconds: float = SCENARIO_SECONDS):
    """Run an async scenario from a sync test; a hang fails after ``seconds``."""
    async def bounded():
        try:
            return await asyncio.wait_for(scenario(), seconds)
        finally:
            # The loop ends with the scenario: its action connections close with it.
            await action_pool.close()
    return async_to_sync(bounded)()


# --- reading the database from a scenario -------------------------------------------------

def game_state(game_id: int) -> dict:
    """Everything a refused action must leave unchanged: the row and the whole fold."""
    record = GameRecord.objects.get(pk=game_id)
    return {"seq": record.seq, "turn": record.turn, "deadline": record.deadline,
            "status": record.status, "events": GameEvent.objects.filter(game=record).count(),
            "state": json.dumps(engine_snapshot(record).state(), sort_keys=True)}


def events_of(game_id: int, kind: str | None = None) -> list[dict]:
    events = GameEvent.objects.filter(game_id=game_id).order_by("seq")
    if kind is not None:
        events = events.filter(type=kind)
    return list(events.values_list("data", flat=True))


def expire_turn(game_id: int) -> None:
    """The turn's deadline passed a second ago: the next sweep acts for the seat."""
    GameRecord.objects.filter(pk=game_id).update(deadline=timezone.now() - timedelta(seconds=1))


def seat_users(table_id: int) -> list[int | None]:
    return list(Seat.objects.filter(table_id=table_id).order_by("index")
                .values_list("user_id", flat=True))


# --- the client -------------------------------------------------------------------------

def counts_of_codes(codes) -> Counts:
    return counts_of(CARD_BY_CODE[code] for code in codes)


def two_unmatched_cards(client: TableClient) -> list[str]:
    """Two natural cards of different ranks from the client's hand: never a pattern
    (RULES §4)."""
    naturals = [code for code in client.hand
                if CARD_BY_CODE[code].rank not in (SMALL_JOKER, BIG_JOKER)]
    first = naturals[0]
    second = next(code for code in naturals
                  if CARD_BY_CODE[code].rank != CARD_BY_CODE[first].rank)
    return [first, second]


def ranks_text(counts: Counts) -> str:
    return " ".join(token for token, count in zip(RANK_TOKENS, counts) for _ in range(count))


class TableClient(FollowsView):
    """One browser tab on ``/ws/table/<id>/``, following the protocol of docs/protocol.md:
    it keeps ``view`` (a snapshot's game), folds events into it in seq order with
    games.engine.seat_view and asks for a snapshot when it sees a gap. ``seat``,
    ``hand``, ``turn``, ``current``, ``status``, ``trustee``, ``settled``, ``seq`` and
    ``game_id`` read the view.

    Its ``language`` is the ``django_language`` cookie it sends: English by default, the
    language of docs/protocol.md's error texts; None sends no cookie (the site's default
    language, 简体中文)."""

    def __init__(self, user: User, table_id: int, language: str | None = "en") -> None:
        self.user = user
        self.table_id = table_id
        self.communicator = WebsocketCommunicator(APPLICATION, f"/ws/table/{table_id}/")
        self.communicator.scope["user"] = user
        # What CookieMiddleware (AuthMiddlewareStack, shuangkou_site.asgi) puts in scope.
        self.communicator.scope["cookies"] = {"django_language": language} if language else {}
        self.log: list[dict] = []
        self.errors: list[dict] = []
        self.gaps = 0
        self.need_snapshot = False
        self.acted_at: int | None = None
        self.view: dict | None = None  # Game.view's shape, plus the snapshot's id
        self.rules: RuleSet | None = None
        self.table: dict | None = None








    @property
    def trustee(self) -> list[bool]:
        return self.view["trustee"] if self.view else []

    @property
    def settled(self) -> dict | None:
        """The game's ``settled`` event, once heard (always its last event)."""
        last = self.view["history"][-1] if self.view else None
        return last if last and last["type"] == "settled" else None

    def __repr__(self) -> str:
        return (f"<client {self.user} seat={self.seat} seq={self.seq} turn={self.turn} "
                f"status={self.status} acted_at={self.acted_at} errors={self.errors[-3:]} "
                f"last={self.log[-3:]}>")

    # transport

    async def connect(self) -> dict:
        connected, code = await self.communicator.connect(timeout=RECEIVE_SECONDS)
        assert connected, f"refused with {code}"
        return await self.expect("snapshot")

    async def close(self) -> None:
        await self.communicator.disconnect()

    async def send(self, message: dict) -> None:
        await self.communicator.send_json_to(message)

    async def send_text(self, text: str) -> None:
        await self.communicator.send_to(text_data=text)

    async def receive(self, timeout: float = RECEIVE_SECONDS) -> dict:
        try:
            message = await self.communicator.receive_json_from(timeout=timeout)
        except TimeoutError:
            raise AssertionError(f"{self.user} heard nothing for {timeout} s: {self!r}") \
                from None
        self.log.append(message)
        self._track(message)
        return message

    async def expect(self, kind: str, where: Callable[[dict], bool] = lambda message: True,
                     timeout: float = RECEIVE_SECONDS) -> dict:
        """The next message of type ``kind`` that satisfies ``where`` (others are kept)."""
        async def find():
            while True:
                message = await self.receive()
                if message["type"] == kind and where(message):
                    return message
        return await asyncio.wait_for(find(), timeout)

    async def silent(self, seconds: float = 0.3) -> bool:
        return await self.communicator.receive_nothing(timeout=seconds)

    async def drain(self, seconds: float = 0.3) -> None:
        while not await self.silent(seconds):
            await self.receive()

    # state

    def _track(self, message: dict) -> None:
        kind = message["type"]
        if kind == "error":
            # Rate-limited ones too: the test settings give sockets a burst no game
            # reaches, so any refusal is a finding.
            self.errors.append(message)
        elif kind == "table":
            self.table = message["table"]
        elif kind == "heartbeat":
            if self.behind(message):
                self.need_snapshot = True  # events were lost without a visible gap
        elif kind == "snapshot":
            self.table = message["table"]
            game = message["game"]
            if game is None:
                return
            self.view = copy.deepcopy(game)  # folded in place: keep the logged message as heard
            self.rules = RuleSet.from_dict(game["history"][0]["rules"])
        elif kind == "events":
            events = message["events"]
            if message["game"] != self.game_id:
                if events[0]["type"] != "deal":
                    self.need_snapshot = True  # another game's tail: resync
                    return
                # A new game: everything but this seat's hand, which its snapshot brings.
                self.view = {**new_view(events[0], self.user.pk), "id": message["game"]}
                self.rules = RuleSet.from_dict(events[0]["rules"])
            try:
                fold(self.view, events)  # skips what it holds (a snapshot overtook them)
            except SeqGap:
                self.gaps += 1
                self.need_snapshot = True  # the resync rule: a gap → ask for a snapshot

    # playing

    @property
    def my_turn(self) -> bool:
        return (self.status == "playing" and self.hand is not None and self.seat is not None
                and self.turn == self.seat)

    def choose(self, strategy: str = "trustee") -> tuple[Counts | None, dict | None]:
        """A legal move from this client's own knowledge: its hand and the public play
        to beat. ``trustee`` uses the 托管 move; ``first`` the first legal move."""
        hand = counts_of_codes(self.hand)
        over = reading_from_dict(self.current["reading"], self.rules) if self.current else None
        if strategy == "trustee":
            partner = (self.current is not None and self.current["seat"] % 2 == self.seat % 2
                       and self.current["seat"] != self.seat)
            move = trustee_move(hand, over, partner, self.rules)
        else:
            moves = sorted(legal_moves(hand, over, self.rules))
            move = unpack(moves[0]) if moves else None
        if move is None:
            return None, None
        reading = best_beating(move, over, self.rules)
        return move, reading_to_dict(reading, move, self.rules)

    def codes_for(self, counts: Counts) -> list[str]:
        return hand_codes_for(self.hand, counts)

    async def play_turn(self, strategy: str = "trustee", as_codes: bool = True) -> dict:
        """Send this seat's move for the current turn, with the current seq."""
        move, reading = self.choose(strategy)
        self.acted_at = self.seq
        if move is None:
            message = {"type": "pass", "seq": self.seq}
        else:
            cards = self.codes_for(move) if as_codes else ranks_text(move)
            message = {"type": "play", "seq": self.seq, "cards": cards,
                       "reading": {"type": reading["type"], "rank": reading.get("rank")}}
        await self.send(message)
        return message

    async def play_until_settled(self, strategy: str = "trustee", as_codes: bool = True) -> dict:
        """Answer every turn of this seat, through the end and the ``settled`` event."""
        while self.settled is None:
            if self.need_snapshot:
                self.need_snapshot = False
                await self.send({"type": "snapshot"})
            elif self.my_turn and self.acted_at != self.seq:
                await self.play_turn(strategy, as_codes)
            await self.receive()
        return self.settled

    async def follow_until_settled(self) -> dict:
        """Only listen (a spectator, or a seat in 托管)."""
        while self.settled is None:
            if self.need_snapshot:
                self.need_snapshot = False
                await self.send({"type": "snapshot"})
            await self.receive()
        return self.settled


async def connect_all(table_id: int, *users: User) -> list[TableClient]:
    """A connected client for each user at the table, in order."""
    clients = [TableClient(user, table_id) for user in users]
    for client in clients:
        await client.connect()
    return clients


async def start_game(people: list[TableClient]) -> int:
    """Seat ``people`` (the first may be seated already), get them ready and wait until
    each holds its hand; bots fill the rest (GAMES_BOT_FILL_SECONDS = 0)."""
    for client in people:
        if client.user.pk not in await db(seat_users)(client.table_id):
            await client.send({"type": "sit"})
            await client.expect("table", lambda message, client=client: any(
                seat["user"] == client.user.pk for seat in message["table"]["seats"]))
    for client in people:
        await client.send({"type": "ready"})
    for client in people:
        await client.expect("snapshot", lambda message: bool(
            message["game"] and message["game"]["hand"] and message["game"]["status"]
            == "playing"))
    return people[0].game_id


async def pump(clients: list[TableClient], until: Callable[[], bool],
               strategy: str = "trustee") -> None:
    """Let the people play (their own legal moves) until ``until()`` holds: checked once
    the clients have read what was already on its way, then after each move, once every
    client has the one ``events`` message that an accepted action (with the bots' and
    托管 moves it sets off, in the same transaction) sends to everyone."""
    for client in clients:
        while not await client.silent(0.05):
            await client.receive()
    while not until():
        mover = next((client for client in clients
                      if client.my_turn and client.acted_at != client.seq), None)
        assert mover is not None, "nobody can move and the condition does not hold"
        await mover.play_turn(strategy)
        for client in clients:
            await client.expect("events")
