"""The hand planner, the expert bot that follows it, the turn rules and the league."""

from __future__ import annotations

import math

import pytest

from games.engine import turns
from games.engine.ai import decide, position_from_game
from games.engine.cards import RANK_COUNT, format_cards, pack, parse_cards
from games.engine.expert import expert_move
from games.engine.game import Game
from games.engine.league import _ratings, run_league
from games.engine.match import play_deal, summarise
from games.engine.moves import legal_moves
from games.engine.patterns import classify
from games.engine.planner import plan
from games.engine.presets import PRESETS
from games.engine.search import search


def groups_text(hand: str, ruleset: str = "qq") -> list[tuple[str, int]]:
    found = plan(parse_cards(hand), PRESETS[ruleset])
    return sorted((format_cards(group.cards), group.stars) for group in found.groups)


@pytest.mark.parametrize("ruleset", ["qq", "tcy", "jinyou", "classic"])
def test_every_plan_splits_the_hand_into_valid_patterns(ruleset):
    rules = PRESETS[ruleset]
    for seed in range(40):
        game = Game.deal(rules, list(range(rules.players)), f"plan:{seed}")
        for hand in game.counts:
            found = plan(hand, rules)
            total = [0] * RANK_COUNT
            for group in found.groups:
                reading = classify(group.cards, rules)
                assert reading is not None, format_cards(group.cards)
                assert reading.is_bomb == group.is_bomb, format_cards(group.cards)
                if group.is_bomb:
                    assert reading.stars == group.stars
                for rank, count in enumerate(group.cards):
                    total[rank] += count
            assert tuple(total) == hand


def test_a_wild_joker_lifts_a_bomb_to_six_stars():
    # Five 7s and a BJ: a 6★ bomb pays its contribution; the BJ is worth more there
    # than as a single.
    assert ("7 7 7 7 7 BJ", 6) in groups_text("3 4 5 6 7 7 7 7 7 9 9 BJ")


def test_four_jokers_stay_a_heavenly_bomb_and_pairs_make_a_chain():
    assert groups_text("3 3 4 4 5 5 SJ SJ BJ BJ") == [("3 3 4 4 5 5", 0),
                                                      ("SJ SJ BJ BJ", 7)]


def test_a_chain_bomb_takes_three_adjacent_ranks_of_four_up_to_the_ace():
    assert groups_text("5 5 5 5 6 6 6 6 7 7 7 7") == [("5 5 5 5 6 6 6 6 7 7 7 7", 7)]
    assert groups_text("Q Q Q Q K K K K A A A A 2 2 2 2") == [
        ("2 2 2 2", 4), ("Q Q Q Q K K K K A A A A", 7)]
    # A gap, or a 2 as the third rank, leaves single-rank bombs.
    assert groups_text("5 5 5 5 6 6 6 6 8 8 8 8") == [
        ("5 5 5 5", 4), ("6 6 6 6", 4), ("8 8 8 8", 4)]
    assert groups_text("K K K K A A A A 2 2 2 2") == [
        ("2 2 2 2", 4), ("A A A A", 4), ("K K K K", 4)]


def test_a_straight_takes_five_lone_cards():
    assert groups_text("3 4 5 6 7 K K") == [("3 4 5 6 7", 0), ("K K", 0)]


@pytest.mark.parametrize("ruleset", ["qq", "tcy", "jinyou", "classic"])
def test_the_expert_plays_legal_games_and_never_beats_its_partner(ruleset):
    rules = PRESETS[ruleset]
    for seed in range(6):
        game = Game.deal(rules, list(range(rules.players)), f"expert:{seed}")
        while game.status == "playing":
            seat = game.turn
            current = game.current
            hand = game.counts[seat]
            cards = expert_move(hand, game.current_reading, current and current["seat"], seat,
                                [sum(h) for h in game.counts], rules)
            if cards is None:
                assert current is not None
                game.pass_turn(seat)
                continue
            assert pack(cards) in legal_moves(hand, game.current_reading, rules)
            if rules.players == 4 and current and current["seat"] % 2 == seat % 2:
                assert cards == hand  # over the partner only to go out
            game.play(seat, format_cards(cards))
        assert game.result is not None


def test_the_expert_cashes_a_six_star_bomb_on_lead():
    rules = PRESETS["qq"]
    game = Game.from_hands(rules, ["3 4 8 8 8 8 8 8 K", "5", "6", "7"], 0)
    assert decide(position_from_game(game, 0), bot="expert") == "8 8 8 8 8 8"


