"""Scoring tables, one test per row (RULES §6 for qq, §9 for the other rule sets,
§10 and §9 for escapes). Bombs are read by the engine's classifier from rank
text, as the ``score`` protocol op does."""

from __future__ import annotations

import pytest

from games.engine.cards import RANK_INDEX
from games.engine.presets import PRESETS
from games.engine.scoring import (
    BombRecord,
    ladder_rung,
    level_multiplier,
    score_escape,
    score_places,
    score_tcy,
    tcy_contribution,
    tcy_doubling,
    tcy_level,
)
from games.engine.tests.game_helpers import bomb

QQ = PRESETS["qq"]
TCY = PRESETS["tcy"]
JINYOU = PRESETS["jinyou"]
CLASSIC = PRESETS["classic"]

# Finishing orders (seats in the order they went out) with team {0, 2} first out.
DOUBLE = [0, 2, 1, 3]  # 双扣: places 1 and 2 are partners
SINGLE = [0, 1, 2, 3]  # 单扣: places 1 and 3
DRAW = [0, 1, 3, 2]  # 平扣: places 1 and 4

BOMB_OF_STARS = {  # qq readings (RULES §4, §5)
    4: "7 7 7 7",
    5: "7 7 7 7 7",
    6: "7 7 7 7 7 7",
    7: "7 7 7 7 7 7 7",
    8: "7 7 7 7 7 7 7 7",
    9: "7 7 7 7 7 7 7 7 BJ",
    10: "7 7 7 7 7 7 7 7 BJ BJ",
}


def by_place(table: list[int], finish: list[int]) -> list[int]:
    """A base table by place turned into scores by seat."""
    scores = [0] * len(finish)
    for place, seat in enumerate(finish):
        scores[seat] = table[place]
    return scores


# --- RULES §6: base table ----------------------------------------------------------

def test_double_kou_base_is_4_4_minus4_minus4_by_place():
    result = score_places(QQ, DOUBLE, [])
    assert result.kou == "double"
    assert result.multiplier == 1
    assert result.base == [4, -4, 4, -4]
    assert result.scores == [4, -4, 4, -4]
    assert result.winners == [0, 2]


def test_single_kou_base_is_2_minus2_2_minus2_by_place():
    result = score_places(QQ, SINGLE, [])
    assert result.kou == "single"
    assert result.scores == [2, -2, 2, -2]
    assert result.winners == [0, 2]


def test_draw_base_is_1_0_0_1_by_place_and_is_not_zero_sum():
    result = score_places(QQ, DRAW, [])
    assert result.kou == "draw"
    # 1st (seat 0) and 4th (seat 2) get 1, the 2nd and 3rd (seats 1, 3) get 0.
    assert result.scores == [1, 0, 1, 0]
    assert sum(result.scores) == 2
    assert result.winners == [0, 2]


@pytest.mark.parametrize("finish, kou, winners", [
    ([3, 1, 0, 2], "double", [1, 3]),
    ([1, 0, 3, 2], "single", [1, 3]),
    ([3, 2, 0, 1], "draw", [1, 3]),
    ([2, 3, 1, 0], "draw", [0, 2]),
])
def test_the_base_follows_places_whoever_goes_out_first(finish, kou, winners):
    table = {"double": [4, 4, -4, -4], "single": [2, -2, 2, -2], "draw": [1, 0, 0, 1]}[kou]
    result = score_places(QQ, finish, [])
    assert (result.kou, result.winners) == (kou, winners)
    assert result.scores == by_place(table, finish)


# --- RULES §6: multiplier -----------------------------------------------------------

@pytest.mark.parametrize("stars, multiplier", [
    (4, 1), (5, 2), (6, 4), (7, 8), (8, 16), (9, 16), (10, 16),
])
def test_the_winning_teams_bomb_multiplies_by_its_star_step(stars, multiplier):
    result = score_places(QQ, DOUBLE, [bomb("qq", 2, BOMB_OF_STARS[stars])])
    assert result.multiplier == multiplier
    assert result.base == [4, -4, 4, -4]
    assert [score - contribution for score, contribution in
            zip(result.scores, result.contributions)] == [4 * multiplier, -4 * multiplier,
                                                          4 * multiplier, -4 * multiplier]


