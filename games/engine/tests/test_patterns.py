"""Reading a set of cards as a pattern (RULES §4 and §4.1)."""

import pytest

from games.engine.cards import parse_cards
from games.engine.patterns import classify, readings
from games.engine.presets import PRESETS


def reading(text: str, ruleset: str = "qq"):
    return classify(parse_cards(text), PRESETS[ruleset])


def read(text: str, ruleset: str = "qq") -> dict:
    found = reading(text, ruleset)
    return found.to_protocol() if found else {"valid": False}


def wildcards(text: str, ruleset: str = "qq") -> str:
    cards = parse_cards(text)
    return classify(cards, PRESETS[ruleset]).describe_wildcards(cards, PRESETS[ruleset])


def straight(size: int, rank: str) -> dict:
    return {"valid": True, "type": "straight", "size": size, "rank": rank, "length": size}


def pairs(size: int, rank: str) -> dict:
    return {"valid": True, "type": "pairs", "size": size, "rank": rank, "length": size // 2}


def bomb(size: int, rank: str, stars: int | None = None) -> dict:
    return {"valid": True, "type": "bomb", "size": size, "rank": rank,
            "stars": size if stars is None else stars}


def chain_bomb(size: int, rank: str, length: int, stars: int) -> dict:
    return {"valid": True, "type": "chain_bomb", "size": size, "rank": rank, "length": length,
            "stars": stars}


INVALID = {"valid": False}
JOKER_BOMB_3 = {"valid": True, "type": "joker_bomb", "size": 3, "stars": 6}
JOKER_BOMB_4 = {"valid": True, "type": "joker_bomb", "size": 4, "stars": 7}


# --- one per pattern type of the §4 table


def test_any_one_card_is_a_single():
    assert read("9") == {"valid": True, "type": "single", "size": 1, "rank": "9"}
    assert read("2") == {"valid": True, "type": "single", "size": 1, "rank": "2"}


def test_each_joker_alone_is_a_single_of_itself():
    assert read("SJ") == {"valid": True, "type": "single", "size": 1, "rank": "SJ"}
    assert read("BJ") == {"valid": True, "type": "single", "size": 1, "rank": "BJ"}


def test_two_of_a_rank_are_a_pair():
    assert read("K K") == {"valid": True, "type": "pair", "size": 2, "rank": "K"}


def test_two_small_jokers_and_two_big_jokers_are_pairs():
    assert read("SJ SJ") == {"valid": True, "type": "pair", "size": 2, "rank": "SJ"}
    assert read("BJ BJ") == {"valid": True, "type": "pair", "size": 2, "rank": "BJ"}


def test_small_and_big_joker_are_a_pair_of_small_jokers():
    assert read("SJ BJ") == {"valid": True, "type": "pair", "size": 2, "rank": "SJ"}


def test_three_of_a_rank_are_a_triple():
    assert read("5 5 5") == {"valid": True, "type": "triple", "size": 3, "rank": "5"}


def test_five_consecutive_singles_are_a_straight():
    assert read("3 4 5 6 7") == straight(5, "7")


def test_a_straight_may_run_from_three_to_ace():
    assert read("3 4 5 6 7 8 9 T J Q K A") == straight(12, "A")


def test_four_consecutive_singles_are_not_a_straight():
    assert read("4 5 6 7") == INVALID


def test_three_consecutive_pairs_are_pairs():
    assert read("5 5 6 6 7 7") == pairs(6, "7")


def test_two_consecutive_pairs_are_not_a_pattern():
    assert read("5 5 6 6") == INVALID


def test_three_consecutive_triples_are_triples():
    assert read("Q Q Q K K K A A A") == {"valid": True, "type": "triples", "size": 9,
                                         "rank": "A", "length": 3}


def test_two_consecutive_triples_are_not_a_pattern():
    assert read("5 5 5 6 6 6") == INVALID


@pytest.mark.parametrize("count", [4, 5, 6, 7, 8])
def test_four_or_more_of_a_rank_are_a_bomb_of_that_many_stars(count):
    assert read("8 " * count) == bomb(count, "8")


def test_twos_make_a_bomb():
    assert read("2 2 2 2") == bomb(4, "2")


def test_consecutive_bombs_of_equal_size_are_a_chain_bomb_of_x_plus_y_stars():
    assert read("3 3 3 3 4 4 4 4 5 5 5 5") == chain_bomb(12, "5", 3, 7)
    assert read("7 7 7 7 7 8 8 8 8 8 9 9 9 9 9") == chain_bomb(15, "9", 3, 8)


@pytest.mark.parametrize(("per_rank", "length", "stars"), [
    (4, 3, 7), (4, 4, 8), (4, 5, 9), (4, 6, 10), (5, 3, 8), (5, 4, 9), (5, 5, 10), (6, 3, 9),
    (6, 4, 10), (7, 3, 10), (8, 3, 11),
])
def test_chain_bomb_stars_follow_the_star_table(per_rank, length, stars):
    ranks = ["3", "4", "5", "6", "7", "8"][:length]
    text = " ".join(rank for rank in ranks for _ in range(per_rank))

    assert read(text) == chain_bomb(per_rank * length, ranks[-1], length, stars)


def test_a_chain_bomb_is_at_most_six_ranks_long():
    assert read("3 3 3 3 4 4 4 4 5 5 5 5 6 6 6 6 7 7 7 7 8 8 8 8 9 9 9 9") == INVALID


def test_a_chain_bomb_may_end_at_the_ace():
    assert read("Q Q Q Q K K K K A A A A") == chain_bomb(12, "A", 3, 7)


def test_three_jokers_of_either_kind_are_the_three_joker_bomb():
    assert read("SJ SJ BJ") == JOKER_BOMB_3
    assert read("SJ BJ BJ") == JOKER_BOMB_3


def test_all_four_jokers_are_the_heavenly_bomb():
    assert read("SJ SJ BJ BJ") == JOKER_BOMB_4


# --- not patterns (§4)


def test_two_consecutive_bombs_are_not_a_pattern():
    assert read("5 5 5 5 6 6 6 6") == INVALID


def test_triple_with_pair_is_not_a_pattern():
    assert read("5 5 5 9 9") == INVALID


def test_a_two_cannot_be_in_a_straight():
    assert read("J Q K A 2") == INVALID
    assert read("A 2 3 4 5") == INVALID


def test_a_two_cannot_be_in_pairs_or_triples():
    assert read("K K A A 2 2") == INVALID
    assert read("K K K A A A 2 2 2") == INVALID


def test_a_two_cannot_be_in_a_chain_bomb_under_qq():
    assert read("K K K K A A A A 2 2 2 2") == INVALID


def test_a_small_joker_with_natural_cards_is_not_a_pattern_in_qq():
    assert read("5 SJ") == INVALID
    assert read("5 5 SJ") == INVALID
    assert read("6 6 6 SJ") == INVALID
    assert read("7 7 SJ SJ BJ BJ") == INVALID


def test_unequal_counts_are_not_a_chain_bomb_in_qq():
    assert read("4 4 4 4 5 5 5 5 5 6 6 6 6 6") == INVALID


def test_a_gap_is_not_a_chain():
    assert read("3 4 5 6 8") == INVALID
    assert read("5 5 6 6 8 8") == INVALID


def test_mixed_widths_are_not_a_chain():
    assert read("5 5 6 6 6 7 7") == INVALID


def test_no_cards_have_no_reading():
    assert classify(parse_cards(""), PRESETS["qq"]) is None
    assert readings(parse_cards(""), PRESETS["qq"]) == []


# --- each example of RULES §4.1, exact reading


def test_big_joker_with_four_sevens_is_five_sevens():
    assert read("7 7 7 7 BJ") == bomb(5, "7")


def test_big_joker_with_three_fours_is_a_four_star_bomb_of_fours():
    assert read("4 4 4 BJ") == bomb(4, "4")


def test_big_joker_extends_straight_upward():
    assert read("4 5 6 7 8 BJ") == straight(6, "9")
    assert wildcards("4 5 6 7 8 BJ") == "BJ as 9"


def test_big_joker_extends_a_five_card_straight_upward():
    assert read("5 6 7 8 BJ") == straight(5, "9")


def test_big_joker_completes_the_middle_pair():
    assert read("7 7 8 9 9 BJ") == pairs(6, "9")
    assert wildcards("7 7 8 9 9 BJ") == "BJ as 8"


def test_two_big_jokers_complete_pairs():
    assert read("7 7 8 9 BJ BJ") == pairs(6, "9")
    assert wildcards("7 7 8 9 BJ BJ") == "BJ as 8, BJ as 9"


def test_big_joker_completes_the_top_pair():
    assert read("3 3 4 4 5 BJ") == pairs(6, "5")


def test_big_joker_fills_a_gap_in_a_straight():
    assert read("5 6 7 9 BJ") == straight(5, "9")
    assert wildcards("5 6 7 9 BJ") == "BJ as 8"


def test_big_joker_with_three_twos_is_a_bomb_of_twos():
    assert read("BJ 2 2 2") == bomb(4, "2")
    assert wildcards("BJ 2 2 2") == "BJ as 2"


def test_two_pairs_and_a_big_joker_have_no_reading():
    assert read("3 3 4 4 BJ") == INVALID


def test_big_joker_completes_a_chain_bomb():
    assert read("3 3 3 3 4 4 4 4 5 5 5 BJ") == chain_bomb(12, "5", 3, 7)
    assert wildcards("3 3 3 3 4 4 4 4 5 5 5 BJ") == "BJ as 5"


def test_jokers_only_with_a_big_joker_are_the_three_joker_bomb():
    assert read("SJ SJ BJ") == JOKER_BOMB_3
    assert read("SJ BJ BJ") == JOKER_BOMB_3


def test_two_big_jokers_with_a_five_are_a_triple_of_fives():
    assert read("BJ BJ 5") == {"valid": True, "type": "triple", "size": 3, "rank": "5"}
    assert wildcards("BJ BJ 5") == "BJ as 5, BJ as 5"


def test_big_joker_extends_a_straight_that_ends_at_the_ace_downward():
    assert read("J Q K A BJ") == straight(5, "A")
    assert wildcards("J Q K A BJ") == "BJ as T"


def test_big_joker_with_one_card_is_a_pair():
    assert read("9 BJ") == {"valid": True, "type": "pair", "size": 2, "rank": "9"}


# --- the wildcard description shown to everyone (§4.1)


def test_no_wildcards_describe_as_nothing():
    assert wildcards("5 6 7 8 9") == ""
    assert wildcards("BJ BJ") == ""
    assert wildcards("SJ SJ BJ") == ""


def test_big_joker_in_a_joker_pair_is_described_as_a_small_joker():
    assert wildcards("SJ BJ") == "BJ as SJ"


def test_small_joker_in_a_tcy_joker_pair_is_described_as_a_big_joker():
    assert wildcards("SJ BJ", "tcy") == "SJ as BJ"


def test_small_joker_is_described_when_it_is_wild_in_tcy():
    assert wildcards("4 4 4 SJ", "tcy") == "SJ as 4"


# --- stars


def test_a_ten_card_bomb_with_two_big_jokers_has_ten_stars():
    assert read("5 5 5 5 5 5 5 5 BJ BJ") == bomb(10, "5")
    assert wildcards("5 5 5 5 5 5 5 5 BJ BJ") == "BJ as 5, BJ as 5"


def test_a_tcy_bomb_reaches_twelve_cards_and_twelve_stars():
    assert read("4 4 4 4 4 4 4 4 SJ SJ BJ BJ", "tcy") == bomb(12, "4")


def test_stars_are_capped_at_twelve():
    # 7相6连 would be 13 stars.
    text = " ".join(rank for rank in "345678" for _ in range(7))

    assert read(text) == chain_bomb(42, "8", 6, 12)


def test_stars_are_capped_at_the_rule_sets_maximum():
    rules = PRESETS["qq"].replace(max_stars=9)
    cards = parse_cards("5 5 5 5 5 5 5 5 BJ BJ")

    assert classify(cards, rules).to_protocol() == bomb(10, "5", stars=9)


# --- reading is the largest one


def test_a_tcy_set_with_a_bomb_and_a_pairs_reading_is_read_as_the_bomb():
    assert read("5 5 SJ SJ BJ BJ", "tcy") == bomb(6, "5")
    kinds = {found.kind for found in readings(parse_cards("5 5 SJ SJ BJ BJ"), PRESETS["tcy"])}
    assert kinds == {"bomb", "pairs"}


def test_a_tcy_set_read_as_a_straight_or_pairs_takes_the_higher_top_rank():
    # Straight 9 T J Q K A (top A) beats pairs J J Q Q K K (top K).
    assert read("J Q K SJ SJ BJ", "tcy") == straight(6, "A")


def test_wildcards_make_the_highest_chain_bomb():
    # 3333 4444 5555 or 4444 5555 6666: the higher one.
    assert read("4 4 4 4 5 5 5 5 SJ SJ BJ BJ", "tcy") == chain_bomb(12, "6", 3, 7)
