"""A whole game as a state machine over events (RULES §2, §3, §6, §9, §10).

Every accepted action returns the events it caused; the state is the fold of
the event log, so replaying the log rebuilds the identical state. An illegal
action raises :class:`GameError` before any event is written: it changes
nothing. Events and state are plain JSON.
"""

from __future__ import annotations

import random
from typing import Any

from .bot import simple_player_move, trustee_move
from .cards import (
    CARD_BY_CODE,
    FULL_DECK,
    CardError,
    Counts,
    check_possible,
    counts_of,
    format_cards,
    parse_cards,
)
from .dealing import first_lead_events
from .errors import GameError
from .expert import expert_move
from .hands import json_seat, physical_hands, pick_cards, sort_key
from .moves import has_beating_play
from .patterns import Reading, best_beating
from .records import reading_from_dict, reading_to_dict
from .rulesets import RuleSet
from .scoring import (
    BombRecord,
    Result,
    bomb_record,
    level_multiplier,
    score_escape,
    score_places,
    score_tcy,
)
from .turns import decided, next_seat, places, trick_leader, trick_over
from .views import event_for, game_state, game_view, vars_of

__all__ = ["HAND_SIZE", "TIMEOUT_WARNING", "Game", "GameError", "event_for", "vars_of"]

HAND_SIZE = 27
TIMEOUTS_BEFORE_TRUSTEE = 3
TIMEOUT_WARNING = "请注意，你已经超时 {count} 次了，超时三次，系统将自动托管游戏"