@pytest.mark.parametrize("cards, multiplier", [
    ("SJ SJ BJ", 4),  # 三王炸弹: 6 stars
    ("SJ SJ BJ BJ", 8),  # 天王炸弹: 7 stars
    ("4 4 4 4 5 5 5 5 6 6 6 6", 8),  # 4相3连: 7 stars
    ("4 4 4 4 5 5 5 5 6 6 6 6 7 7 7 7", 16),  # 4相4连: 8 stars
])
def test_joker_and_chain_bombs_multiply_by_their_stars(cards, multiplier):
    assert score_places(QQ, SINGLE, [bomb("qq", 0, cards)]).multiplier == multiplier


def test_the_multiplier_applies_to_the_losers_base_too():
    result = score_places(QQ, SINGLE, [bomb("qq", 0, BOMB_OF_STARS[5])])
    assert result.multiplier == 2
    assert result.scores == [4, -4, 4, -4]


def test_only_the_winning_teams_bombs_set_the_multiplier():
    losers_bomb = bomb("qq", 1, BOMB_OF_STARS[8])
    result = score_places(QQ, DOUBLE, [losers_bomb])
    assert result.multiplier == 1
    # The loser's 8-star bomb still pays its contribution (RULES §6: either team).
    assert result.contributions == [-6, 18, -6, -6]
    assert result.scores == [4 - 6, -4 + 18, 4 - 6, -4 - 6]


def test_only_the_largest_bomb_counts_for_the_multiplier():
    bombs = [bomb("qq", 0, BOMB_OF_STARS[5]), bomb("qq", 2, BOMB_OF_STARS[7]),
             bomb("qq", 0, BOMB_OF_STARS[6])]
    result = score_places(QQ, DOUBLE, bombs)
    assert result.multiplier == 8  # not 2 × 8 × 4


def test_both_winners_bombs_are_considered_for_the_largest():
    bombs = [bomb("qq", 0, BOMB_OF_STARS[5]), bomb("qq", 2, BOMB_OF_STARS[6])]
    assert score_places(QQ, DOUBLE, bombs).multiplier == 4


# --- RULES §6: contributions -----------------------------------------------------------

@pytest.mark.parametrize("stars, gain, each", [
    (4, 0, 0), (5, 0, 0), (6, 6, 2), (7, 12, 4), (8, 18, 6), (9, 18, 6), (10, 18, 6),
])
def test_each_big_bomb_pays_its_contribution_row(stars, gain, each):
    result = score_places(QQ, DOUBLE, [bomb("qq", 1, BOMB_OF_STARS[stars])])
    assert result.contributions == [-each, gain, -each, -each]
    assert sum(result.contributions) == 0


def test_three_joker_bomb_pays_the_six_star_row():
    result = score_places(QQ, DOUBLE, [bomb("qq", 3, "SJ SJ BJ")])
    assert result.contributions == [-2, -2, -2, 6]


def test_contributions_of_several_bombs_add_up_and_stay_zero_sum():
    bombs = [bomb("qq", 0, BOMB_OF_STARS[6]), bomb("qq", 1, BOMB_OF_STARS[7]),
             bomb("qq", 0, BOMB_OF_STARS[8]), bomb("qq", 3, BOMB_OF_STARS[5])]
    result = score_places(QQ, SINGLE, bombs)
    assert result.contributions == [6 - 4 + 18, -2 + 12 - 6, -2 - 4 - 6, -2 - 4 - 6]
    assert sum(result.contributions) == 0
    assert result.multiplier == 16
    assert result.scores == [2 * 16 + 20, -2 * 16 + 4, 2 * 16 - 12, -2 * 16 - 12]


