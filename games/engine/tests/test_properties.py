"""Properties of reading and move generation on random cards (hypothesis).

Hands come from two real decks (samples of ``FULL_DECK``) or from a strategy
biased to a few adjacent ranks and extra jokers, where bombs, chain bombs and
wildcards are common. A play to follow is the reading of a random valid play
(often a neighbour of the hand's own plays: a rank up or down, a card more or
less), or None for leading. Every property runs under every preset. The reading
is checked against the brute-force oracle of ``engine_oracle``; move generation
against brute force over every sub-multiset of the hand. On failure hypothesis
prints the falsifying example.
"""

from itertools import product

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from games.engine.cards import FULL_DECK, MAX_COPIES, RANK_TOKENS, counts_of, pack, unpack
from games.engine.moves import has_beating_play, legal_moves
from games.engine.patterns import best_beating, classify
from games.engine.presets import PRESETS
from games.engine.protocol import handle
from games.engine.tests import engine_oracle as oracle
from games.engine.tests.examples import examples

SJ, BJ = 13, 14
RULE_SETS = st.sampled_from(sorted(PRESETS)).map(PRESETS.__getitem__)


# --- strategies


def deck_cards(min_size: int = 0, max_size: int = 27):
    """Counts of distinct physical cards of two decks (always a possible set)."""
    return st.lists(st.sampled_from(FULL_DECK), min_size=min_size, max_size=max_size,
                    unique=True).map(counts_of)


JOKER_COUNTS = st.sampled_from([0, 1, 2, 2])


@st.composite
def clustered_cards(draw, max_size: int = 27, min_ranks: int = 1, max_ranks: int = 5,
                    min_count: int = 0, max_count: int = 8):
    """A few adjacent ranks (wrapping past 2 into 3, for jinyou) with many copies,
    plus jokers: bombs, chain bombs and wildcards are common."""
    counts = [0] * 15
    start = draw(st.integers(0, 12))
    for offset in range(draw(st.integers(min_ranks, max_ranks))):
        counts[(start + offset) % 13] = draw(st.integers(min_count, max_count))
    counts[SJ] = draw(JOKER_COUNTS)
    counts[BJ] = draw(JOKER_COUNTS)
    while sum(counts) > max_size:
        counts[max(range(15), key=counts.__getitem__)] -= 1
    return tuple(counts)


def joker_swaps(rules):
    """How many natural cards to swap for jokers, and which jokers: mostly the
    rule set's wildcards (so the set is often valid), sometimes any joker."""
    if rules is None:
        return st.sampled_from([0, 0, 1, 1, 2, 3, 4]), st.sampled_from([SJ, BJ, BJ])
    wild = [SJ if token == "SJ" else BJ for token in rules.wildcards]
    if not wild:
        return st.sampled_from([0, 0, 0, 0, 1, 2]), st.sampled_from([SJ, BJ])
    return st.sampled_from([0, 0, 1, 1, 2, 3, 4]), st.sampled_from(wild * 5 + [SJ, BJ])


def swap_for_jokers(draw, counts: list[int], rules) -> None:
    swaps, jokers = joker_swaps(rules)
    for _ in range(draw(swaps)):
        present = [rank for rank in range(13) if counts[rank]]
        joker = draw(jokers)
        if present and counts[joker] < 2:
            counts[draw(st.sampled_from(present))] -= 1
            counts[joker] += 1


@st.composite
def near_patterns(draw, rules=None):
    """A pattern shape (width per rank × a run of ranks), perturbed: some cards
    swapped for jokers, a count nudged, a stray card added. Often a valid play."""
    width = draw(st.sampled_from([1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8]))
    if width == 1:
        lengths = [1, 4, *range(5, 13)]
    else:
        lengths = [1, 2, 3, 3, 4, 5, 6] if width <= 4 else [1, 2, 3, 3, 4]
    length = draw(st.sampled_from(lengths))
    # Mostly runs that stop at A; sometimes anywhere, round past 2 into 3.
    start = draw(st.one_of(st.integers(0, 12 - length), st.integers(0, 12 - length),
                           st.integers(0, 12)))
    counts = [0] * 15
    for offset in range(length):
        counts[(start + offset) % 13] = width
    if draw(st.integers(0, 3)) == 0:
        rank = (start + draw(st.integers(0, length - 1))) % 13
        counts[rank] = max(0, min(8, counts[rank] + draw(st.sampled_from([-1, 1]))))
    swap_for_jokers(draw, counts, rules)
    if draw(st.integers(0, 7)) == 0:
        rank = draw(st.integers(0, 14))
        counts[rank] = min(MAX_COPIES[rank], counts[rank] + 1)
    return tuple(counts)


