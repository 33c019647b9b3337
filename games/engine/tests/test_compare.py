"""Comparing plays (RULES §5) and the rule-set differences of §9."""

import pytest

from games.engine.cards import format_cards, parse_cards
from games.engine.patterns import beats, best_beating, classify
from games.engine.presets import PRESETS
from games.engine.tests import engine_oracle as oracle


def read(text: str, ruleset: str = "qq") -> dict:
    found = classify(parse_cards(text), PRESETS[ruleset])
    return found.to_protocol() if found else {"valid": False}


def wins(cards: str, over: str, ruleset: str = "qq") -> bool:
    """Whether ``cards`` beat ``over`` read as its largest reading (RULES §4.1, §11 beats)."""
    rules = PRESETS[ruleset]
    current = classify(parse_cards(over), rules)
    assert current is not None, f"{over!r} is not a play under {ruleset}"
    return best_beating(parse_cards(cards), current, rules) is not None


def ordered(plays: list[str], ruleset: str = "qq") -> None:
    """Assert each play beats every earlier one and none beats a later one."""
    for low_index, low in enumerate(plays):
        for high in plays[low_index + 1:]:
            assert wins(high, low, ruleset), f"{high} should beat {low} ({ruleset})"
            assert not wins(low, high, ruleset), f"{low} should not beat {high} ({ruleset})"


# --- non-bombs


def test_a_higher_straight_of_the_same_length_beats():
    assert wins("6 7 8 9 T", "5 6 7 8 9")


def test_a_lower_single_does_not_beat():
    assert not wins("6", "J")


def test_a_longer_straight_does_not_beat_a_shorter_one():
    assert not wins("6 7 8 9 T J", "3 4 5 6 7")
    assert not wins("6 7 8 9 T", "3 4 5 6 7 8")


def test_a_different_type_of_the_same_size_does_not_beat():
    assert not wins("9 9 T T J J", "3 4 5 6 7 8")
    assert not wins("9 T J Q K A", "3 3 4 4 5 5")


def test_longer_pairs_do_not_beat_shorter_pairs():
    assert not wins("9 9 T T J J Q Q", "3 3 4 4 5 5")


def test_equal_is_not_higher():
    assert not wins("8", "8")
    assert not wins("5 5", "5 5")
    assert not wins("5 6 7 8 9", "5 6 7 8 9")


def test_a_pair_made_with_a_big_joker_is_equal_to_the_natural_pair():
    assert not wins("5 BJ", "5 5")
    assert not wins("5 5", "5 BJ")
    assert wins("6 BJ", "5 5")


def test_single_order_runs_from_three_up_to_the_big_joker():
    ordered(["3", "4", "9", "T", "J", "Q", "K", "A", "2", "SJ", "BJ"])


def test_pair_of_big_jokers_beats_the_small_and_big_joker_pair():
    assert wins("BJ BJ", "SJ BJ")
    assert not wins("SJ BJ", "SJ SJ")  # both a pair of SJ in qq


# --- bombs against non-bombs


@pytest.mark.parametrize("over", ["BJ", "BJ BJ", "2 2 2", "3 4 5 6 7 8 9 T J Q K A",
                                  "J J Q Q K K A A", "Q Q Q K K K A A A"])
def test_any_bomb_beats_any_non_bomb(over):
    assert wins("3 3 3 3", over)


def test_a_non_bomb_never_beats_a_bomb():
    assert not wins("BJ", "3 3 3 3")
    assert not wins("BJ BJ", "3 3 3 3")


def test_the_three_joker_bomb_beats_a_non_bomb():
    assert wins("SJ SJ BJ", "BJ BJ")


# --- bombs against bombs: stars, then fewer cards, then rank


def test_more_stars_beat_fewer():
    assert wins("3 3 3 3 3", "2 2 2 2")
    assert not wins("2 2 2 2", "3 3 3 3 3")