def test_score_is_base_times_multiplier_plus_contributions():
    # RULES §11's example: seat 0's 三王炸弹, 单扣 won by seats 2 and 0.
    result = score_places(QQ, [2, 1, 0, 3], [bomb("qq", 0, "SJ SJ BJ")])
    assert (result.kou, result.multiplier) == ("single", 4)
    assert result.scores == [14, -10, 6, -10]


# --- RULES §9: jinyou ----------------------------------------------------------------------

@pytest.mark.parametrize("finish, table", [
    (DOUBLE, [4, 4, -4, -4]),
    (SINGLE, [2, -2, 2, -2]),
    (DRAW, [1, -1, -1, 1]),
])
def test_jinyou_base_table_rows(finish, table):
    result = score_places(JINYOU, finish, [])
    assert result.scores == by_place(table, finish)


def test_jinyou_draw_is_plus_minus_one_and_zero_sum():
    assert score_places(JINYOU, DRAW, []).scores == [1, -1, 1, -1]


@pytest.mark.parametrize("stars, multiplier", [
    (4, 1), (5, 1), (6, 2), (7, 3), (8, 4), (9, 8), (10, 8),
])
def test_jinyou_multiplier_steps(stars, multiplier):
    result = score_places(JINYOU, DOUBLE, [bomb("jinyou", 0, BOMB_OF_STARS[stars])])
    assert result.multiplier == multiplier


def test_jinyou_heavenly_bomb_is_a_seven_star_for_the_multiplier():
    assert score_places(JINYOU, DOUBLE, [bomb("jinyou", 0, "SJ SJ BJ BJ")]).multiplier == 3


def test_jinyou_contributions_are_as_qq():
    result = score_places(JINYOU, DRAW, [bomb("jinyou", 2, BOMB_OF_STARS[7])])
    assert result.contributions == [-4, -4, 12, -4]
    assert result.multiplier == 3
    assert result.scores == [1 * 3 - 4, -1 * 3 - 4, 1 * 3 + 12, -1 * 3 - 4]


# --- RULES §9: classic ----------------------------------------------------------------------

@pytest.mark.parametrize("finish, table", [
    (DOUBLE, [4, 4, -4, -4]),
    (SINGLE, [2, -2, 2, -2]),
    (DRAW, [1, 0, 0, 1]),  # 平扣第一、四名玩家得一半底分
])
def test_classic_base_table_rows(finish, table):
    assert score_places(CLASSIC, finish, []).scores == by_place(table, finish)


@pytest.mark.parametrize("cards, multiplier", [
    ("7 7 7 7", 1),
    ("7 7 7 7 7", 2),
    ("7 7 7 7 7 7", 3),
    ("7 7 7 7 7 7 7", 4),
    ("7 7 7 7 7 7 7 7", 5),
    ("SJ SJ BJ BJ", 5),  # 天王, like an 8-card bomb
])
def test_classic_multiplier_is_by_bomb_cards(cards, multiplier):
    result = score_places(CLASSIC, DOUBLE, [bomb("classic", 2, cards)])
    assert result.multiplier == multiplier
    assert result.scores == [4 * multiplier, -4 * multiplier, 4 * multiplier, -4 * multiplier]


def test_classic_has_no_contributions_even_for_the_largest_bombs():
    bombs = [bomb("classic", 1, "7 7 7 7 7 7 7 7"), bomb("classic", 3, "SJ SJ BJ BJ")]
    result = score_places(CLASSIC, SINGLE, bombs)
    assert result.contributions == [0, 0, 0, 0]
    assert result.scores == [10, -10, 10, -10]


def test_classic_multiplier_counts_the_largest_bomb_whoever_played_it():
    # The losers' 7-card bomb sets it; the winners' 5-card one does not add to it.
    bombs = [bomb("classic", 0, "9 9 9 9 9"), bomb("classic", 1, "5 5 5 5 5 5 5")]
    result = score_places(CLASSIC, DOUBLE, bombs)
    assert result.multiplier == 4
    assert result.scores == [16, -16, 16, -16]


def test_qq_multiplier_still_counts_only_the_winning_teams_bombs():
    result = score_places(QQ, DOUBLE, [bomb("qq", 1, BOMB_OF_STARS[8])])
    assert result.multiplier == 1