@st.composite
def bomb_shapes(draw, rules=None):
    """Bombs, chain bombs (regular or not, through 2 or not) and joker bombs,
    some with cards swapped for jokers: the plays whose order §5 and §9 decide."""
    if draw(st.integers(0, 5)) == 0:
        return (0,) * 13 + draw(st.sampled_from([(1, 2), (2, 1), (2, 2)]))
    chains = rules is None or rules.chain_bombs
    length = draw(st.sampled_from([1, 1, 3, 3, 3, 4, 5, 6] if chains else [1, 1, 1, 1, 3]))
    if rules is None or rules.chain_bombs_through_two:
        # Often near the top, where jinyou's chains run through 2 and chains stop at A.
        start = draw(st.one_of(st.integers(0, 12), st.integers(8, 12)))
    else:
        start = draw(st.one_of(st.integers(0, 12 - length), st.integers(0, 12)))
    width = draw(st.integers(4, 8))
    # Unequal counts: tcy's irregular chain bombs; elsewhere now and then (invalid).
    unequal = 1 if rules is None or rules.irregular_chain_bombs else 6
    counts = [0] * 15
    for offset in range(length):
        vary = draw(st.integers(0, unequal)) == 0
        counts[(start + offset) % 13] = draw(st.integers(4, 8)) if vary else width
    swap_for_jokers(draw, counts, rules)
    return tuple(counts)


def card_sets(rules=None):
    """Sets to read: mostly near-patterns and bombs (often valid), some others."""
    return st.one_of(near_patterns(rules), near_patterns(rules), bomb_shapes(rules),
                     clustered_cards(max_size=24), deck_cards(1, 14))


def jokers_only():
    return st.tuples(st.integers(0, 2), st.integers(0, 2)).map(
        lambda jokers: (0,) * 13 + jokers)


def rotated(cards, step: int):
    """The same cards with every natural rank moved by ``step`` round 3 … 2."""
    counts = [0] * 15
    for rank in range(13):
        counts[(rank + step) % 13] = cards[rank]
    counts[SJ], counts[BJ] = cards[SJ], cards[BJ]
    return tuple(counts)


@st.composite
def neighbours(draw, cards):
    """A set close to ``cards``: itself, every natural rank a step up or down
    (round the cycle 3 … A 2 3), or one card more or less of one rank.
    Neighbours are where comparisons are subtle: just beaten, equal, just not."""
    change = draw(st.sampled_from(["same", "rotate", "rotate", "nudge"]))
    if change == "rotate":
        return rotated(cards, draw(st.sampled_from([-1, 1])))
    if change == "nudge":
        present = [rank for rank in range(15) if cards[rank]]
        rank = draw(st.sampled_from(present))
        step = 1 if draw(st.booleans()) and cards[rank] < MAX_COPIES[rank] else -1
        return tuple(count + step * (index == rank) for index, count in enumerate(cards))
    return cards


@st.composite
def followed_cards(draw, rules, hand=None, bombs_only=False):
    """The cards of a random valid play under ``rules``: a lead from a dealt hand
    or from a few adjacent ranks with jokers, a pattern-like set, a bomb, or (given
    a hand) a neighbour of one of the hand's own leads."""
    if bombs_only:
        sources = ["bomb"] + (["hand"] if hand else [])
    else:
        sources = ["deck", "cluster", "shape", "bomb"] + (["hand"] * 3 if hand else [])
    source = draw(st.sampled_from(sources))
    if source == "hand":
        leads = [move for move in legal_moves(hand, None, rules)
                 if not bombs_only or classify(unpack(move), rules).is_bomb]
        if leads:
            cards = draw(neighbours(unpack(draw(st.sampled_from(sorted(leads))))))
            if any(cards) and classify(cards, rules) is not None:
                return cards
        source = "bomb"
    if source in ("shape", "bomb"):
        cards = draw(bomb_shapes(rules) if source == "bomb"
                     else st.one_of(near_patterns(rules), jokers_only()))
        if classify(cards, rules) is not None:
            return cards
        assume(not bombs_only)
    dealt = draw(deck_cards(1, 27) if source == "deck" else clustered_cards(max_size=27))
    moves = legal_moves(dealt, None, rules)
    assume(moves)
    return unpack(draw(st.sampled_from(sorted(moves))))