class Game:
    """One game. Build it with :meth:`deal`, :meth:`from_hands` or :meth:`replay`."""

    def __init__(self) -> None:
        self.events: list[dict] = []
        self.rules: RuleSet | None = None
        self.players: list[Any] = []
        self.hands: list[list[str]] = []  # physical card codes by seat, sorted
        self.counts: list[Counts] = []
        self.seed: Any = None
        self.stake = 1
        self.coins = False
        self.auto_pass = True
        self.escape_mode = "end_game"
        self.level_multiplier = 1
        self.status = "dealt"
        self.revealed: dict | None = None
        self.swapped: list[int] | None = None
        self.leader: int | None = None  # who led the current trick
        self.turn: int | None = None
        self.current: dict | None = None  # the play to beat: seat, cards, reading
        self._current_reading: Reading | None = None
        self.passes = 0  # passes since the current play
        self.trick: list[dict] = []  # this trick's plays and passes, for the table
        self.finish: list[int] = []
        self.bombs: list[BombRecord] = []
        self.trustee: list[bool] = []
        self.timeouts: list[int] = []
        self.escaped: list[int] = []
        self.plays = 0
        self.result: Result | None = None

    # --- construction ---------------------------------------------------------

    @classmethod
    def deal(cls, rules: RuleSet, players: list[Any], seed: int | str,
             previous: dict | None = None, *, stake: int = 1, coins: bool = False,
             escape_mode: str | None = None, points: list[int] | None = None) -> Game:
        """Shuffle with ``seed``, deal 27 each and settle the first lead by the rule
        set's rule (RULES §2, §9). ``previous`` is the last game at this table:
        ``{"first_out": player, "kou": "double" | "single" | "draw" | "escape",
        "escaped": bool}``. ``points`` are the players' point balances now, for a rule
        set with a level ladder (classic's 等级倍率): they and the multiplier they give
        are written into the deal, so the game scores by them whatever happens to the
        balances later (a replay and a re-settlement give the same)."""
        if len(players) != rules.players or len(set(map(str, players))) != len(players):
            raise GameError("wrong_players", rules=rules.name, players=rules.players)
        rng = random.Random(f"{seed}")
        deck = [card.code for card in FULL_DECK]
        rng.shuffle(deck)
        hands = [deck[seat * HAND_SIZE:(seat + 1) * HAND_SIZE] for seat in range(rules.players)]
        game = cls()
        deal = {"type": "deal", "rules": rules.to_dict(), "players": list(players),
                "hands": hands, "seed": seed, "stake": stake, "coins": coins,
                "auto_pass": rules.auto_pass, "escape_mode": escape_mode or rules.escape_mode}
        if points is not None and rules.has_level_multiplier:
            if len(points) != len(players) or not all(
                    isinstance(value, int) and not isinstance(value, bool) for value in points):
                raise ValueError(f"points must be one whole number per player: {points!r}")
            deal.update(points=list(points), level_multiplier=level_multiplier(rules, points))
        game._emit(deal)
        for event in first_lead_events(rules, game.players, game.hands, rng, previous):
            game._emit(event)
        return game

    @classmethod
    def from_hands(cls, rules: RuleSet, hands: list[str | list[str]], leader: int, *,
                   auto_pass: bool | None = None, players: list[Any] | None = None) -> Game:
        """A game from given rank-only hands by seat (after any 明牌 swap), with
        ``leader`` on lead: for tests and the ``game`` protocol op (RULES §11)."""
        if len(hands) != rules.players:
            raise GameError("wrong_hands", rules=rules.name, players=rules.players)
        if isinstance(leader, bool) or not isinstance(leader, int) \
                or not 0 <= leader < rules.players:
            raise GameError("bad_leader", leader=json_seat(leader), last=rules.players - 1)
        try:
            counts = [parse_cards(hand) for hand in hands]
            check_possible([sum(column) for column in zip(*counts)])
        except CardError as error:
            raise GameError.wrapping(error) from None
        physical = physical_hands(counts)
        game = cls()
        game._emit({"type": "deal", "rules": rules.to_dict(),
                    "players": players or list(range(rules.players)), "hands": physical,
                    "seed": None, "stake": 1, "coins": False,
                    "auto_pass": rules.auto_pass if auto_pass is None else auto_pass,
                    "escape_mode": rules.escape_mode})
        game._emit({"type": "first_lead", "seat": leader, "reason": "given"})
        return game

    @classmethod
    def replay(cls, events: list[dict]) -> Game:
        """The state after ``events``: the fold of the log."""
        game = cls()
        for event in events:
            game.apply(event)
        return game

    def apply(self, event: dict) -> None:
        """Fold one logged event into the state and append it to :attr:`events`: how
        :meth:`replay` rebuilds a game, and how a kept game catches up with events
        written since (the event is trusted: it was accepted when it was written)."""
        self._apply(event)
        self.events.append(event)

    # --- actions ----------------------------------------------------------------

    def play(self, seat: int, cards: str | list[str], reading: dict | None = None, *,
             by: str = "player") -> list[dict]:
        """Play ``cards`` (rank text like ``"5 5 BJ"`` or physical codes like
        ``["5S0", "5H1", "BJ0"]``); ``reading`` optionally names the intended
        reading (``{"type": "straight", "rank": "9"}``), which must be the one the
        rules record (RULES §4.1)."""
        self._check_turn(seat)
        codes = pick_cards(self.hands[seat], cards)
        counts = counts_of(CARD_BY_CODE[code] for code in codes)
        found = best_beating(counts, self._current_reading, self.rules)
        if found is None:
            if best_beating(counts, None, self.rules) is None:
                raise GameError("not_a_pattern", cards=format_cards(counts))
            raise GameError("does_not_beat", cards=format_cards(counts),
                            beat=self.current["reading"], beat_cards=self.current["cards"],
                            wildcards=list(self.rules.wildcards))
        recorded = reading_to_dict(found, counts, self.rules)
        if reading is not None:
            for key in ("type", "rank"):
                if key in reading and reading[key] != recorded.get(key):
                    raise GameError("read_otherwise", cards=format_cards(counts),
                                    reading=recorded, key=key, asked=reading[key],
                                    wildcards=list(self.rules.wildcards))
        mark = len(self.events)
        self._emit({"type": "play", "seat": seat, "cards": codes, "reading": recorded, "by": by})
        self._after_action(seat)
        return self.events[mark:]

    def pass_turn(self, seat: int, *, by: str = "player") -> list[dict]:
        self._check_turn(seat)
        if self.current is None:
            raise GameError("pass_on_lead")
        mark = len(self.events)
        self._emit({"type": "pass", "seat": seat, "by": by})
        self._after_action(seat)
        return self.events[mark:]

    def bot_turn(self, *, by: str = "bot", rng: random.Random | None = None,
                 policy: str | None = None) -> list[dict]:
        """Apply the 托管 move for the seat to act (RULES §10); with ``rng``, the
        livelier bot of :func:`bot.simple_player_move` instead; with ``policy="expert"``
        the expert bot's move (:mod:`.expert`: its own hand and the public table)."""
        if self.status != "playing":
            raise GameError("game_over")
        seat = self.turn
        if policy == "expert":
            cards = expert_move(self.counts[seat], self._current_reading,
                                self.current["seat"] if self.current else None, seat,
                                [sum(hand) for hand in self.counts], self.rules)
        elif rng is None:
            cards = self.trustee_cards(seat)
        else:
            opponents = [len(hand) for other, hand in enumerate(self.hands)
                         if other % 2 != seat % 2 or self.rules.players == 2 and other != seat]
            cards = simple_player_move(self.counts[seat], self._current_reading,
                                       self._partner_winning(seat), min(opponents),
                                       self.rules, rng)
        if cards is None:
            return self.pass_turn(seat, by=by)
        return self.play(seat, format_cards(cards), by=by)

    def trustee_cards(self, seat: int) -> Counts | None:
        """What the 托管 move would play for ``seat`` now (None: pass)."""
        return trustee_move(self.counts[seat], self._current_reading,
                            self._partner_winning(seat), self.rules)

    @property
    def current_reading(self) -> Reading | None:
        """The recorded reading of the play to beat (None on lead)."""
        return self._current_reading

    def _partner_winning(self, seat: int) -> bool:
        return (self.current is not None and self.rules.players == 4
                and self.current["seat"] % 2 == seat % 2 and self.current["seat"] != seat)

    def timeout(self, seat: int) -> list[dict]:
        """The turn timer ran out: warn, play the 托管 move; the third time the seat
        goes into 托管 (RULES §10)."""
        self._check_turn(seat)
        mark = len(self.events)
        count = self.timeouts[seat] + 1
        self._emit({"type": "timeout", "seat": seat, "count": count,
                    "message": TIMEOUT_WARNING.format(count=count)})
        if count >= TIMEOUTS_BEFORE_TRUSTEE and not self.trustee[seat]:
            self._emit({"type": "trustee", "seat": seat, "on": True, "reason": "timeouts"})
        self.bot_turn(by="timeout")
        return self.events[mark:]

    def set_trustee(self, seat: int, on: bool, reason: str = "player") -> list[dict]:
        """托管 on or off (a player's toggle, a disconnect, a reconnect)."""
        self._check_seat(seat)
        if self.status != "playing":
            raise GameError("game_over")
        if not on and seat in self.escaped:
            raise GameError("escaped_stays_trustee", seat=seat)
        if self.trustee[seat] == on:
            return []
        return [self._emit({"type": "trustee", "seat": seat, "on": on, "reason": reason})]

    def escape(self, seat: int) -> list[dict]:
        """Leaving a running game on purpose (逃跑, RULES §10)."""
        self._check_seat(seat)
        if self.status != "playing":
            raise GameError("game_over")
        if seat in self.escaped:
            raise GameError("already_left", seat=seat)
        mark = len(self.events)
        self._emit({"type": "escape", "seat": seat, "mode": self.escape_mode})
        if self.escape_mode == "end_game":
            result = score_escape(self.rules, seat, self._finish_now(), self.bombs,
                                  self.rules.players, self.stake, self.coins,
                                  level_multiplier=self.level_multiplier)
            self._emit({"type": "end", "result": result.to_dict()})
        elif not self.trustee[seat]:
            self._emit({"type": "trustee", "seat": seat, "on": True, "reason": "escape"})
        return self.events[mark:]

    # --- checks -------------------------------------------------------------------

    def _check_seat(self, seat: Any) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) \
                or not 0 <= seat < len(self.hands):
            raise GameError("no_such_seat", seat=json_seat(seat))

    def _check_turn(self, seat: Any) -> None:
        self._check_seat(seat)
        if self.status != "playing":
            raise GameError("game_over")
        if seat != self.turn:
            raise GameError("not_your_turn", seat=seat, turn=self.turn)

    # --- the flow after a play or pass ---------------------------------------------

    def _after_action(self, seat: int) -> None:
        if self.current is not None and self.current["seat"] == seat \
                and not any(self.counts[seat]):
            self._emit({"type": "out", "seat": seat, "place": len(self.finish) + 1})
            if self._decided():
                self._emit({"type": "end", "result": self._score().to_dict()})
                return
        while True:
            if self._trick_over():
                winner = self.current["seat"]
                leader = trick_leader(winner, [any(hand) for hand in self.counts])
                self._emit({"type": "trick", "winner": winner, "leader": leader})
                return
            turn = self.turn
            if not (self.auto_pass and self.current is not None and turn != self.current["seat"]
                    and not has_beating_play(self.counts[turn], self._current_reading,
                                             self.rules)):
                return
            self._emit({"type": "pass", "seat": turn, "by": "auto"})

    def _trick_over(self) -> bool:
        return self.current is not None and trick_over(
            self.passes, self.current["seat"], [any(hand) for hand in self.counts])

    def _decided(self) -> bool:
        return decided(self.finish, self.rules.players)

    def _finish_now(self) -> list[int]:
        """Places so far, then the others in playing order after the last one out."""
        start = self.finish[-1] if self.finish else (self.turn if self.turn is not None else 0) - 1
        return places(self.finish, self.rules.players, start)

    def _score(self) -> Result:
        finish = self._finish_now()
        if self.rules.players == 2:
            winner = finish[0]
            return score_tcy(self.rules, winner, sum(self.counts[1 - winner]), self.bombs,
                             self.stake, self.coins)
        return score_places(self.rules, finish, self.bombs, self.level_multiplier)

    # --- events: write and fold --------------------------------------------------------

    def _emit(self, event: dict) -> dict:
        event = {"seq": len(self.events) + 1, **event}
        self._apply(event)
        self.events.append(event)
        return event

    def _apply(self, event: dict) -> None:
        getattr(self, "_on_" + event["type"])(event)

    def _on_deal(self, event: dict) -> None:
        self.rules = RuleSet.from_dict(event["rules"])
        self.players = list(event["players"])
        self.hands = [sorted(hand, key=sort_key) for hand in event["hands"]]
        self.counts = [counts_of(CARD_BY_CODE[code] for code in hand) for hand in self.hands]
        self.seed = event["seed"]
        self.stake = event["stake"]
        self.coins = event["coins"]
        self.auto_pass = event["auto_pass"]
        self.escape_mode = event["escape_mode"]
        # Written at the deal (classic's 等级倍率); absent: ×1.
        self.level_multiplier = event.get("level_multiplier", 1)
        seats = len(self.hands)
        self.trustee = [False] * seats
        self.timeouts = [0] * seats

    def _on_reveal(self, event: dict) -> None:
        self.revealed = {key: event[key] for key in ("card", "holder", "twin", "twin_holder")}

    def _on_swap(self, event: dict) -> None:
        a, b = event["seats"]
        self.swapped = [a, b]
        self.players[a], self.players[b] = self.players[b], self.players[a]
        self.hands[a], self.hands[b] = self.hands[b], self.hands[a]
        self.counts[a], self.counts[b] = self.counts[b], self.counts[a]

    def _on_first_lead(self, event: dict) -> None:
        self.status = "playing"
        self.leader = self.turn = event["seat"]

    def _on_play(self, event: dict) -> None:
        seat = event["seat"]
        hand = self.hands[seat]
        for code in event["cards"]:
            hand.remove(code)
        played = counts_of(CARD_BY_CODE[code] for code in event["cards"])
        self.counts[seat] = tuple(have - gone for have, gone in zip(self.counts[seat], played))
        reading = reading_from_dict(event["reading"], self.rules)
        self.current = {"seat": seat, "cards": event["cards"], "reading": event["reading"]}
        self._current_reading = reading
        if reading.is_bomb:
            self.bombs.append(bomb_record(seat, reading))
        self.passes = 0
        self.plays += 1
        self.trick.append({"seat": seat, "action": "play", "cards": event["cards"],
                           "reading": event["reading"], "by": event["by"]})
        self.turn = self._next_seat(seat)

    def _on_pass(self, event: dict) -> None:
        seat = event["seat"]
        self.passes += 1
        self.trick.append({"seat": seat, "action": "pass", "by": event["by"]})
        self.turn = self._next_seat(seat)

    def _on_out(self, event: dict) -> None:
        self.finish.append(event["seat"])

    def _on_trick(self, event: dict) -> None:
        self.current = None
        self._current_reading = None
        self.passes = 0
        self.trick = []
        self.leader = self.turn = event["leader"]

    def _on_timeout(self, event: dict) -> None:
        self.timeouts[event["seat"]] = event["count"]

    def _on_trustee(self, event: dict) -> None:
        self.trustee[event["seat"]] = event["on"]

    def _on_escape(self, event: dict) -> None:
        self.escaped.append(event["seat"])

    def _on_settled(self, event: dict) -> None:
        """The platform's settlement record: money, not rules; nothing to fold."""

    def _on_end(self, event: dict) -> None:
        self.status = "ended"
        self.turn = None
        self.result = Result.from_dict(event["result"])

    def _next_seat(self, seat: int) -> int | None:
        return next_seat([any(hand) for hand in self.counts], seat)

    # --- views ----------------------------------------------------------------------------

    def view(self, seat: int | None = None) -> dict:
        """What ``seat`` may see (its own hand, the others' counts, the table and
        the history); ``None`` is a spectator, who sees no hand (RULES §11, GUIDE)."""
        return game_view(self, seat)

    def state(self) -> dict:
        """The whole state as JSON, hands included (for audits and replay checks)."""
        return game_state(self)