@pytest.mark.parametrize("fewest, factor", [
    (-500, 1), (0, 1), (99, 1), (100, 2), (499, 2), (500, 3), (1999, 3), (2000, 3),
    (4000, 4), (6999, 4), (7000, 5), (30000, 5), (44999, 5), (45000, 6), (149999, 6),
    (150000, 7), (499999, 7), (500000, 8), (1000000, 8), (10**8, 8),
])
def test_classic_level_multiplier_is_the_bracket_of_the_fewest_points(fewest, factor):
    points = [fewest + 10**6, fewest, fewest + 1, fewest + 10**7]
    assert level_multiplier(CLASSIC, points) == factor
    result = score_places(CLASSIC, SINGLE, [bomb("classic", 3, "6 6 6 6 6")],
                          level_multiplier(CLASSIC, points))
    assert result.level_multiplier == factor
    assert result.multiplier == 2 * factor
    assert result.scores == [4 * factor, -4 * factor, 4 * factor, -4 * factor]


def test_the_ladder_rung_of_points_below_the_first_is_the_first():
    assert ladder_rung(CLASSIC, -10) == 0
    assert CLASSIC.level_ladder[ladder_rung(CLASSIC, 2500)][:2] == ("猎人", 2000)
    assert ladder_rung(QQ, 2500) is None
    assert level_multiplier(QQ, [5000, 5000, 5000, 5000]) == 1


def test_classic_coin_scores_count_the_multiplier_at_most_five():
    # ×3 (6 cards) × 3 (贫农) = ×9 for points, ×5 for coins.
    result = score_places(CLASSIC, DOUBLE, [bomb("classic", 1, "4 4 4 4 4 4")], 3)
    assert result.multiplier == 9
    assert result.scores == [36, -36, 36, -36]
    assert result.coin_scores == [20, -20, 20, -20]
    assert result.to_dict()["coin_scores"] == [20, -20, 20, -20]


def test_without_a_binding_cap_the_result_has_no_coin_scores():
    result = score_places(CLASSIC, DOUBLE, [bomb("classic", 1, "4 4 4 4 4")], 2)
    assert (result.multiplier, result.coin_scores) == (4, None)
    assert "coin_scores" not in result.to_dict()
    assert set(score_places(QQ, DOUBLE, []).to_dict()) == {
        "kou", "finish", "multiplier", "base", "contributions", "scores", "winners",
        "escaped", "penalty", "cards_left"}


# --- RULES §9: tcy ----------------------------------------------------------------------------

@pytest.mark.parametrize("cards_left, kou, factor", [
    (1, "draw", 1), (6, "draw", 1), (7, "single", 2), (11, "single", 2),
    (12, "double", 4), (27, "double", 4),
])
def test_tcy_kou_and_factor_a_come_from_the_losers_cards_left(cards_left, kou, factor):
    result = score_tcy(TCY, 1, cards_left, [])
    assert (result.kou, result.multiplier) == (kou, 1)
    assert result.scores == [-factor, factor]
    assert result.winners == [1] and result.finish == [1, 0]
    assert result.cards_left == cards_left


@pytest.mark.parametrize("level, points, coins", [
    (0, 1, 1), (4, 1, 1), (5, 2, 1), (6, 4, 2), (7, 8, 4), (8, 16, 8), (9, 32, 16),
    (10, 64, 32), (11, 128, 64), (12, 256, 128),
])
def test_tcy_doubling_b_in_points_and_coin_rooms(level, points, coins):
    assert tcy_doubling(TCY, level, coins=False) == points
    assert tcy_doubling(TCY, level, coins=True) == coins


@pytest.mark.parametrize("level, contribution", [
    (0, 0), (4, 0), (5, 0), (6, 2), (7, 4), (8, 8), (9, 16), (12, 128),
])
def test_tcy_contribution_is_two_to_the_level_minus_five_from_six(level, contribution):
    assert tcy_contribution(level) == contribution