def test_within_the_same_stars_fewer_cards_beat_more():
    # Both 7 stars: a 7-card bomb (7 cards) and 4相3连 (12 cards).
    assert wins("3 3 3 3 3 3 3", "Q Q Q Q K K K K A A A A")
    assert not wins("Q Q Q Q K K K K A A A A", "3 3 3 3 3 3 3")


def test_within_the_same_stars_and_cards_the_higher_rank_beats():
    assert wins("9 9 9 9", "8 8 8 8")
    assert not wins("8 8 8 8", "9 9 9 9")
    assert wins("4 4 4 4 5 5 5 5 6 6 6 6", "3 3 3 3 4 4 4 4 5 5 5 5")


def test_an_equal_bomb_does_not_beat():
    assert not wins("9 9 9 9", "9 9 9 9")
    assert not wins("9 9 9 BJ", "9 9 9 9")


def test_within_eight_stars_a_bomb_beats_five_by_three_beats_four_by_four():
    eight_card_bomb = "3 3 3 3 3 3 3 3"
    five_by_three = "Q Q Q Q Q K K K K K A A A A A"
    four_by_four = "J J J J Q Q Q Q K K K K A A A A"
    assert read(five_by_three)["stars"] == read(four_by_four)["stars"] == 8

    ordered([four_by_four, five_by_three, eight_card_bomb])


def test_the_three_joker_bomb_is_the_smallest_six_star():
    assert wins("3 3 3 3 3 3", "SJ SJ BJ")
    assert not wins("SJ SJ BJ", "3 3 3 3 3 3")
    assert wins("SJ BJ BJ", "2 2 2 2 2")


def test_three_joker_bombs_do_not_beat_each_other():
    assert not wins("SJ BJ BJ", "SJ SJ BJ")
    assert not wins("SJ SJ BJ", "SJ BJ BJ")


def test_the_heavenly_bomb_is_the_top_seven_star_in_qq():
    assert wins("SJ SJ BJ BJ", "2 2 2 2 2 2 2")
    assert wins("SJ SJ BJ BJ", "Q Q Q Q K K K K A A A A")
    assert not wins("2 2 2 2 2 2 2", "SJ SJ BJ BJ")
    assert not wins("SJ SJ BJ BJ", "3 3 3 3 3 3 3 3")
    assert wins("3 3 3 3 3 3 3 3", "SJ SJ BJ BJ")


@pytest.mark.parametrize("ruleset", ["tcy", "jinyou"])
def test_the_heavenly_bomb_is_the_bottom_seven_star_in_tcy_and_jinyou(ruleset):
    assert not wins("SJ SJ BJ BJ", "3 3 3 3 3 3 3", ruleset)
    assert wins("3 3 3 3 3 3 3", "SJ SJ BJ BJ", ruleset)
    assert wins("3 3 3 3 4 4 4 4 5 5 5 5", "SJ SJ BJ BJ", ruleset)
    assert wins("SJ SJ BJ BJ", "2 2 2 2 2 2", ruleset)
    assert wins("SJ SJ BJ BJ", "SJ SJ BJ", ruleset)


def test_the_heavenly_bomb_beats_every_bomb_in_classic():
    for over in ["3 3 3 3", "2 2 2 2 2 2 2 2", "A A A A A A A A"]:
        assert wins("SJ SJ BJ BJ", over, "classic")
        assert not wins(over, "SJ SJ BJ BJ", "classic")


def test_big_jokers_count_as_cards_of_a_bomb():
    # 8 natural + 2 BJ = 10 stars beats 8 natural (8 stars).
    assert wins("5 5 5 5 5 5 5 5 BJ BJ", "2 2 2 2 2 2 2 2")


# --- the reading recorded when following (§4.1)


def test_best_beating_records_the_largest_reading_when_leading():
    rules = PRESETS["tcy"]

    assert best_beating(parse_cards("5 5 SJ SJ BJ BJ"), None, rules).kind == "bomb"


