"""The strong bot's exact endgame: the hands it takes as known, its values against a
plain minimax over the real game, and the search answering from it. Every position
comes from seeded expert games, and no clock is read (the deadline is infinite)."""

from __future__ import annotations

import copy
from functools import cache

import pytest

from games.engine import endgame
from games.engine.ai import analyse, decide, position_from_game
from games.engine.cards import format_cards, unpack
from games.engine.game import Game
from games.engine.moves import legal_moves
from games.engine.presets import PRESETS
from games.engine.search import search, text_of

QQ = PRESETS["qq"]
NO_DEADLINE = float("inf")


def _expert_games(seed_prefix: str, count: int):
    """(game, position) at every turn of ``count`` seeded qq games, the expert playing
    every seat; the game is a copy, frozen at that turn."""
    for index in range(count):
        game = Game.deal(QQ, [0, 1, 2, 3], f"{seed_prefix}:{index}")
        while game.status == "playing":
            seat = game.turn
            position = position_from_game(game, seat)
            yield copy.deepcopy(game), position
            action = decide(position, bot="expert")
            if action == "pass":
                game.pass_turn(seat, by="bot")
            else:
                game.play(seat, action, by="bot")


@cache
def _duels() -> tuple:
    """The first turns of seeded games at which only two seats hold cards, 5 to 7
    together, and the seat to act has three actions or more: small enough for a plain
    minimax, large enough to choose."""
    found = []
    for game, position in _expert_games("endgame", 60):
        if endgame.known_hands(position) is not None \
                and 5 <= sum(position.hand_counts) <= 7 \
                and len(endgame.all_actions(position)) >= 3:
            found.append((game, position))
            if len(found) == 4:
                return tuple(found)
    raise AssertionError("the seeded games gave too few small duels")


def _team_value(game: Game, seat: int) -> float:
    scores = game.result.scores
    return (scores[seat] + scores[(seat + 2) % 4]) / 2


def _minimax(game: Game, seat: int) -> float:
    """The final score of ``seat``'s team with both sides playing best: every legal
    action tried on a copy of the real game, nothing kept between positions."""
    if game.status != "playing":
        return _team_value(game, seat)
    turn = game.turn
    options = [format_cards(unpack(move))
               for move in legal_moves(game.counts[turn], game.current_reading, game.rules)]
    if game.current is not None:
        options.append(None)
    outcomes = [_minimax(_after(game, turn, option), seat) for option in options]
    return max(outcomes) if turn % 2 == seat % 2 else min(outcomes)


def _after(game: Game, seat: int, option: str | None) -> Game:
    child = copy.deepcopy(game)
    if option is None:
        child.pass_turn(seat)
    else:
        child.play(seat, option)
    return child


def test_the_hands_are_known_only_when_one_other_seat_holds_cards():
    seen_hidden = seen_known = 0
    for game, position in _expert_games("endgame-known", 3):
        hands = endgame.known_hands(position)
        others = [seat for seat, count in enumerate(position.hand_counts)
                  if count and seat != position.seat]
        if len(others) == 1:
            assert hands == [tuple(hand) for hand in game.counts]
            seen_known += 1
        else:
            assert hands is None
            seen_hidden += 1
    assert seen_known and seen_hidden


def test_a_two_seat_game_is_never_taken_as_known():
    rules = PRESETS["tcy"]
    game = Game.deal(rules, [0, 1], "endgame-tcy:0")
    assert endgame.known_hands(position_from_game(game, game.turn)) is None


def test_every_action_is_valued_as_a_plain_minimax_over_the_real_game_values_it():
    choices = 0
    for game, position in _duels():
        actions = endgame.all_actions(position)
        values = endgame.exact_values(position, actions, deadline=NO_DEADLINE,
                                      node_limit=10**6)
        expected = [_minimax(_after(game, position.seat,
                                    None if action is None else format_cards(action)),
                             position.seat)
                    for action in actions]
        assert values == pytest.approx(expected)
        choices += len(set(values)) > 1
    assert choices, "no duel where the action mattered: the test would not see a wrong side"


def test_the_search_answers_a_duel_from_the_exact_values():
    game, position = _duels()[0]
    report = search(position, budget_ms=10**9)
    actions = endgame.all_actions(position)
    values = endgame.exact_values(position, actions, deadline=NO_DEADLINE)
    assert report["exact"] is True and report["samples"] == 0
    assert report["values"] == {text_of(a): v for a, v in zip(actions, values)}
    assert report["best_value"] == max(values)
    assert report["values"][report["best"]] == max(values)


def test_a_search_too_big_for_its_limit_gives_up_and_the_samples_decide(monkeypatch):
    game, position = _duels()[0]
    assert endgame.exact_values(position, endgame.all_actions(position),
                                deadline=NO_DEADLINE, node_limit=1) is None
    monkeypatch.setattr(endgame, "NODE_LIMIT", 1)
    report = search(position, budget_ms=10**9, max_samples=3)
    assert "exact" not in report and report["samples"] == 3


def test_a_position_with_hidden_cards_is_left_to_the_samples():
    hidden = next(position for _, position in _expert_games("endgame-hidden", 1)
                  if len(endgame.all_actions(position)) > 1)
    assert endgame.known_hands(hidden) is None
    assert endgame.exact_values(hidden, endgame.all_actions(hidden),
                                deadline=NO_DEADLINE) is None
    report = search(hidden, budget_ms=10**9, max_samples=2)
    assert "exact" not in report and report["samples"] == 2


def test_the_analysis_of_a_duel_counts_the_exact_difference():
    for _, position in _duels():
        actions = endgame.all_actions(position)
        values = endgame.exact_values(position, actions, deadline=NO_DEADLINE)
        if len(set(values)) > 1:
            break
    worst = min(range(len(actions)), key=lambda index: values[index])
    verdict = analyse(position, text_of(actions[worst]), budget_ms=10**9)
    assert verdict["loss"] == pytest.approx(max(values) - values[worst]) and verdict["loss"] > 0
    assert verdict["best_value"] == max(values)