@pytest.mark.parametrize("coins, doubling", [(False, 4), (True, 2)])
def test_tcy_score_is_x_a_b_plus_x_c(coins, doubling):
    # Winner seat 0 played a 6相 bomb (b = 4 points / 2 coins, contribution 2);
    # the loser a 7相 bomb (contribution 4); 12 cards left: 双扣, a = 4; X = 5.
    bombs = [bomb("tcy", 0, "8 8 8 8 8 8"), bomb("tcy", 1, "9 9 9 9 9 9 9")]
    result = score_tcy(TCY, 0, 12, bombs, stake=5, coins=coins)
    assert result.multiplier == doubling
    assert result.base == [5 * 4, -5 * 4]
    assert result.contributions == [5 * (2 - 4), 5 * (4 - 2)]
    assert result.scores == [5 * 4 * doubling + 5 * (2 - 4), -5 * 4 * doubling + 5 * (4 - 2)]


def test_tcy_doubling_comes_from_the_winner_only():
    result = score_tcy(TCY, 0, 3, [bomb("tcy", 1, "9 9 9 9 9 9 9 9")])
    assert result.multiplier == 1
    assert result.scores == [1 - 8, -1 + 8]


def test_tcy_level_is_the_largest_bomb_of_that_player():
    bombs = [bomb("tcy", 0, "9 9 9 9 9"), bomb("tcy", 0, "3 3 3 3 3 3 3"),
             bomb("tcy", 1, "K K K K K K K K SJ SJ BJ BJ")]
    assert tcy_level(TCY, bombs, 0) == 7
    assert tcy_level(TCY, bombs, 1) == 12


def test_two_adjacent_bombs_of_the_same_level_count_one_level_up():
    bombs = [bomb("tcy", 0, "7 7 7 7"), bomb("tcy", 0, "8 8 8 8")]
    assert tcy_level(TCY, bombs, 0) == 5
    assert score_tcy(TCY, 0, 3, bombs).multiplier == 2


def test_two_adjacent_five_level_bombs_count_as_six_and_pay_a_contribution():
    bombs = [bomb("tcy", 1, "Q Q Q Q Q"), bomb("tcy", 1, "J J J J J")]
    assert tcy_level(TCY, bombs, 1) == 6
    result = score_tcy(TCY, 1, 3, bombs)
    assert result.multiplier == 4
    assert result.contributions == [-2, 2]


def test_non_adjacent_or_unequal_bombs_do_not_combine_without_the_switch():
    assert tcy_level(TCY, [bomb("tcy", 0, "7 7 7 7"), bomb("tcy", 0, "9 9 9 9")], 0) == 4
    assert tcy_level(TCY, [bomb("tcy", 0, "7 7 7 7"), bomb("tcy", 0, "8 8 8 8 8")], 0) == 5
    assert tcy_level(TCY, [bomb("tcy", 0, "7 7 7 7"), bomb("tcy", 1, "8 8 8 8")], 0) == 4
    fours = [bomb("tcy", 0, cards) for cards in ("3 3 3 3", "6 6 6 6", "9 9 9 9", "Q Q Q Q")]
    assert tcy_level(TCY, fours, 0) == 4


def test_adjacent_bombs_combine_with_a_bigger_bomb_as_the_largest():
    bombs = [bomb("tcy", 0, "7 7 7 7"), bomb("tcy", 0, "8 8 8 8"),
             bomb("tcy", 0, "K K K K K K")]
    assert tcy_level(TCY, bombs, 0) == 6


SWITCH = TCY.replace(count_nonadjacent_four_star=True)
NON_ADJACENT_FOURS = ["3 3 3 3", "5 5 5 5", "7 7 7 7", "9 9 9 9", "J J J J", "K K K K"]


@pytest.mark.parametrize("count, level", [(2, 4), (3, 5), (4, 6), (5, 7), (6, 8)])
def test_with_the_switch_non_adjacent_four_level_bombs_add_up(count, level):
    bombs = [bomb("tcy", 0, cards) for cards in NON_ADJACENT_FOURS[:count]]
    assert tcy_level(SWITCH, bombs, 0) == level
    assert score_tcy(SWITCH, 0, 3, bombs).multiplier == tcy_doubling(SWITCH, level, False)


