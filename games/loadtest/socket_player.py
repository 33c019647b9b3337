"""A player that speaks the table socket protocol (docs/protocol.md) over a real
WebSocket: the load test and the scale-out test drive games with it.

It keeps what a seat may know as a view (``Game.view``'s shape): loaded from a
snapshot, then kept current by folding the public events with
games.engine.seat_view (a gap asks for a snapshot). It answers each of its turns
with the 托管 move after a think time, from the view's hand, play to beat and
seat. No Django settings: the engine (its ``codes_for`` included) and the
``websockets`` client.
"""

from __future__ import annotations

import asyncio
import collections
import json
import random
import time
from dataclasses import dataclass, field

from websockets.asyncio.client import connect

from games.engine.bot import trustee_move
from games.engine.cards import FULL_DECK, counts_of
from games.engine.hands import codes_for
from games.engine.presets import get_ruleset
from games.engine.records import reading_from_dict
from games.engine.rulesets import RuleSet
from games.engine.seat_view import FollowsView, SeqGap, fold

_CARDS = {card.code: card for card in FULL_DECK}


@dataclass
class Stats:
    """Shared by the clients of one run."""

    sent: dict = field(default_factory=dict)  # (game, first seq) -> send time
    received: dict = field(default_factory=dict)  # (game, first seq) -> receipt times
    latencies: list = field(default_factory=list)
    completed: list = field(default_factory=list)  # when each latency ended (perf_counter)
    # Per sample, beside the latency: (game, first seq, sent, first seat's receipt, last
    # seat's receipt), perf_counter times (scripts/loadtest.py --samples-out).
    samples: list = field(default_factory=list)
    actions: int = 0
    # (code, message) of each error: the code as the server sent it (None when it sent
    # none), "client" for a failure of the client itself. The message is in the
    # socket's language, so code reads the code (docs/protocol.md, "Errors").
    errors: list[tuple[str | None, str]] = field(default_factory=list)
    games_started: set = field(default_factory=set)
    # When each game's first snapshot reached a client (perf_counter): a cold start's
    # shape, table by table (scripts/loadtest.py prints its quantiles).
    first_dealt: dict = field(default_factory=dict)
    # When each client's handshake completed and its first snapshot came (perf_counter):
    # where in a socket's start the time goes.
    handshakes: list = field(default_factory=list)
    first_snapshots: list = field(default_factory=list)
    games_ended: set = field(default_factory=set)
    games_settled: set = field(default_factory=set)

    def error_codes(self) -> str:
        """The errors by code, most frequent first: "stale: 3, busy: 1"."""
        counts = collections.Counter(code for code, _message in self.errors)
        return ", ".join(f"{code}: {count}" for code, count in counts.most_common())

    def note_receipt(self, key: tuple, seats: int) -> None:
        times = self.received.setdefault(key, [])
        times.append(time.perf_counter())
        if len(times) == seats:
            del self.received[key]
            if key in self.sent:  # not a server bot's move
                sent = self.sent.pop(key)
                self.latencies.append(max(times) - sent)
                self.completed.append(max(times))
                self.samples.append((*key, sent, min(times), max(times)))