@st.composite
def plays_to_follow(draw, rules, hand=None, bombs_only=False):
    """None (leading) or the reading of a random valid play under ``rules``."""
    if not bombs_only and draw(st.integers(0, 4)) == 0:
        return None
    hand = hand if hand is not None and any(hand) else None
    return classify(draw(followed_cards(rules, hand, bombs_only)), rules)


def few_sub_multisets(counts) -> bool:
    """At most ~4000 sub-multisets, so brute force stays cheap."""
    total = 1
    for count in counts:
        total *= count + 1
    return total <= 4096


def small_hands():
    """Up to 10 cards from the decks, a few ranks with jokers, or a near-pattern."""
    return st.one_of(
        deck_cards(0, 10),
        clustered_cards(max_size=16, max_ranks=4, max_count=5),
        near_patterns(),
        bomb_hands(),
    ).filter(few_sub_multisets)


def bomb_hands():
    """Three adjacent ranks of 3 to 6 cards and (usually) jokers: bombs and chain
    bombs of every kind, regular or not, with wildcards."""
    return clustered_cards(max_size=22, min_ranks=3, max_ranks=3, min_count=3,
                           max_count=6).filter(few_sub_multisets)


def any_hands():
    return st.one_of(deck_cards(0, 27), clustered_cards(max_size=27, max_ranks=6))


def text(counts) -> str:
    return " ".join(RANK_TOKENS[rank] for rank in range(15) for _ in range(counts[rank]))


def sub_multisets(hand):
    """Every non-empty sub-multiset of the hand, by brute force."""
    for counts in product(*(range(count + 1) for count in hand)):
        if any(counts):
            yield counts


def protocol_view(reply: dict, rules) -> dict:
    # classic has no star levels (RULES §9): stars is not compared there.
    if rules.name == "classic":
        return {key: value for key, value in reply.items() if key != "stars"}
    return reply


# --- reading


@pytest.mark.slow  # a brute-force oracle over many examples: seconds
@settings(max_examples=examples(3000), deadline=None)
@given(rules=RULE_SETS, data=st.data())
def test_the_reading_is_the_largest_one_the_brute_force_oracle_finds(rules, data):
    cards = data.draw(st.one_of(card_sets(rules), jokers_only()), label="cards")
    assume(any(cards))
    found = classify(cards, rules)
    event(f"{rules.name}: {found.kind if found else 'not a pattern'}")
    largest = [protocol_view(play.protocol(), rules)
               for play in oracle.largest_readings(cards, rules)]

    if not largest:
        assert found is None, f"{text(cards)}: oracle finds no reading, engine {found}"
    else:
        assert found is not None, f"{text(cards)}: engine finds no reading, oracle {largest}"
        assert protocol_view(found.to_protocol(), rules) in largest, text(cards)


def assert_beats_like_the_oracle(rules, play, over_cards) -> None:
    """best_beating(play, over) agrees with the oracle: whether any reading beats,
    and which reading is recorded (the largest that beats, RULES §4.1)."""
    over = classify(over_cards, rules)
    # The oracle's reading of the play followed: its largest one (the engine's pick
    # where RULES leaves a tie; the reading property checks that pick).
    current = [candidate for candidate in oracle.largest_readings(over_cards, rules)
               if candidate.protocol() == over.to_protocol()
               and candidate.irregular == over.irregular]
    assert current, f"{text(over_cards)}: oracle and engine read it differently"

    recorded = best_beating(play, over, rules)
    expected = [protocol_view(reading.protocol(), rules)
                for reading in oracle.beating_readings(play, current[0], rules)]

    if not expected:
        assert recorded is None, f"{text(play)} over {text(over_cards)}"
    else:
        assert recorded is not None, f"{text(play)} over {text(over_cards)}"
        assert protocol_view(recorded.to_protocol(), rules) in expected


@pytest.mark.slow  # a brute-force oracle over many examples: seconds
@settings(max_examples=examples(800), deadline=None)
@given(rules=RULE_SETS, data=st.data())
def test_beats_and_the_recorded_reading_agree_with_the_oracle(rules, data):
    play = data.draw(card_sets(rules), label="play")
    assume(any(play))
    over_cards = data.draw(followed_cards(rules, play), label="over")

    assert_beats_like_the_oracle(rules, play, over_cards)


