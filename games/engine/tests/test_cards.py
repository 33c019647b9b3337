"""Cards and notation (RULES §1): parsing, canonical text, the 108-card deck."""

from collections import Counter

import pytest

from games.engine.cards import (
    FULL_DECK,
    MAX_COPIES,
    RANK_TOKENS,
    Card,
    CardError,
    check_possible,
    counts_of,
    format_cards,
    pack,
    parse_cards,
    subtract,
    unpack,
)


def test_rank_tokens_run_from_three_up_to_the_big_joker():
    assert RANK_TOKENS == ("3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2",
                           "SJ", "BJ")


def test_counts_are_indexed_by_rank_from_three():
    counts = parse_cards("3 5 5 2 BJ")

    assert len(counts) == 15
    assert counts[0] == 1  # 3
    assert counts[2] == 2  # 5
    assert counts[12] == 1  # 2
    assert counts[14] == 1  # BJ
    assert sum(counts) == 5


def test_ten_is_accepted_for_t():
    assert parse_cards("10 10 J") == parse_cards("T T J")


def test_lower_case_tokens_are_accepted():
    assert parse_cards("t j q k a sj bj") == parse_cards("T J Q K A SJ BJ")


def test_a_list_of_tokens_parses_like_text():
    assert parse_cards(["5", "5", "BJ"]) == parse_cards("5 5 BJ")


def test_extra_whitespace_between_tokens_is_ignored():
    assert parse_cards("  5\t5   BJ \n") == parse_cards("5 5 BJ")


def test_canonical_text_is_ascending_by_rank_with_single_spaces():
    assert format_cards(parse_cards("BJ 5 10 3 SJ T 2 A")) == "3 5 T T A 2 SJ BJ"


def test_canonical_text_of_the_rules_example():
    assert format_cards(parse_cards("7 BJ 5 6 7 6 5")) == "5 5 6 6 7 7 BJ"


def test_canonical_text_of_no_cards_is_empty():
    assert format_cards(parse_cards("")) == ""


def test_the_deck_has_108_cards():
    assert len(FULL_DECK) == 108


def test_the_deck_holds_eight_of_each_natural_rank_and_two_of_each_joker():
    per_rank = Counter(card.token for card in FULL_DECK)

    assert {token: per_rank[token] for token in RANK_TOKENS[:13]} == dict.fromkeys(
        RANK_TOKENS[:13], 8)
    assert per_rank["SJ"] == 2
    assert per_rank["BJ"] == 2


def test_the_deck_counts_match_the_copy_limits():
    assert counts_of(FULL_DECK) == MAX_COPIES


def test_every_card_code_is_unique():
    assert len({card.code for card in FULL_DECK}) == 108


def test_each_natural_rank_has_every_suit_in_both_deck_copies():
    for token in RANK_TOKENS[:13]:
        cards = {(card.suit, card.copy) for card in FULL_DECK if card.token == token}
        assert cards == {(suit, copy) for suit in "SHCD" for copy in (0, 1)}


def test_jokers_have_no_suit():
    assert all(card.suit is None for card in FULL_DECK if card.token in ("SJ", "BJ"))


def test_every_card_has_a_twin_of_the_same_rank_and_suit_from_the_other_deck():
    deck = set(FULL_DECK)
    for card in FULL_DECK:
        twin = card.twin()
        assert twin in deck
        assert twin != card
        assert (twin.rank, twin.suit) == (card.rank, card.suit)
        assert twin.copy == 1 - card.copy
        assert twin.twin() == card


def test_card_codes_read_back_to_the_same_card():
    assert all(Card.from_code(card.code) == card for card in FULL_DECK)


def test_card_code_and_label_examples():
    ace = Card.from_code("AS0")
    assert ace.token == "A"
    assert ace.label == "♠A"
    assert Card.from_code("BJ1").label == "BJ"
    assert Card.from_code("TD1").label == "♦T"


@pytest.mark.parametrize("code", ["", "A", "AS", "AX0", "AS2", "1S0", "SJS0", "BJ2", "ZZ0"])
def test_an_unknown_physical_card_code_is_a_card_error(code):
    with pytest.raises(CardError, match="unknown physical card"):
        Card.from_code(code)


def test_an_unknown_token_is_a_card_error_naming_the_token_and_the_valid_ones():
    with pytest.raises(CardError) as caught:
        parse_cards("5 X 6")

    message = str(caught.value)
    assert "'X'" in message
    assert "3 4 5 6 7 8 9 T J Q K A 2 SJ BJ" in message


@pytest.mark.parametrize("text", ["1", "11", "JJ", "joker", "5,5", "S5"])
def test_malformed_tokens_are_card_errors(text):
    with pytest.raises(CardError, match="unknown card"):
        parse_cards(text)


def test_three_big_jokers_are_impossible():
    with pytest.raises(CardError) as caught:
        parse_cards("BJ BJ BJ")

    assert "3 × BJ" in str(caught.value)
    assert "only 2" in str(caught.value)


def test_nine_of_a_rank_are_impossible():
    with pytest.raises(CardError) as caught:
        parse_cards("5 " * 9)

    assert "9 × 5" in str(caught.value)
    assert "only 8" in str(caught.value)


def test_eight_of_a_rank_and_two_of_each_joker_are_possible():
    counts = parse_cards("5 " * 8 + "SJ SJ BJ BJ")

    assert counts[2] == 8
    assert counts[13] == counts[14] == 2


def test_a_token_that_is_not_a_string_is_a_card_error():
    with pytest.raises(CardError, match="rank token"):
        parse_cards(["5", 5])


def test_a_negative_count_is_refused():
    with pytest.raises(CardError, match="negative count of 4"):
        check_possible((0, -1) + (0,) * 13)


def test_pack_and_unpack_round_trip_counts_up_to_eight():
    counts = parse_cards("3 " * 8 + "T " * 7 + "2 " * 8 + "SJ SJ BJ BJ")

    assert unpack(pack(counts)) == counts


def test_packed_sets_add_like_counts():
    assert unpack(pack(parse_cards("5 5 BJ")) + pack(parse_cards("5 6"))) == parse_cards(
        "5 5 5 6 BJ")


def test_packing_is_one_to_one_on_different_sets():
    assert pack(parse_cards("5 5")) != pack(parse_cards("6"))
    assert pack(parse_cards("BJ")) != pack(parse_cards("SJ"))


def test_subtracting_cards_that_are_not_in_the_hand_is_a_card_error():
    hand = parse_cards("5 5 6")

    assert subtract(hand, parse_cards("5 6")) == parse_cards("5")
    with pytest.raises(CardError, match="not all in the hand"):
        subtract(hand, parse_cards("5 5 5"))
