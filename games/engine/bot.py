"""The 托管 move (RULES §10): what the system plays for a timed-out,
disconnected or 托管 seat. It sees only that seat's hand and the public table.

Leading: the smallest single card. Following: a pass when the partner is
winning the trick or the play to beat is a bomb; otherwise the smallest play of
the same type and size that beats it, never a bomb, else a pass.
"""

from __future__ import annotations

from .cards import BIG_JOKER, RANK_COUNT, SMALL_JOKER, TWO, Counts, unpack
from .moves import legal_moves
from .patterns import (
    CHAIN_TOP,
    CHAIN_WIDTH,
    SET_SIZES,
    Reading,
    best_beating,
    joker_only_reading,
    wild_count,
)
from .planner import reading_of
from .rulesets import RuleSet


def trustee_move(hand: Counts, current: Reading | None, partner_winning: bool,
                 rules: RuleSet) -> Counts | None:
    """The cards to play, or None to pass."""
    if current is None:
        return _smallest_single(hand)
    if partner_winning or current.is_bomb:
        return None
    if current.kind in SET_SIZES:
        return _smallest_set(hand, SET_SIZES[current.kind], current, rules)
    return _smallest_run(hand, CHAIN_WIDTH[current.kind], current.length, current.rank, rules)


def _smallest_single(hand: Counts) -> Counts | None:
    for rank, count in enumerate(hand):
        if count:
            return _only(rank, 1)
    return None


def _only(rank: int, count: int) -> Counts:
    cards = [0] * RANK_COUNT
    cards[rank] = count
    return tuple(cards)




def _wild_ranks(hand: Counts, rules: RuleSet) -> list[int]:
    """Wildcards in the order the bot spends them: the small joker first."""
    wilds = []
    if rules.small_joker_wild:
        wilds += [SMALL_JOKER] * hand[SMALL_JOKER]
    if rules.big_joker_wild:
        wilds += [BIG_JOKER] * hand[BIG_JOKER]
    return wilds


def _smallest_set(hand: Counts, need: int, current: Reading, rules: RuleSet) -> Counts | None:
    wilds = None  # counted when first needed: most sets are made of natural cards
    for rank in range(current.rank + 1, TWO + 1):
        have = hand[rank]
        if not have:
            continue
        if have >= need:
            return _only(rank, need)
        if wilds is None:
            wilds = wild_count(hand, rules)
        if have + wilds >= need:
            cards = list(_only(rank, have))
            for joker in _wild_ranks(hand, rules)[: need - have]:
                cards[joker] += 1
            return tuple(cards)
    # Jokers alone: singles and pairs of jokers, smallest first.
    options = []
    for small in range(hand[SMALL_JOKER] + 1):
        big = need - small
        if 0 <= big <= hand[BIG_JOKER]:
            reading = joker_only_reading(small, big, rules)
            if reading and reading.kind == current.kind and reading.rank > current.rank:
                options.append((reading.rank, big, small))
    if not options:
        return None
    _, big, small = min(options)
    cards = [0] * RANK_COUNT
    cards[SMALL_JOKER], cards[BIG_JOKER] = small, big
    return tuple(cards)


def _smallest_run(hand: Counts, width: int, length: int, above: int,
                  rules: RuleSet) -> Counts | None:
    wilds = _wild_ranks(hand, rules)
    # The cards each rank lacks for the run, worked out once for every place of it.
    short = [width - have if have < width else 0 for have in hand[:CHAIN_TOP + 1]]
    for start in range(max(0, above - length + 2), CHAIN_TOP - length + 2):
        missing = sum(short[start:start + length])
        if missing <= len(wilds):
            cards = [0] * RANK_COUNT
            for rank in range(start, start + length):
                cards[rank] = width - short[rank]
            for joker in wilds[:missing]:
                cards[joker] += 1
            # RULES §10: never a bomb. With four wildcards (tcy) a run of one natural
            # rank, or of triples missing a whole rank, reads as a bomb (§4.1).
            if reading_of(tuple(cards), rules).is_bomb:
                continue
            return tuple(cards)
    return None


def simple_player_move(hand: Counts, current: Reading | None, partner_winning: bool,
                       opponent_cards: int, rules: RuleSet, rng) -> Counts | None:
    """A livelier bot for the simulator and for bots at tables: it leads runs,
    pairs and triples of its lowest rank, and bombs an opponent who is winning
    the trick when that opponent is low on cards (or now and then)."""
    if current is None:
        return _lowest_group(hand, rules) or _smallest_single(hand)
    if partner_winning:
        return None
    if not current.is_bomb:
        same = trustee_move(hand, current, False, rules)
        if same is not None:
            return same
    if opponent_cards <= 8 or rng.random() < 0.3:
        return smallest_bomb(hand, current, rules)
    return None


def _lowest_group(hand: Counts, rules: RuleSet) -> Counts | None:
    """All copies of the lowest rank held fewer than four times, or a straight
    of five starting there when it is a lone card."""
    for rank in range(TWO + 1):
        count = hand[rank]
        if not count or count >= 4:
            continue
        if count == 1 and rank + 4 <= CHAIN_TOP and all(hand[r] for r in range(rank, rank + 5)):
            cards = [0] * RANK_COUNT
            for r in range(rank, rank + 5):
                cards[r] = 1
            return tuple(cards)
        return _only(rank, count)
    return None


def smallest_bomb(hand: Counts, current: Reading, rules: RuleSet) -> Counts | None:
    best = None
    for move in legal_moves(hand, current, rules):
        cards = unpack(move)
        reading = best_beating(cards, current, rules)
        if reading is not None and reading.is_bomb and (best is None or reading.power < best[0]):
            best = (reading.power, cards)
    return best[1] if best else None
