"""Random whole games under every rule set, as hypothesis state machines.

Each machine deals from a drawn seed and then takes random legal actions (plays
from the legal-move generator, passes, 托管 moves, timeouts, 托管 toggles,
escapes in both modes) and random illegal ones, which must be refused without
changing anything. ``check_invariants`` runs after every step (RULES §2, §3,
§6, §9, §10, §11; GUIDE: state = fold(events), per-recipient views). On a
failure hypothesis prints the steps, the seed among them.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, Phase, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from games.engine.cards import RANK_TOKENS, parse_cards
from games.engine.game import TIMEOUT_WARNING, Game
from games.engine.patterns import best_beating
from games.engine.presets import PRESETS
from games.engine.rulesets import ESCAPE_MODES
from games.engine.scoring import game_bomb_multiplier
from games.engine.tests.examples import DERANDOMIZED, examples
from games.engine.tests.game_helpers import (
    ALL_CODES,
    assert_refused,
    check_invariants,
    codes_for,
    codes_text,
    dealt_codes,
    hand_counts,
    is_bomb_play,
    legal_plays,
)

NATURAL_TOKENS = RANK_TOKENS[:13]


def playing(machine: GameMachine) -> bool:
    return machine.game.status == "playing"


def following(machine: GameMachine) -> bool:
    return playing(machine) and machine.game.current is not None


def on_lead(machine: GameMachine) -> bool:
    return playing(machine) and machine.game.current is None


def ended(machine: GameMachine) -> bool:
    return machine.game.status == "ended"


def may_escape(machine: GameMachine) -> bool:
    # Escapes end most games at once: let a drawn number of plays happen first.
    return playing(machine) and machine.game.plays >= machine.escape_after


def may_finish(machine: GameMachine) -> bool:
    return playing(machine) and machine.game.plays >= machine.finish_after


class GameMachine(RuleBasedStateMachine):
    ruleset = "qq"

    @initialize(seed=st.integers(0, 2**32 - 1), escape_mode=st.sampled_from(ESCAPE_MODES),
                stake=st.sampled_from([1, 5, 20]), coins=st.booleans(),
                previous=st.none() | st.tuples(
                    st.integers(0, 3), st.sampled_from(["double", "single", "draw", "escape"])),
                escape_after=st.integers(0, 150), finish_after=st.integers(0, 60),
                points=st.none() | st.lists(st.integers(-1000, 2_000_000), min_size=4,
                                            max_size=4))
    def deal(self, seed, escape_mode, stake, coins, previous, escape_after, finish_after,
             points):
        rules = PRESETS[self.ruleset]
        self.players = [f"player-{seat}" for seat in range(rules.players)]
        if previous is not None:
            previous = {"first_out": self.players[previous[0] % rules.players],
                        "kou": previous[1]}
        # The seats' point balances: classic's 等级倍率 (RULES §9); others ignore them.
        self.game = Game.deal(rules, self.players, seed, previous, stake=stake, coins=coins,
                              escape_mode=escape_mode,
                              points=points[:rules.players] if points else None)
        self.escape_after = escape_after
        self.finish_after = finish_after
        assert self.game.status == "playing"
        assert sorted(self.game.players) == sorted(self.players)

    # --- legal actions -------------------------------------------------------------

    def _legal_action(self, data) -> list[dict]:
        game = self.game
        seat = game.turn
        if game.trustee[seat]:  # as the table would: 托管 seats are played by the bot
            return self._bot_move()
        choice = data.draw(st.sampled_from(["play", "play", "pass", "bot", "lively bot"]))
        if choice == "lively bot":
            # The livelier table bot (bot_turn with an rng) must also make legal moves.
            events = game.bot_turn(rng=random.Random(data.draw(st.integers(0, 2**16))))
            assert events[0]["seat"] == seat and events[0]["by"] == "bot"
            return events
        if choice == "pass" and game.current is not None:
            events = game.pass_turn(seat)
            assert events[0]["type"] == "pass" and events[0]["seat"] == seat
            assert events[0]["by"] == "player"
            return events
        if choice == "bot":
            return self._bot_move()
        plays = legal_plays(game)
        assert plays, "a seat to act always has a legal play"
        text = data.draw(st.sampled_from(plays))
        before = hand_counts(game, seat)
        cards = codes_for(game, seat, text) if data.draw(st.booleans()) else text
        events = game.play(seat, cards)
        played = events[0]
        assert played["type"] == "play" and played["seat"] == seat
        assert codes_text(played["cards"]) == text
        after = hand_counts(game, seat)
        assert [a + b for a, b in zip(after, parse_cards(text))] == list(before)
        return events

    def _bot_move(self) -> list[dict]:
        game = self.game
        seat = game.turn
        current = game.current
        expected = smallest_trustee_reading(game)
        events = game.bot_turn()
        first = events[0]
        assert first["seat"] == seat and first["by"] == "bot"
        if current is None:
            # RULES §10: on lead, the smallest single card.
            assert first["type"] == "play" and first["reading"]["type"] == "single"
        if expected is None:
            # The partner is winning, the play to beat is a bomb, or nothing of the
            # same type beats it without bombing.
            assert first["type"] == "pass"
        else:
            assert first["type"] == "play" and not is_bomb_play(first)
            assert (first["reading"]["type"], first["reading"]["rank"]) == expected
        return events

    def _refused_after_the_end(self, seat_index: int) -> None:
        """RULES §11: anything after the end is refused."""
        game = self.game
        seat = seat_index % game.rules.players
        hand = game.hands[seat]
        assert_refused(game, lambda: game.play(seat, [hand[0]] if hand else "3"), "over")
        assert_refused(game, lambda: game.pass_turn(seat), "over")
        assert_refused(game, game.bot_turn, "over")
        assert_refused(game, lambda: game.timeout(seat), "over")
        assert_refused(game, lambda: game.set_trustee(seat, seat % 2 == 0), "over")
        assert_refused(game, lambda: game.escape(seat), "over")

    # Every rule stays enabled after the end and then checks that its action is
    # refused: hypothesis gives up on runs where few rules are enabled.

    @rule(data=st.data(), seat_index=st.integers(0, 3))
    def take_a_legal_action(self, data, seat_index):
        if ended(self):
            return self._refused_after_the_end(seat_index)
        self._legal_action(data)

    @rule(data=st.data(), count=st.integers(1, 60), seat_index=st.integers(0, 3))
    def take_several_legal_actions(self, data, count, seat_index):
        if ended(self):
            return self._refused_after_the_end(seat_index)
        for _ in range(count):
            if not playing(self):
                return
            self._legal_action(data)
            check_invariants(self.game)

    @precondition(lambda self: may_finish(self) or ended(self))
    @rule(data=st.data(), seat_index=st.integers(0, 3))
    def play_on_to_the_end(self, data, seat_index):
        if ended(self):
            return self._refused_after_the_end(seat_index)
        for _ in range(2000):
            if not playing(self):
                return
            self._legal_action(data)
            check_invariants(self.game)
        raise AssertionError("the game did not end")

    @rule(seat_index=st.integers(0, 3))
    def let_the_trustee_bot_move(self, seat_index):
        if ended(self):
            return self._refused_after_the_end(seat_index)
        self._bot_move()

    @rule(seat_index=st.integers(0, 3))
    def time_out(self, seat_index):
        if ended(self):
            return self._refused_after_the_end(seat_index)
        game = self.game
        seat = game.turn
        count = game.timeouts[seat] + 1
        was_trustee = game.trustee[seat]
        events = game.timeout(seat)
        # RULES §10: warn with the count; the third timeout switches to 托管.
        assert events[0] == {**events[0], "type": "timeout", "seat": seat, "count": count,
                             "message": TIMEOUT_WARNING.format(count=count)}
        assert f"超时 {count} 次" in events[0]["message"]
        switched = [event for event in events if event["type"] == "trustee"]
        if count >= 3 and not was_trustee:
            assert switched == [{**switched[0], "seat": seat, "on": True,
                                 "reason": "timeouts"}]
        else:
            assert switched == []
        assert events[1 + len(switched)]["by"] == "timeout"
        assert game.timeouts[seat] == count
        assert game.trustee[seat] == (was_trustee or count >= 3)

    @rule(seat_index=st.integers(0, 3), on=st.booleans())
    def toggle_trustee(self, seat_index, on):
        if ended(self):
            return self._refused_after_the_end(seat_index)
        game = self.game
        seat = seat_index % game.rules.players
        if not on and seat in game.escaped:
            assert_refused(game, lambda: game.set_trustee(seat, False), "escaped")
            return
        was = game.trustee[seat]
        events = game.set_trustee(seat, on)
        assert game.trustee[seat] == on
        assert len(events) == (0 if was == on else 1)

    @precondition(lambda self: may_escape(self) or ended(self))
    @rule(seat_index=st.integers(0, 3))
    def escape(self, seat_index):
        if ended(self):
            return self._refused_after_the_end(seat_index)
        game = self.game
        seat = seat_index % game.rules.players
        if seat in game.escaped:
            assert_refused(game, lambda: game.escape(seat))
            return
        events = game.escape(seat)
        assert events[0]["type"] == "escape" and events[0]["seat"] == seat
        if game.escape_mode == "end_game":
            # RULES §10: the game stops at once; the escaper pays the penalty.
            assert [event["type"] for event in events] == ["escape", "end"]
            assert game.status == "ended"
            assert game.result.escaped == seat and game.result.kou == "escape"
            if game.rules.players == 4:
                # RULES §10: 12 units; classic (§9): 4 units × the multipliers so far.
                penalty = game.rules.escape_penalty_units * game.stake
                if game.rules.escape_penalty_multiplied:
                    penalty *= game_bomb_multiplier(game.rules, game.bombs, 1 - seat % 2) \
                        * game.level_multiplier
                assert game.result.penalty == penalty
        else:
            # auto_play: the seat stays in 托管 to the end and cannot take it back.
            assert game.status == "playing" and game.trustee[seat]
            assert_refused(game, lambda: game.set_trustee(seat, False), "escaped")

    # --- illegal actions ------------------------------------------------------------

    @rule(data=st.data(), seat_index=st.integers(0, 3))
    def acting_out_of_turn_is_refused(self, data, seat_index):
        if ended(self):
            return self._refused_after_the_end(seat_index)
        game = self.game
        seat = data.draw(st.sampled_from(
            [s for s in range(game.rules.players) if s != game.turn]
            + [-1, game.rules.players, 7, True, "0", None]))
        plays = legal_plays(game)
        assert_refused(game, lambda: game.play(seat, plays[0]))
        assert_refused(game, lambda: game.pass_turn(seat))
        assert_refused(game, lambda: game.timeout(seat))

    @rule(data=st.data(), seat_index=st.integers(0, 3))
    def playing_cards_not_held_is_refused(self, data, seat_index):
        if ended(self):
            return self._refused_after_the_end(seat_index)
        game = self.game
        seat = game.turn
        others = sorted({code for hand in game.hands for code in hand} - set(game.hands[seat]))
        if game.rules.players == 2:
            others += sorted(ALL_CODES - set(dealt_codes(game)))  # tcy: the unused 54
        code = data.draw(st.sampled_from(others))
        assert_refused(game, lambda: game.play(seat, [code]), "do not hold")
        own = game.hands[seat][0]
        assert_refused(game, lambda: game.play(seat, [own, own]), "do not hold")
        counts = game.counts[seat]
        rank = data.draw(st.sampled_from(range(len(counts))))
        too_many = " ".join([RANK_TOKENS[rank]] * (counts[rank] + 1))
        assert_refused(game, lambda: game.play(seat, too_many))

    @rule(data=st.data(), seat_index=st.integers(0, 3))
    def playing_a_non_pattern_is_refused(self, data, seat_index):
        if ended(self):
            return self._refused_after_the_end(seat_index)
        game = self.game
        seat = game.turn
        assert_refused(game, lambda: game.play(seat, ""), "at least one card")
        assert_refused(game, lambda: game.play(seat, "3 X"), "unknown card")
        naturals = [token for token, count in zip(NATURAL_TOKENS, game.counts[seat]) if count]
        if len(naturals) >= 2:
            # Two different natural ranks are never a pattern (RULES §4).
            first, second = data.draw(st.lists(st.sampled_from(naturals), min_size=2,
                                               max_size=2, unique=True))
            assert_refused(game, lambda: game.play(seat, f"{first} {second}"),
                           "not a valid pattern")

    @rule(data=st.data(), seat_index=st.integers(0, 3))
    def a_play_that_does_not_beat_is_refused(self, data, seat_index):
        if ended(self):
            return self._refused_after_the_end(seat_index)
        game = self.game
        if game.current is None:
            return
        weaker = sorted(set(legal_plays_on_lead(game)) - set(legal_plays(game)))
        if not weaker:
            return
        text = data.draw(st.sampled_from(weaker))
        assert best_beating(parse_cards(text), game._current_reading, game.rules) is None
        assert_refused(game, lambda: game.play(game.turn, text), "does not beat")

    @rule(seat_index=st.integers(0, 3))
    def a_pass_on_lead_is_refused(self, seat_index):
        if ended(self):
            return self._refused_after_the_end(seat_index)
        game = self.game
        if game.current is None:
            assert_refused(game, lambda: game.pass_turn(game.turn), "on lead")

    @rule(data=st.data(), seat_index=st.integers(0, 3))
    def a_reading_the_rules_do_not_record_is_refused(self, data, seat_index):
        if ended(self):
            return self._refused_after_the_end(seat_index)
        game = self.game
        text = data.draw(st.sampled_from(legal_plays(game)))
        recorded = best_beating(parse_cards(text), game._current_reading, game.rules)
        wrong = "triples" if recorded.kind != "triples" else "single"
        assert_refused(game, lambda: game.play(game.turn, text, {"type": wrong}), "read as")

    def teardown(self):
        # Shown by --hypothesis-show-statistics: how the drawn games ended.
        game = getattr(self, "game", None)
        if game is not None:
            event(f"{game.status}: {game.result.kou if game.result else '-'}, "
                  f"{len(game.events)} events")

    # --- invariants -------------------------------------------------------------------

    @invariant()
    def every_invariant_holds(self):
        check_invariants(self.game)


def smallest_trustee_reading(game: Game) -> tuple[str, str] | None:
    """What RULES §10 says the 托管 move plays, as (type, rank): on lead the
    smallest single; following, a pass when the partner is winning or the play to
    beat is a bomb, else the lowest-ranked non-bomb play of the same type that
    beats it (None: a pass)."""
    seat = game.turn
    current = game._current_reading
    if current is None:
        smallest = next(rank for rank, count in enumerate(game.counts[seat]) if count)
        return "single", RANK_TOKENS[smallest]
    winner = game.current["seat"]
    if current.is_bomb or (game.rules.players == 4 and winner != seat
                           and winner % 2 == seat % 2):
        return None
    candidates = []
    for text in legal_plays(game):
        reading = best_beating(parse_cards(text), current, game.rules)
        if not reading.is_bomb and reading.kind == current.kind:
            candidates.append(reading.rank)
    if not candidates:
        return None
    return current.kind, RANK_TOKENS[min(candidates)]


def legal_plays_on_lead(game: Game) -> list[str]:
    saved = game._current_reading
    try:
        game._current_reading = None
        return legal_plays(game)
    finally:
        game._current_reading = saved


# Shrinking a run of whole games takes minutes (hypothesis stops at five per test),
# so it is off unless ENGINE_SHRINK=1: the failing run's steps and seed are printed
# either way.
PHASES = tuple(Phase) if os.environ.get("ENGINE_SHRINK") else tuple(
    phase for phase in Phase if phase is not Phase.shrink)
# Derandomized under the ``ci`` profile: CI never fails by chance (games.engine.tests.examples).
MACHINE_SETTINGS = settings(max_examples=examples(20), stateful_step_count=40, deadline=None,
                            phases=PHASES, derandomize=DERANDOMIZED,
                            suppress_health_check=[HealthCheck.too_slow,
                                                   HealthCheck.filter_too_much])


class QqGameMachine(GameMachine):
    ruleset = "qq"


class TcyGameMachine(GameMachine):
    ruleset = "tcy"


class JinyouGameMachine(GameMachine):
    ruleset = "jinyou"


class ClassicGameMachine(GameMachine):
    ruleset = "classic"


# Whole games, many of them: seconds each (make test-fast leaves them out).
TestQqGamesKeepEveryInvariant = pytest.mark.slow(QqGameMachine.TestCase)
TestQqGamesKeepEveryInvariant.settings = MACHINE_SETTINGS
TestTcyGamesKeepEveryInvariant = pytest.mark.slow(TcyGameMachine.TestCase)
TestTcyGamesKeepEveryInvariant.settings = MACHINE_SETTINGS
TestJinyouGamesKeepEveryInvariant = pytest.mark.slow(JinyouGameMachine.TestCase)
TestJinyouGamesKeepEveryInvariant.settings = MACHINE_SETTINGS
TestClassicGamesKeepEveryInvariant = pytest.mark.slow(ClassicGameMachine.TestCase)
TestClassicGamesKeepEveryInvariant.settings = MACHINE_SETTINGS
