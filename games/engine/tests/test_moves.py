"""Legal plays from a hand (RULES §3–§5, §11 moves), by example."""

import pytest

from games.engine.cards import format_cards, parse_cards, unpack
from games.engine.moves import has_beating_play, legal_moves
from games.engine.patterns import best_beating, classify
from games.engine.presets import PRESETS


def over_reading(over: str | None, ruleset: str):
    if over is None:
        return None
    found = classify(parse_cards(over), PRESETS[ruleset])
    assert found is not None, f"{over!r} is not a play under {ruleset}"
    return found


def moves(hand: str, over: str | None = None, ruleset: str = "qq") -> list[str]:
    found = legal_moves(parse_cards(hand), over_reading(over, ruleset), PRESETS[ruleset])
    assert len(found) == len(set(found)), "duplicate moves"
    return sorted(format_cards(unpack(move)) for move in found)


def can_beat(hand: str, over: str | None, ruleset: str = "qq") -> bool:
    return has_beating_play(parse_cards(hand), over_reading(over, ruleset), PRESETS[ruleset])


# --- leading


def test_leading_with_singles_and_a_pair_lists_each_distinct_play_once():
    assert moves("5 5 7 8 9 2 2") == ["2", "2 2", "5", "5 5", "7", "8", "9"]


def test_leading_lists_straights_of_every_length_and_place():
    assert moves("3 4 5 6 7 8") == sorted([
        "3", "4", "5", "6", "7", "8", "3 4 5 6 7", "4 5 6 7 8", "3 4 5 6 7 8"])


def test_leading_lists_pairs_chains_and_triples_chains():
    found = moves("5 5 5 6 6 6 7 7 7")

    assert "5 5 6 6 7 7" in found
    assert "5 5 5 6 6 6 7 7 7" in found
    assert "5 5 5 6 6 6" not in found
    assert "5 5 6 6" not in found


def test_leading_lists_bombs_of_each_size():
    found = moves("9 9 9 9 9 9")

    assert ["9 9 9 9", "9 9 9 9 9", "9 9 9 9 9 9"] == [m for m in found if len(m.split()) >= 4]


def test_leading_with_a_big_joker_lists_it_alone_and_as_a_wildcard():
    assert moves("9 Q K K SJ BJ") == [
        "9", "9 BJ", "BJ", "K", "K BJ", "K K", "K K BJ", "Q", "Q BJ", "SJ", "SJ BJ"]


def test_leading_never_combines_a_small_joker_with_natural_cards_in_qq():
    found = moves("5 5 5 SJ BJ")

    assert all("SJ" not in move or set(move.split()) <= {"SJ", "BJ"} for move in found)
    assert "5 5 5 BJ" in found


def test_leading_with_a_wildcard_straight_lists_every_distinct_set_once():
    found = moves("3 4 5 6 7 8 BJ")

    assert "3 4 5 6 7 8 BJ" in found  # 3 … 9
    assert "3 4 5 6 BJ" in found
    assert "4 5 6 8 BJ" in found  # BJ as 7
    assert "3 4 5 BJ" not in found  # four cards are no straight


def test_leading_with_joker_only_plays():
    assert moves("SJ SJ BJ BJ") == ["BJ", "BJ BJ", "SJ", "SJ BJ", "SJ BJ BJ", "SJ SJ",
                                    "SJ SJ BJ", "SJ SJ BJ BJ"]


def test_leading_in_classic_has_no_wildcard_plays():
    assert moves("7 7 7 SJ BJ", ruleset="classic") == ["7", "7 7", "7 7 7", "BJ", "SJ"]


def test_an_empty_hand_has_no_moves():
    assert moves("") == []
    assert not can_beat("", None)


# --- following: the same type and size, or bombs above


def test_following_a_pair_lists_higher_pairs_with_wildcards():
    assert moves("5 5 6 BJ", "4 4") == ["5 5", "5 BJ", "6 BJ"]


def test_following_a_pair_does_not_list_an_equal_pair():
    assert moves("4 4 BJ", "4 4") == []


def test_following_a_single_lists_higher_singles_only():
    assert moves("3 9 J 2", "9") == ["2", "J"]


def test_following_a_single_lists_jokers_above_a_two():
    assert moves("3 3 4 6 7 7 SJ BJ", "2", "classic") == ["BJ", "SJ"]


def test_following_a_triple_lists_triples_and_bombs():
    assert moves("5 5 5 BJ BJ", "4 4 4") == [
        "5 5 5", "5 5 5 BJ", "5 5 5 BJ BJ", "5 5 BJ", "5 5 BJ BJ", "5 BJ BJ"]


def test_following_a_straight_lists_straights_of_that_length_above_it():
    assert moves("3 4 5 6 7 8 BJ", "4 5 6 7 8") == ["5 6 7 8 BJ"]


def test_following_a_straight_ignores_straights_of_another_length():
    assert moves("3 4 5 6 7 8 9", "3 4 5 6 7 8") == ["4 5 6 7 8 9"]


def test_following_pairs_lists_pairs_chains_of_that_length_above_it():
    assert moves("6 6 7 7 8 8 9 9", "5 5 6 6 7 7") == ["6 6 7 7 8 8", "7 7 8 8 9 9"]


def test_following_triples_with_big_jokers():
    found = moves("6 6 7 7 7 8 8 BJ BJ", "5 5 5 6 6 6 7 7 7")

    assert [move for move in found if len(move.split()) == 9] == ["6 6 7 7 7 8 8 BJ BJ"]
    assert "8 8 BJ BJ" in found  # a bomb beats them too