def test_best_beating_records_the_bomb_reading_over_pairs():
    rules = PRESETS["tcy"]
    over = classify(parse_cards("3 3 4 4 5 5"), rules)

    recorded = best_beating(parse_cards("5 5 SJ SJ BJ BJ"), over, rules)

    assert recorded.to_protocol() == {"valid": True, "type": "bomb", "size": 6, "rank": "5",
                                      "stars": 6}


def test_best_beating_records_a_smaller_reading_when_only_that_one_beats():
    rules = PRESETS["tcy"]
    cards = parse_cards("J Q K SJ SJ BJ")
    assert classify(cards, rules).kind == "straight"  # 9 … A, the largest when leading
    over = classify(parse_cards("T T J J Q Q"), rules)

    recorded = best_beating(cards, over, rules)

    assert recorded.to_protocol() == {"valid": True, "type": "pairs", "size": 6, "rank": "K",
                                      "length": 3}
    assert recorded.describe_wildcards(cards, rules) == "BJ as J, SJ as Q, SJ as K"


def test_best_beating_records_the_higher_chain_bomb_that_beats():
    rules = PRESETS["tcy"]
    over = classify(parse_cards("3 3 3 3 4 4 4 4 5 5 5 5"), rules)

    recorded = best_beating(parse_cards("4 4 4 4 5 5 5 5 SJ SJ BJ BJ"), over, rules)

    assert (recorded.kind, recorded.size, recorded.rank, recorded.stars) == (
        "chain_bomb", 12, 3, 7)  # 4444 5555 6666


def test_best_beating_is_none_when_no_reading_beats():
    rules = PRESETS["tcy"]
    over = classify(parse_cards("3 3 3 3 3 3 3"), rules)

    assert best_beating(parse_cards("5 5 SJ SJ BJ BJ"), over, rules) is None


def test_later_plays_are_compared_with_the_recorded_reading():
    rules = PRESETS["tcy"]
    cards = parse_cards("J Q K SJ SJ BJ")
    recorded = best_beating(cards, classify(parse_cards("T T J J Q Q"), rules), rules)

    assert beats(classify(parse_cards("Q Q K K A A"), rules), recorded, rules)
    assert not beats(classify(parse_cards("J J Q Q K K"), rules), recorded, rules)
    # Had the straight 9 … A been recorded, pairs could not have beaten it.
    assert not beats(classify(parse_cards("Q Q K K A A"), rules), classify(cards, rules), rules)


# --- §9 tcy


def test_tcy_small_joker_is_wild():
    assert read("4 4 4 SJ", "tcy") == {"valid": True, "type": "bomb", "size": 4, "rank": "4",
                                        "stars": 4}
    assert read("4 4 4 SJ", "qq") == {"valid": False}


def test_tcy_small_and_big_joker_alone_are_a_pair_of_big_jokers():
    assert read("SJ BJ", "tcy") == {"valid": True, "type": "pair", "size": 2, "rank": "BJ"}
    assert not wins("SJ BJ", "BJ BJ", "tcy")
    assert not wins("BJ BJ", "SJ BJ", "tcy")
    assert wins("SJ BJ", "SJ SJ", "tcy")


def test_tcy_irregular_chain_bomb_counts_as_the_smallest_count():
    assert read("4 4 4 4 5 5 5 5 5 6 6 6 6 6", "tcy") == {
        "valid": True, "type": "chain_bomb", "size": 14, "rank": "6", "length": 3, "stars": 7}


def test_tcy_irregular_chain_bombs_of_the_same_stars_never_beat_each_other():
    assert not wins("7 7 7 7 8 8 8 8 8 9 9 9 9 9", "4 4 4 4 5 5 5 5 5 6 6 6 6 6", "tcy")
    assert not wins("4 4 4 4 5 5 5 5 5 6 6 6 6 6", "7 7 7 7 8 8 8 8 8 9 9 9 9 9", "tcy")