@pytest.mark.slow  # a brute-force oracle over many examples: seconds
@settings(max_examples=examples(1200), deadline=None)
@given(rules=RULE_SETS, data=st.data())
def test_bombs_beat_each_other_as_the_oracle_orders_them(rules, data):
    play = data.draw(bomb_shapes(rules), label="play")
    # Half the time the bomb followed is a neighbour of the play (a rank up or down,
    # a card more or less): neighbours are where the order of §5 and §9 is subtle.
    if data.draw(st.booleans(), label="neighbour"):
        over_cards = data.draw(neighbours(play), label="over")
    else:
        over_cards = data.draw(bomb_shapes(rules), label="over")
    assume(any(over_cards) and classify(over_cards, rules) is not None)

    assert_beats_like_the_oracle(rules, play, over_cards)


@settings(max_examples=examples(300), deadline=None)
@given(rules=RULE_SETS, cards=st.lists(st.sampled_from(FULL_DECK), min_size=1, max_size=16,
                                       unique=True), data=st.data())
def test_the_reading_does_not_depend_on_card_order(rules, cards, data):
    tokens = [card.token for card in cards]
    shuffled = data.draw(st.permutations(tokens), label="shuffled")
    request = {"op": "classify", "ruleset": rules.name}

    in_order = handle({**request, "cards": " ".join(tokens)})
    reordered = handle({**request, "cards": " ".join(shuffled)})

    assert reordered == in_order
    assert "error" not in in_order


# --- move generation


@settings(max_examples=examples(300), deadline=None)
@given(rules=RULE_SETS, hand=any_hands(), data=st.data())
def test_every_legal_move_is_held_beats_and_is_listed_once(rules, hand, data):
    over = data.draw(plays_to_follow(rules, hand), label="over")

    moves = legal_moves(hand, over, rules)

    assert len(moves) == len(set(moves)), "duplicate moves"
    for move in moves:
        cards = unpack(move)
        assert pack(cards) == move
        assert all(held >= used for held, used in zip(hand, cards)), text(cards)
        recorded = best_beating(cards, over, rules)
        assert recorded is not None, f"{text(cards)} does not beat {over}"
        if over is not None:
            assert recorded.is_bomb or (recorded.kind, recorded.size) == (over.kind, over.size)


@pytest.mark.slow  # a brute-force oracle over many examples: seconds
@settings(max_examples=examples(600), deadline=None)
@given(rules=RULE_SETS, hand=small_hands(), data=st.data())
def test_legal_moves_miss_nothing_that_brute_force_finds(rules, hand, data):
    over = data.draw(plays_to_follow(rules, hand), label="over")

    expected = {
        pack(cards) for cards in sub_multisets(hand)
        if (classify(cards, rules) if over is None else best_beating(cards, over, rules))
    }

    assert set(legal_moves(hand, over, rules)) == expected


@pytest.mark.slow  # a brute-force oracle over many examples: seconds
@settings(max_examples=examples(400), deadline=None)
@given(rules=RULE_SETS, hand=bomb_hands(), data=st.data())
def test_legal_moves_over_bombs_miss_nothing_that_brute_force_finds(rules, hand, data):
    over = data.draw(plays_to_follow(rules, hand, bombs_only=True), label="over")

    expected = {pack(cards) for cards in sub_multisets(hand)
                if best_beating(cards, over, rules)}

    assert set(legal_moves(hand, over, rules)) == expected


@settings(max_examples=examples(150), deadline=None)
@given(rules=RULE_SETS, hand=small_hands())
def test_legal_leads_are_exactly_the_oracles_valid_sub_multisets(rules, hand):
    expected = {pack(cards) for cards in sub_multisets(hand)
                if oracle.all_readings(cards, rules)}

    assert set(legal_moves(hand, None, rules)) == expected


@settings(max_examples=examples(400), deadline=None)
@given(rules=RULE_SETS, hand=any_hands(), data=st.data())
def test_has_beating_play_is_true_exactly_when_there_are_legal_moves(rules, hand, data):
    over = data.draw(plays_to_follow(rules, hand), label="over")

    assert has_beating_play(hand, over, rules) is bool(legal_moves(hand, over, rules))