def test_following_a_non_bomb_lists_every_bomb():
    assert moves("6 6 6 6 6 7", "3") == ["6", "6 6 6 6", "6 6 6 6 6", "7"]


def test_following_a_bomb_lists_only_bombs_above_it():
    assert moves("7 7 7 7 BJ", "6 6 6 6") == ["7 7 7 7", "7 7 7 7 BJ", "7 7 7 BJ"]
    assert moves("7 7 7 7 BJ", "8 8 8 8") == ["7 7 7 7 BJ"]
    assert moves("7 7 7 7 BJ", "3 3 3 3 3") == ["7 7 7 7 BJ"]
    assert moves("7 7 7 7 BJ", "8 8 8 8 8") == []


def test_following_a_bomb_with_a_chain_bomb():
    assert moves("3 3 3 3 4 4 4 4 5 5 5 BJ", "3 3 3 3 3 3") == ["3 3 3 3 4 4 4 4 5 5 5 BJ"]
    assert moves("3 3 3 3 4 4 4 4 5 5 5 BJ", "3 3 3 3 3 3 3") == []


def test_following_a_chain_bomb_with_a_higher_chain_bomb():
    assert moves("4 4 4 4 5 5 5 5 6 6 6 6", "3 3 3 3 4 4 4 4 5 5 5 5") == [
        "4 4 4 4 5 5 5 5 6 6 6 6"]
    assert moves("4 4 4 4 5 5 5 5 6 6 6 6", "4 4 4 4 5 5 5 5 6 6 6 6") == []


def test_following_with_joker_bombs():
    assert moves("SJ SJ BJ BJ 5", "2 2 2 2 2 2 2") == ["SJ SJ BJ BJ"]
    assert moves("SJ SJ BJ BJ 5", "2 2 2 2 2 2 2", "tcy") == []
    assert moves("SJ BJ BJ", "2 2 2 2 2") == ["SJ BJ BJ"]
    assert moves("SJ BJ BJ 4", "4 4 4 4 4 4") == []


def test_following_the_heavenly_bomb_in_classic_lists_nothing():
    assert moves("2 2 2 2 2 2 2 2", "SJ SJ BJ BJ", "classic") == []


def test_following_in_tcy_lists_irregular_chain_bombs():
    found = moves("4 4 4 4 5 5 5 5 5 6 6 6 6 6", "2 2 2 2 2 2", "tcy")

    assert "4 4 4 4 5 5 5 5 5 6 6 6 6 6" in found
    assert "4 4 4 4 5 5 5 5 6 6 6 6" in found
    assert moves("4 4 4 4 5 5 5 5 5 6 6 6 6 6", "2 2 2 2 2 2", "qq") == [
        "4 4 4 4 5 5 5 5 6 6 6 6"]


def test_following_an_irregular_chain_bomb_leaves_out_irregular_ones_of_equal_stars():
    found = moves("7 7 7 7 8 8 8 8 8 9 9 9 9 9", "4 4 4 4 5 5 5 5 5 6 6 6 6 6", "tcy")

    assert "7 7 7 7 8 8 8 8 8 9 9 9 9 9" not in found
    assert "7 7 7 7 8 8 8 8 9 9 9 9" in found  # regular, fewer cards


def test_following_in_jinyou_lists_chain_bombs_through_two():
    assert moves("A A A A 2 2 2 2 3 3 3 3", "9 9 9 9 9 9", "jinyou") == [
        "3 3 3 3 A A A A 2 2 2 2"]
    assert moves("A A A A 2 2 2 2 3 3 3 3", "9 9 9 9 9 9", "qq") == []


def test_following_lists_nothing_when_nothing_beats():
    assert moves("9 T J J Q Q 2 2", "SJ BJ BJ") == []
    assert moves("7 9 T J", "5 5 5 6 6 6 7 7 7 8 8 8 9 9 9", "tcy") == []


def test_every_followed_move_is_the_same_type_and_size_or_a_bomb():
    rules = PRESETS["qq"]
    over = classify(parse_cards("4 4 5 5 6 6"), rules)
    hand = parse_cards("5 5 6 6 7 7 7 7 8 8 BJ BJ")

    found = legal_moves(hand, over, rules)

    assert found
    for move in found:
        recorded = best_beating(unpack(move), over, rules)
        assert recorded.is_bomb or (recorded.kind, recorded.size) == ("pairs", 6)


# --- has_beating_play


@pytest.mark.parametrize(("hand", "over", "ruleset", "expected"), [
    ("5 5 6 BJ", "4 4", "qq", True),
    ("4 4", "4 4", "qq", False),
    ("3 9", "2", "qq", False),
    ("3 SJ", "2", "qq", True),
    ("7 7 7 7", "2", "qq", True),
    ("7 7 7 7", "8 8 8 8", "qq", False),
    ("7 7 7 BJ", "6 6 6 6", "qq", True),
    ("SJ SJ BJ BJ", "2 2 2 2 2 2 2", "qq", True),
    ("SJ SJ BJ BJ", "2 2 2 2 2 2 2", "jinyou", False),
    ("4 5 6 7 BJ", "3 4 5 6 7", "qq", True),
    ("3 4 5 6 BJ", "3 4 5 6 7", "qq", False),
    ("6 7 8 9", "7 7 8 9 9 BJ", "tcy", False),
    ("", None, "qq", False),
    ("3", None, "qq", True),
    ("SJ", None, "classic", True),
])
def test_has_beating_play_examples(hand, over, ruleset, expected):
    assert can_beat(hand, over, ruleset) is expected
    assert bool(moves(hand, over, ruleset)) is expected