def test_tcy_an_irregular_chain_bomb_of_more_stars_beats():
    assert read("7 7 7 7 7 8 8 8 8 8 9 9 9 9 9", "tcy")["stars"] == 8
    assert wins("7 7 7 7 7 8 8 8 8 8 9 9 9 9 9", "4 4 4 4 5 5 5 5 5 6 6 6 6 6", "tcy")


def test_tcy_a_regular_chain_bomb_of_fewer_cards_beats_an_irregular_one_of_equal_stars():
    assert wins("3 3 3 3 4 4 4 4 5 5 5 5", "4 4 4 4 5 5 5 5 5 6 6 6 6 6", "tcy")
    assert not wins("7 7 7 7 8 8 8 8 8 9 9 9 9 9", "3 3 3 3 4 4 4 4 5 5 5 5", "tcy")


def test_tcy_bombs_reach_twelve_stars_with_four_jokers():
    assert wins("3 3 3 3 3 3 3 3 SJ SJ BJ BJ", "2 2 2 2 2 2 2 2 BJ BJ", "tcy")


# --- §9 jinyou chain bombs through 2


@pytest.mark.parametrize(("text", "rank", "length"), [
    ("A A A A 2 2 2 2 3 3 3 3", "3", 3),
    ("2 2 2 2 3 3 3 3 4 4 4 4", "4", 3),
    ("K K K K A A A A 2 2 2 2", "2", 3),
    ("K K K K A A A A 2 2 2 2 3 3 3 3", "3", 4),
    ("Q Q Q Q K K K K A A A A 2 2 2 2", "2", 4),
])
def test_jinyou_chain_bombs_run_through_the_two(text, rank, length):
    assert read(text, "jinyou") == {"valid": True, "type": "chain_bomb", "size": 4 * length,
                                    "rank": rank, "length": length, "stars": 4 + length}
    assert read(text, "qq") == {"valid": False}


def test_jinyou_chains_holding_a_two_are_below_ordinary_ones_then_by_group_and_rank():
    ordered([
        "A A A A 2 2 2 2 3 3 3 3",  # through 2, ends on 3
        "2 2 2 2 3 3 3 3 4 4 4 4",  # through 2, ends on 4
        "K K K K A A A A 2 2 2 2",  # ends at 2
        "3 3 3 3 4 4 4 4 5 5 5 5",  # the lowest ordinary chain
        "Q Q Q Q K K K K A A A A",
    ], "jinyou")


def test_jinyou_a_four_rank_chain_ending_at_two_beats_one_running_through_two():
    ordered([
        "K K K K A A A A 2 2 2 2 3 3 3 3",
        "Q Q Q Q K K K K A A A A 2 2 2 2",
        "3 3 3 3 4 4 4 4 5 5 5 5 6 6 6 6",
    ], "jinyou")


def test_jinyou_a_two_chain_of_more_stars_beats_an_ordinary_one_of_fewer():
    assert wins("A A A A A 2 2 2 2 2 3 3 3 3 3", "Q Q Q Q K K K K A A A A", "jinyou")


def test_jinyou_straights_and_pairs_still_stop_at_the_ace():
    assert read("Q K A 2 3", "jinyou") == {"valid": False}
    assert read("A A 2 2 3 3", "jinyou") == {"valid": False}
    assert read("A A A 2 2 2 3 3 3", "jinyou") == {"valid": False}


def test_jinyou_a_chain_cannot_skip_the_two():
    assert read("A A A A 3 3 3 3 4 4 4 4", "jinyou") == {"valid": False}


# --- §9 classic


def test_classic_big_joker_is_not_wild():
    assert read("7 7 7 7 BJ", "classic") == {"valid": False}
    assert read("9 BJ", "classic") == {"valid": False}


def test_classic_small_and_big_joker_are_not_a_pair():
    assert read("SJ BJ", "classic") == {"valid": False}
    assert read("BJ BJ", "classic")["type"] == "pair"