def test_with_the_switch_two_non_adjacent_five_level_bombs_make_a_six():
    bombs = [bomb("tcy", 0, "4 4 4 4 4"), bomb("tcy", 0, "9 9 9 9 9")]
    assert tcy_level(TCY, bombs, 0) == 5
    assert tcy_level(SWITCH, bombs, 0) == 6


def test_with_the_switch_only_the_players_own_bombs_add_up():
    bombs = [bomb("tcy", seat, cards) for seat, cards in
             zip((0, 1, 0, 1), NON_ADJACENT_FOURS)]
    assert tcy_level(SWITCH, bombs, 0) == 4
    assert tcy_level(SWITCH, bombs, 1) == 4


# --- RULES §10 and §9: escapes ------------------------------------------------------------------

def test_an_end_game_escape_costs_twelve_units_plus_contributions_owed():
    bombs = [bomb("qq", 0, BOMB_OF_STARS[6]), bomb("qq", 1, BOMB_OF_STARS[5])]
    result = score_escape(QQ, 1, [0, 1, 2, 3], bombs, 4)
    assert result.kou == "escape" and result.escaped == 1
    assert result.base == [0, 0, 0, 0] and result.multiplier == 1
    assert result.contributions == [6, -2, -2, -2]
    assert result.penalty == 12
    assert result.scores == [6, -2 - 12, -2, -2]
    assert result.winners == [0, 2]


def test_an_escape_penalty_is_twelve_times_the_base_stake():
    result = score_escape(QQ, 2, [0, 1, 2, 3], [], 4, stake=3)
    assert result.penalty == 36
    assert result.scores == [0, 0, -36, 0]
    assert result.winners == [1, 3]


def test_a_classic_escape_costs_twice_a_double_kou_at_the_current_multipliers():
    # 底分 × 2 × bomb × level × 2 = 4 units × 3 (the 6-card bomb, whoever played it) × 2.
    bombs = [bomb("classic", 0, "8 8 8 8 8 8"), bomb("classic", 3, "5 5 5 5 5")]
    result = score_escape(CLASSIC, 3, [0, 1, 2, 3], bombs, 4, level_multiplier=2)
    assert result.kou == "escape" and result.escaped == 3
    assert result.multiplier == 6 and result.level_multiplier == 2
    assert result.penalty == 24
    assert result.contributions == [0, 0, 0, 0]
    assert result.scores == [0, 0, 0, -24]
    assert result.coin_penalty == 20  # coins: the multiplier counts ×5 at most


def test_a_classic_escape_before_any_bomb_costs_four_units_times_the_level():
    result = score_escape(CLASSIC, 0, [0, 1, 2, 3], [], 4, level_multiplier=3)
    assert (result.penalty, result.multiplier, result.coin_penalty) == (12, 3, None)
    assert result.scores == [-12, 0, 0, 0]


@pytest.mark.parametrize("coins, doubling", [(False, 4), (True, 2)])
def test_a_tcy_escape_pays_twelve_x_plus_the_single_kou_loss(coins, doubling):
    # The opponent (seat 0) played a 6相 bomb: b = 4 (points) or 2 (coins), c = 2.
    bombs = [bomb("tcy", 0, "8 8 8 8 8 8")]
    result = score_escape(TCY, 1, [0, 1], bombs, 2, stake=5, coins=coins)
    penalty = 12 * 5 + 5 * 2 * doubling
    assert result.penalty == penalty
    assert result.contributions == [10, -10]
    assert result.scores == [10, -10 - penalty]
    assert result.winners == [0] and result.escaped == 1


def test_a_bomb_record_keeps_what_scoring_needs():
    record = bomb("qq", 3, "4 4 4 4 5 5 5 5 6 6 6 6")
    assert record == BombRecord(3, "chain_bomb", 7, 12, RANK_INDEX["6"])