def test_the_expert_passes_on_its_partner_and_beats_an_opponent():
    rules = PRESETS["qq"]
    game = Game.from_hands(rules, ["5 5 K A", "6 6 9 J", "7 7 9 Q", "3 4 T"], 0,
                           auto_pass=False)
    game.play(0, "5 5")
    assert decide(position_from_game(game, 1), bot="expert") == "6 6"  # an opponent's pair
    game.play(1, "6 6")
    for seat in (2, 3, 0):
        game.pass_turn(seat)
    game.play(1, "9")
    assert decide(position_from_game(game, 2), bot="expert") == "Q"
    game.play(2, "Q")
    game.pass_turn(3)
    # Seat 0's K and A beat its partner's Q: it passes.
    assert decide(position_from_game(game, 0), bot="expert") == "pass"


def test_turn_rules():
    assert turns.next_seat([5, 0, 3, 2], 0) == 2
    assert turns.next_seat([0, 0, 0, 0], 1) is None
    assert turns.trick_over(2, 1, [4, 3, 0, 2])  # two others hold cards, both passed
    assert not turns.trick_over(1, 1, [4, 3, 0, 2])
    assert turns.trick_leader(1, [4, 3, 0, 2]) == 1
    assert turns.trick_leader(2, [4, 3, 0, 2]) == 0  # 接风: the partner leads
    assert turns.decided([0, 2], 4) and not turns.decided([0, 1], 4)
    assert turns.decided([1], 2)
    assert turns.places([2, 1], 4, 1) == [2, 1, 3, 0]


def test_a_league_of_three_rule_based_bots():
    report = run_league(["trustee", "table", "expert"], "qq", deals=2, seed=3)
    assert [(row["a"], row["b"]) for row in report["pairings"]] == [
        ("trustee", "table"), ("trustee", "expert"), ("table", "expert")]
    assert all(row["deals"] == 2 and row["games"] == 4 for row in report["pairings"])
    assert {row["bot"] for row in report["bots"]} == {"trustee", "table", "expert"}
    # Every deal counts for A and, negated, for B: the bots' means sum to zero.
    assert abs(sum(row["mean"] for row in report["bots"])) < 0.01
    assert sum(row["elo"] for row in report["bots"]) == pytest.approx(4500, abs=2)
    assert report["stopped_early"] is False


def test_a_game_is_won_by_the_team_that_scores_more():
    deal = play_deal(("qq", "expert", "table", 3, 0, 150, None))
    for game in deal["games"]:
        a_seats = [seat for seat in range(4) if seat % 2 == game["a_team"]]
        a_mean = sum(game["scores"][seat] for seat in a_seats) / 2
        b_mean = (sum(game["scores"]) - 2 * a_mean) / 2
        assert game["a_outscored"] == (1.0 if a_mean > b_mean else 0.5 if a_mean == b_mean
                                       else 0.0)
    summary = summarise([deal], a="expert", b="table", seconds=0.0)
    assert summary["a_score_wins"] == sum(game["a_outscored"] for game in deal["games"])


def test_the_rating_follows_the_games_won_by_score():
    # Two bots, A won 3 of 4 games by score: 3.5 against 1.5 with the prior, odds 7:3.
    ratings = _ratings(["a", "b"], {("a", "b"): 3.0, ("b", "a"): 1.0},
                       {frozenset(("a", "b")): 4})
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * math.log10(3.5 / 1.5), abs=0.5)


def test_a_league_in_worker_processes_gives_the_same_table():
    alone = run_league(["trustee", "table", "expert"], "qq", deals=2, seed=3)
    shared = run_league(["trustee", "table", "expert"], "qq", deals=2, seed=3, jobs=2)
    assert shared["pairings"] == alone["pairings"]
    assert shared["bots"] == alone["bots"]


def test_a_league_stopped_by_its_time_limit_says_so():
    report = run_league(["trustee", "table", "expert"], "qq", deals=3, seed=3, time_limit=0)
    assert report["stopped_early"] is True
    # One deal was played before the limit was looked at: the first quick pairing's.
    assert [(row["a"], row["b"], row["deals"]) for row in report["pairings"]] == [
        ("trustee", "table", 1)]


def test_a_league_refuses_unknown_or_repeated_bots():
    with pytest.raises(ValueError, match="two different bots"):
        run_league(["trustee", "trustee"], deals=1)
    with pytest.raises(ValueError, match="two different bots"):
        run_league(["trustee", "nobody"], deals=1)


def test_a_search_without_time_for_one_sample_answers_the_experts_choice():
    rules = PRESETS["qq"]
    game = Game.deal(rules, [0, 1, 2, 3], "budget:1")
    position = position_from_game(game, game.turn)
    report = search(position, seed=1, budget_ms=0)
    assert report["samples"] == 0
    assert report["best"] == decide(position, bot="expert")
    # With time, the same position is searched (and the answer is still legal).
    searched = search(position, seed=1, budget_ms=100_000, max_samples=3)
    assert searched["samples"] == 3