def test_classic_three_jokers_are_no_pattern():
    assert read("SJ SJ BJ", "classic") == {"valid": False}
    assert read("SJ BJ BJ", "classic") == {"valid": False}


def test_classic_has_no_chain_bombs():
    assert read("3 3 3 3 4 4 4 4 5 5 5 5", "classic") == {"valid": False}


def test_classic_bombs_compare_by_more_cards_then_rank():
    ordered(["3 3 3 3", "2 2 2 2", "3 3 3 3 3", "A A A A A", "3 3 3 3 3 3 3 3",
             "SJ SJ BJ BJ"], "classic")


def test_classic_the_heavenly_bomb_is_a_joker_bomb():
    assert read("SJ SJ BJ BJ", "classic")["type"] == "joker_bomb"


# --- the whole bomb order, pair by pair, against the brute-force oracle


def sample_bombs(ruleset: str) -> list[str]:
    """Bombs of every kind the rule set has: one rank from 4 to 12 cards, joker
    bombs, chain bombs of every row of the star table, irregular and through-2."""
    rules = PRESETS[ruleset]
    texts = []
    for rank in ("3", "9", "A", "2"):
        texts += [" ".join([rank] * size) for size in range(4, 9)]
    texts += ["5 5 5 5 5 5 5 5 BJ", "5 5 5 5 5 5 5 5 BJ BJ", "A A A BJ",
              "4 4 4 4 4 4 4 4 SJ SJ BJ BJ", "SJ SJ BJ", "SJ BJ BJ", "SJ SJ BJ BJ"]
    for per_rank, length in [(4, 3), (4, 4), (4, 5), (4, 6), (5, 3), (5, 4), (5, 5), (6, 3),
                             (6, 4), (7, 3), (8, 3)]:
        for ranks in ("3456789TJQKA"[:length], "3456789TJQKA"[-length:]):
            texts.append(" ".join(rank for rank in ranks for _ in range(per_rank)))
    texts += [
        "A A A A 2 2 2 2 3 3 3 3", "2 2 2 2 3 3 3 3 4 4 4 4", "K K K K A A A A 2 2 2 2",
        "K K K K A A A A 2 2 2 2 3 3 3 3", "Q Q Q Q K K K K A A A A 2 2 2 2",
        "A A A A A 2 2 2 2 2 3 3 3 3 3",
        "4 4 4 4 5 5 5 5 5 6 6 6 6 6", "7 7 7 7 8 8 8 8 8 9 9 9 9 9",
        "7 7 7 7 7 8 8 8 8 8 9 9 9 9 9", "4 4 4 4 5 5 5 5 5 6 6 6 6",
        "8 8 8 8 8 8 9 9 9 9 T T T T T", "3 3 3 3 4 4 4 4 5 5 5 BJ",
        "Q Q Q Q K K K K A A A A SJ SJ BJ BJ",
    ]
    return [text for text in texts if classify(parse_cards(text), rules) is not None]


@pytest.mark.parametrize("ruleset", ["qq", "tcy", "jinyou", "classic"])
def test_every_pair_of_sample_bombs_compares_as_the_oracle_says(ruleset):
    rules = PRESETS[ruleset]
    bombs = [parse_cards(text) for text in sample_bombs(ruleset)]
    assert len(bombs) > 20
    recorded = {}
    for over_cards in bombs:
        over = classify(over_cards, rules)
        current = next(reading for reading in oracle.largest_readings(over_cards, rules)
                       if reading.protocol() == over.to_protocol()
                       and reading.irregular == over.irregular)
        for play in bombs:
            expected = bool(oracle.beating_readings(play, current, rules))
            recorded[(format_cards(play), format_cards(over_cards))] = expected
            assert (best_beating(play, over, rules) is not None) is expected, (
                f"{format_cards(play)} over {format_cards(over_cards)}")
    # The order is strict: of two different bombs at most one beats the other.
    for (play, over), play_wins in recorded.items():
        assert not (play_wins and recorded[(over, play)])
