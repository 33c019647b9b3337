"""State = fold(events) (GUIDE): any prefix of any game's log, also JSON-encoded,
replays to the state the game had at that point, and a replayed game goes on
exactly like the original."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.game import Game
from games.engine.presets import PRESETS
from games.engine.tests.examples import examples
from games.engine.tests.game_helpers import legal_plays, play_out

PLAYERS = {2: ["ann", "bob"], 4: ["ann", "bob", "cy", "dee"]}


def random_action(game: Game, rng: random.Random) -> None:
    """One random legal action, of any kind the engine takes."""
    seat = game.turn
    roll = rng.random()
    if roll < 0.03:
        game.escape(rng.randrange(game.rules.players)) if not game.escaped else game.bot_turn()
    elif roll < 0.08:
        game.timeout(seat)
    elif roll < 0.12:
        other = rng.randrange(game.rules.players)
        game.set_trustee(other, other in game.escaped or rng.random() < 0.5)
    elif roll < 0.3 and game.current is not None:
        game.pass_turn(seat)
    elif roll < 0.5 or game.trustee[seat]:
        game.bot_turn()
    else:
        game.play(seat, rng.choice(legal_plays(game)))


def record_game(name: str, seed: int, rng: random.Random, escape_mode: str
                ) -> tuple[Game, list[tuple[int, dict]]]:
    rules = PRESETS[name]
    game = Game.deal(rules, PLAYERS[rules.players], seed, escape_mode=escape_mode,
                     stake=rng.choice([1, 3]), coins=rng.random() < 0.5)
    checkpoints = [(len(game.events), json.loads(json.dumps(game.state())))]
    while game.status == "playing":
        random_action(game, rng)
        checkpoints.append((len(game.events), json.loads(json.dumps(game.state()))))
    return game, checkpoints


@settings(max_examples=examples(16), deadline=None)
@given(name=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**32 - 1),
       escape_mode=st.sampled_from(["end_game", "auto_play"]), rng=st.randoms())
def test_every_prefix_of_a_log_replays_to_the_state_at_that_point(name, seed, escape_mode,
                                                                   rng):
    game, checkpoints = record_game(name, seed, rng, escape_mode)
    encoded = json.loads(json.dumps(game.events, ensure_ascii=False))
    for count, state in checkpoints:
        assert Game.replay(game.events[:count]).state() == state
        assert Game.replay(encoded[:count]).state() == state


@settings(max_examples=examples(12), deadline=None)
@given(name=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**32 - 1),
       cut=st.floats(0, 1), rng=st.randoms())
def test_a_game_replayed_mid_game_goes_on_exactly_like_the_original(name, seed, cut, rng):
    rules = PRESETS[name]
    game = Game.deal(rules, PLAYERS[rules.players], seed, escape_mode="auto_play")
    for _ in range(int(cut * 80)):
        if game.status != "playing":
            break
        random_action(game, rng)
    replayed = Game.replay(json.loads(json.dumps(game.events)))
    assert replayed.state() == game.state()
    while game.status == "playing":
        replayed.bot_turn()
        game.bot_turn()
        assert replayed.events == game.events
    assert replayed.status == "ended" and replayed.result == game.result


def test_a_finished_games_log_replays_to_the_same_result():
    game = play_out(Game.deal(PRESETS["qq"], PLAYERS[4], 12))
    replayed = Game.replay(json.loads(json.dumps(game.events)))
    assert replayed.result == game.result
    assert replayed.state() == game.state()
    assert replayed.view(2) == game.view(2)


def test_an_escaped_games_log_replays_to_the_same_settlement():
    game = Game.deal(PRESETS["jinyou"], PLAYERS[4], 8)
    for _ in range(30):
        game.bot_turn()
    game.escape(3)
    replayed = Game.replay(game.events)
    assert replayed.result == game.result and replayed.result.escaped == 3
    assert replayed.escaped == [3] and replayed.status == "ended"


def test_a_from_hands_games_log_replays_with_its_auto_pass_setting():
    game = Game.from_hands(PRESETS["qq"], ["3 4", "5 6", "7 8", "9 T"], 0, auto_pass=False)
    game.play(0, "4")
    replayed = Game.replay(game.events)
    assert replayed.auto_pass is False
    assert replayed.state() == game.state()
    # With auto-pass off the replayed game still waits for seat 1 to pass itself.
    assert replayed.pass_turn(1) == game.pass_turn(1)


def test_apply_folds_one_event_at_a_time_like_replay():
    """Game.apply is the public fold step (games.live catches a kept game up with it,
    games.replay steps frames with it): after each event the state is the replay's."""
    game = Game.deal(PRESETS["qq"], PLAYERS[4], 21)
    for _ in range(12):
        game.bot_turn()
    kept = Game.replay(game.events[:5])
    for count in range(5, len(game.events)):
        kept.apply(json.loads(json.dumps(game.events[count])))
        assert kept.events == game.events[:count + 1]
        assert kept.state() == Game.replay(game.events[:count + 1]).state()
    assert kept.state() == game.state()