class BotClient(FollowsView):
    """One seat of the load test. Like the table page, it says ready once the table is
    on screen (the snapshot the server sends on connect), not at the handshake: uvicorn
    stops reading a socket while a message waits for the app, pings included, so a
    ready sent while the server was still opening the socket (its database thread busy
    with a cold start) left the client's keepalive pings unanswered."""

    def __init__(self, url: str, session: str, origin: str, stats: Stats, *,
                 ruleset: str = "qq", think: float = 1.0, jitter: float = 0.5,
                 seats: int = 4, rng: random.Random | None = None) -> None:
        self.url, self.session, self.origin = url, session, origin
        self.stats = stats
        self.rules = get_ruleset(ruleset)
        self.think, self.jitter, self.seats = think, jitter, seats
        self.rng = rng or random.Random()
        self.view: dict | None = None  # the game's view for this seat (a snapshot's game)
        self.stop_after = float("inf")
        self._acting = False
        self._acted_at: int | None = None  # the seq of our last action, until its events come
        self._backoff = 0.0  # extra wait before acting again after a refusal






    @property
    def playing(self) -> bool:
        return self.view is not None and self.view["status"] == "playing"

    async def run(self, until: float, keep_playing: bool = True) -> None:
        """Play games until ``until`` (perf_counter time; ``stop_after`` may move it),
        then finish the game at hand and close."""
        self.stop_after = until
        headers = {"Cookie": f"sessionid={self.session}"}
        async with connect(self.url, origin=self.origin, additional_headers=headers,
                           open_timeout=30, max_queue=256) as socket:
            self.socket = socket
            self.stats.handshakes.append(time.perf_counter())
            await self._handle(json.loads(await socket.recv()))  # the table, on connect
            self.stats.first_snapshots.append(time.perf_counter())
            await self._send({"type": "ready"})
            async for raw in socket:
                message = json.loads(raw)
                await self._handle(message)
                if not self.playing and (time.perf_counter() > self.stop_after
                                         or not keep_playing) \
                        and self.game_id in self.stats.games_settled:
                    return

    async def _handle(self, message: dict) -> None:
        kind = message["type"]
        if kind == "snapshot":
            if self._load(message):
                await self._settled()
        elif kind == "events":
            await self._events(message)
        elif kind == "heartbeat":
            if self.behind(message):
                await self._send({"type": "snapshot"})  # events lost without a gap
        elif kind == "error":
            self.stats.errors.append((message.get("code"), message["message"]))
            self._acted_at = None  # the action was refused: try again if still our turn
            self._backoff = 0.25
            if message.get("code") == "stale":
                await self._send({"type": "snapshot"})
                return
        if self.playing and self.turn == self.seat and not self._acting \
                and self._acted_at != self.seq:
            self._acting = True
            asyncio.get_running_loop().create_task(self._act())

    def _load(self, message: dict) -> bool:
        """Take a snapshot's game as this seat's view; returns whether it shows this
        client's game settled for the first time (the events saying so were lost)."""
        game = message.get("game")
        if game is None:
            return False
        if game["id"] == self.game_id and game["seq"] <= self.seq:
            return False  # an older picture than the events already applied
        if game["status"] != "playing" and game["id"] != self.game_id:
            return False  # a finished game before this client's: nothing to play
        self.view = game
        self.rules = RuleSet.from_dict(game["history"][0]["rules"])  # the rules dealt
        self.stats.games_started.add(self.game_id)
        self.stats.first_dealt.setdefault(self.game_id, time.perf_counter())
        if game["status"] == "ended":
            self.stats.games_ended.add(self.game_id)
        return game.get("settlement") is not None and self.game_id not in self.stats.games_settled

    async def _events(self, message: dict) -> None:
        events = message["events"]
        if message["game"] != self.game_id:
            return  # a new game: the server pushes this seat's snapshot with its hand
        self.stats.note_receipt((message["game"], events[0]["seq"]), self.seats)
        if message["seq"] <= self.seq:
            return  # already in the snapshot this client loaded
        fresh = [event for event in events if event["seq"] > self.seq]
        try:
            fold(self.view, fresh)
        except SeqGap:
            await self._send({"type": "snapshot"})  # a gap: the layer lost a message
            return
        for event in fresh:
            kind = event["type"]
            if kind == "end":
                self.stats.games_ended.add(self.game_id)
            elif kind == "settled":
                await self._settled()

    async def _settled(self) -> None:
        self.stats.games_settled.add(self.game_id)
        if time.perf_counter() < self.stop_after:
            await self._send({"type": "ready"})

    async def _act(self) -> None:
        try:
            delay = max(0.0, self.think + self.rng.uniform(-self.jitter, self.jitter))
            await asyncio.sleep(max(delay, self._backoff))
            self._backoff = 0.0
            if not self.playing or self.turn != self.seat:
                return
            counts = counts_of(_CARDS[code] for code in self.hand or [])
            current = self.view["current"]
            over = reading_from_dict(current["reading"], self.rules) if current else None
            partner = (current is not None and self.rules.players == 4
                       and current["seat"] % 2 == self.seat % 2 and current["seat"] != self.seat)
            move = trustee_move(counts, over, partner, self.rules)
            key = (self.game_id, self.seq + 1)
            self._acted_at = self.seq
            if move is None:
                message = {"type": "pass", "seq": self.seq}
            else:
                message = {"type": "play", "seq": self.seq, "cards": codes_for(self.hand, move)}
            self.stats.sent[key] = time.perf_counter()
            self.stats.actions += 1
            await self._send(message)
        except Exception as error:  # a task's error would vanish: count it
            self.stats.errors.append(("client", repr(error)))
            raise
        finally:
            self._acting = False

    async def _send(self, message: dict) -> None:
        await self.socket.send(json.dumps(message))


class ReconnectingBotClient(BotClient):
    """A BotClient that survives its server: when the socket drops (a web process
    killed, a restart) it reconnects with a backoff and catches up from the snapshot
    the server sends on connect. A watchdog asks for a snapshot when nothing has come
    for ``idle`` seconds in a game (a message the layer lost while Redis was down
    leaves no gap to notice). Counts its reconnects in ``reconnects``."""

    def __init__(self, *args, idle: float = 10.0, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.idle = idle
        self.reconnects = 0
        self.ready_wait = 5.0
        self._readied: dict = {}  # game id -> when this client said ready after it
        self._heard = time.perf_counter()

    async def run(self, until: float, keep_playing: bool = True) -> None:
        from websockets.exceptions import ConnectionClosed, InvalidHandshake

        self.stop_after = until
        delay = 0.2
        first = True
        while True:
            try:
                await self._session(until, keep_playing, first)
                return
            except (TimeoutError, ConnectionClosed, OSError, InvalidHandshake):
                pass
            if time.perf_counter() > self.stop_after + 600:
                raise RuntimeError("could not reconnect")
            first = False
            self.reconnects += 1
            self._acting = False
            # An action sent just before the close may have died with the process: the
            # snapshot after reconnecting says whether it is still this seat's turn (the
            # server refuses a repeat by its seq).
            self._acted_at = None
            await asyncio.sleep(delay * (0.5 + self.rng.random()))
            delay = min(delay * 2, 2.0)

    async def _session(self, until: float, keep_playing: bool, first: bool) -> None:
        headers = {"Cookie": f"sessionid={self.session}"}
        async with connect(self.url, origin=self.origin, additional_headers=headers,
                           open_timeout=10, max_queue=256) as socket:
            self.socket = socket
            self.stats.handshakes.append(time.perf_counter())
            await self._handle(json.loads(await socket.recv()))  # the table, on connect
            self.stats.first_snapshots.append(time.perf_counter())
            self._heard = time.perf_counter()
            if first or not self.playing:
                await self._send({"type": "ready"})
            watchdog = asyncio.get_running_loop().create_task(self._watch())
            try:
                async for raw in socket:
                    self._heard = time.perf_counter()
                    await self._handle(json.loads(raw))
                    if not self.playing and (time.perf_counter() > self.stop_after
                                             or not keep_playing) \
                            and self.game_id in self.stats.games_settled \
                            and not self._next_game_may_start():
                        return
            finally:
                watchdog.cancel()
            raise ConnectionError("closed by the server")

    async def _settled(self) -> None:
        if time.perf_counter() < self.stop_after and self.game_id not in self._readied:
            self._readied[self.game_id] = time.perf_counter()
        await super()._settled()

    def _next_game_may_start(self) -> bool:
        """Whether this client said ready after its last game only a moment ago: if the
        other seats did too before they were told to stop, the next game starts and
        must be played, not left to the server's bots."""
        readied = self._readied.get(self.game_id)
        return readied is not None and time.perf_counter() - readied < self.ready_wait

    async def _send(self, message: dict) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            await super()._send(message)
        except ConnectionClosed:
            self._acted_at = None  # not sent: the snapshot after reconnecting says what to do

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.idle / 2)
            if time.perf_counter() - self._heard > self.idle:
                self._heard = time.perf_counter()
                self._acted_at = None  # our last action may have been lost with its reply
                await self._send({"type": "snapshot"})
