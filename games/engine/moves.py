"""Legal plays from a hand (RULES §3–§5), generated per pattern template.

A template is a pattern shape at a place: (type, cards per rank, run of ranks).
It is playable when the cards it lacks number at most the wildcards in hand.
Each playable template is expanded into the distinct sets of cards that fill
it: its natural cards, with up to the spare wildcards standing in for some of
them. Nothing enumerates sub-multisets of the hand or products over wildcard
ranks, so a 27-card hand with two wildcards stays fast.

Sets of cards are packed ints (see :func:`cards.pack`) so that building and
de-duplicating them is cheap; :func:`cards.unpack` gives the counts back.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations_with_replacement, product

from .cards import BIG_JOKER, NATURAL_RANKS, PACK_UNIT, SMALL_JOKER, TWO, Counts
from .patterns import (
    CHAIN_BOMB_LENGTHS,
    CHAIN_TOP,
    CHAINS,
    MIN_BOMB,
    PAIR,
    SET_SIZES,
    SINGLE,
    TRIPLE,
    Reading,
    beats,
    bomb_power,
    chain_bomb_windows,
    joker_only_reading,
)
from .rulesets import RuleSet

# One template: (ranks, cards needed per rank, keep the bottom rank natural).
Template = tuple[tuple[int, ...], int, bool]
_SINGLE_RANK = tuple((rank,) for rank in range(TWO + 1))


class _Hand:
    """A hand prepared for generation: counts, wildcards, and the packed jokers
    that can stand in for ``u`` missing cards (``wild_sets[u]``)."""

    __slots__ = ("counts", "wilds", "wild_sets", "size")

    def __init__(self, counts: Counts, rules: RuleSet) -> None:
        self.counts = counts
        self.size = sum(counts)
        small = counts[SMALL_JOKER] if rules.small_joker_wild else 0
        big = counts[BIG_JOKER] if rules.big_joker_wild else 0
        self.wilds = small + big
        self.wild_sets = [
            [s * PACK_UNIT[SMALL_JOKER] + (used - s) * PACK_UNIT[BIG_JOKER]
             for s in range(max(0, used - big), min(small, used) + 1)]
            for used in range(self.wilds + 1)
        ]


def legal_moves(hand: Counts, over: Reading | None, rules: RuleSet) -> list[int]:
    """Every distinct set of cards from ``hand`` that is a valid lead (``over`` is
    None) or that has a reading beating ``over``; as packed ints."""
    prepared = _Hand(hand, rules)
    found: set[int] = set()
    for item in _templates(prepared, over, rules):
        if isinstance(item, int):
            found.add(item)
        else:
            _expand(prepared, item, found)
    return list(found)


def has_beating_play(hand: Counts, over: Reading | None, rules: RuleSet) -> bool:
    """Whether ``legal_moves`` would be non-empty, without building the list
    (used for auto-pass, RULES §3)."""
    return next(_templates(_Hand(hand, rules), over, rules), None) is not None


def _expand(hand: _Hand, template: Template, found: set[int]) -> None:
    ranks, need, keep_bottom = template
    counts = hand.counts
    base = 0
    missing = 0
    removable: list[tuple[int, int]] = []  # (packed unit, how many may be swapped for wilds)
    for rank in ranks:
        have = counts[rank]
        used = need if have >= need else have
        missing += need - used
        base += used * PACK_UNIT[rank]
        if used:
            removable.append((PACK_UNIT[rank], used))
    if keep_bottom:
        unit, used = removable[0]
        removable[0] = (unit, used - 1)
    wild_sets = hand.wild_sets
    for wild in wild_sets[missing]:
        found.add(base + wild)
    for extra in range(1, hand.wilds - missing + 1):
        jokers = wild_sets[missing + extra]
        for removed in _removals(removable, extra):
            rest = base - removed
            for wild in jokers:
                found.add(rest + wild)


def _removals(removable: list[tuple[int, int]], count: int) -> Iterator[int]:
    """Packed sums of ``count`` natural cards to swap for wildcards, each rank
    giving at most its allowance."""
    if count == 1:
        for unit, allowed in removable:
            if allowed:
                yield unit
        return
    for picks in combinations_with_replacement(range(len(removable)), count):
        total = 0
        ok = True
        for index in set(picks):
            unit, allowed = removable[index]
            times = picks.count(index)
            if times > allowed:
                ok = False
                break
            total += unit * times
        if ok:
            yield total


def _templates(hand: _Hand, over: Reading | None, rules: RuleSet) -> Iterator[Template | int]:
    """Playable templates (and ready sets of cards, as ints) whose plays lead, or
    beat ``over``: when following, only the same type and size, and bombs above."""
    counts = hand.counts
    yield from _joker_plays(counts, over, rules)

    if over is None:
        for rank in range(TWO + 1):
            if counts[rank]:
                yield PACK_UNIT[rank]
        for kind in (PAIR, TRIPLE):
            yield from _fixed_sets(hand, kind, -1)
        for _kind, width, shortest in CHAINS:
            for length in range(shortest, CHAIN_TOP + 2):
                if length * width > hand.size:
                    break
                yield from _runs(hand, width, length, -1)
    elif not over.is_bomb:
        if over.kind in SET_SIZES:
            if over.kind == SINGLE:
                for rank in range(over.rank + 1, TWO + 1):
                    if counts[rank]:
                        yield PACK_UNIT[rank]
            else:
                yield from _fixed_sets(hand, over.kind, over.rank)
        else:
            width = next(width for kind, width, _ in CHAINS if kind == over.kind)
            yield from _runs(hand, width, over.length, over.rank)

    yield from _bombs(hand, over, rules)
    if rules.chain_bombs:
        if rules.irregular_chain_bombs:
            yield from _any_chain_bombs(hand, over, rules)
        else:
            yield from _regular_chain_bombs(hand, over, rules)


def _joker_plays(counts: Counts, over: Reading | None, rules: RuleSet) -> Iterator[int]:
    """Jokers played alone, which are themselves (RULES §4.1)."""
    for small in range(counts[SMALL_JOKER] + 1):
        for big in range(counts[BIG_JOKER] + 1):
            if small + big == 0:
                continue
            reading = joker_only_reading(small, big, rules)
            if reading and (over is None or beats(reading, over, rules)):
                yield small * PACK_UNIT[SMALL_JOKER] + big * PACK_UNIT[BIG_JOKER]


def _fixed_sets(hand: _Hand, kind: str, above: int) -> Iterator[Template]:
    need = SET_SIZES[kind]
    counts = hand.counts
    for rank in range(above + 1, TWO + 1):
        if counts[rank] and counts[rank] + hand.wilds >= need:
            yield _SINGLE_RANK[rank], need, True


def _runs(hand: _Hand, width: int, length: int, above: int) -> Iterator[Template]:
    """Straights, pairs or triples of ``length`` ranks topping above ``above``."""
    counts = hand.counts
    wilds = hand.wilds
    top_start = CHAIN_TOP + 1 - length
    for start in range(max(0, above - length + 2), top_start + 1):
        # A set that fits several runs is made once, from the highest run: a lower
        # run must hold its bottom rank (RULES §4.1, the largest reading).
        if start < top_start and not counts[start]:
            continue
        missing = 0
        for rank in range(start, start + length):
            if counts[rank] < width:
                missing += width - counts[rank]
                if missing > wilds:
                    break
        else:
            yield tuple(range(start, start + length)), width, start < top_start


def _bombs(hand: _Hand, over: Reading | None, rules: RuleSet) -> Iterator[Template]:
    """Bombs of one rank, 4 cards and up, that lead or beat ``over``."""
    counts = hand.counts
    wilds = hand.wilds
    current = over.power if over is not None and over.is_bomb else None
    cap = rules.max_stars
    for rank in range(TWO + 1):
        have = counts[rank]
        if not have or have + wilds < MIN_BOMB:
            continue
        for size in range(MIN_BOMB, have + wilds + 1):
            if current is None or bomb_power(
                rules, stars=min(size, cap), size=size, rank=rank) > current:
                yield _SINGLE_RANK[rank], size, True


def _regular_chain_bombs(hand: _Hand, over: Reading | None,
                         rules: RuleSet) -> Iterator[Template]:
    counts = hand.counts
    wilds = hand.wilds
    # Every rank of a chain bomb needs four cards with the wildcards' help: most hands
    # have no three such ranks, and then no window needs looking at.
    floor = MIN_BOMB - wilds
    if sum(1 for rank in NATURAL_RANKS if counts[rank] >= floor) < CHAIN_BOMB_LENGTHS[0]:
        return
    current = over.power if over is not None and over.is_bomb else None
    cap = rules.max_stars
    for ranks, top, group in chain_bomb_windows(rules):
        length = len(ranks)
        if length * MIN_BOMB > hand.size:
            continue
        each = MIN_BOMB
        while True:
            missing = 0
            for rank in ranks:
                if counts[rank] < each:
                    missing += each - counts[rank]
            if missing > wilds:
                break
            if current is None or bomb_power(
                rules, stars=min(each + length, cap), size=each * length, rank=top,
                group=group) > current:
                yield ranks, each, False
            each += 1


def _any_chain_bombs(hand: _Hand, over: Reading | None, rules: RuleSet) -> Iterator[int]:
    """tcy chain bombs, regular or irregular (RULES §9): every choice of natural
    cards per rank that the wildcards can lift to four or more each."""
    counts = hand.counts
    wilds = hand.wilds
    floor = max(0, MIN_BOMB - wilds)
    cap = rules.max_stars
    for ranks, top, group in chain_bomb_windows(rules):
        length = len(ranks)
        if any(counts[rank] < floor for rank in ranks):
            continue
        choices = [range(floor, counts[rank] + 1) for rank in ranks]
        for naturals in product(*choices):
            short = sum(MIN_BOMB - k for k in naturals if k < MIN_BOMB)
            if short > wilds:
                continue
            base = sum(k * PACK_UNIT[rank] for k, rank in zip(naturals, ranks))
            natural_total = sum(naturals)
            for used in range(short, wilds + 1):
                size = natural_total + used
                each, irregular = _chain_level(naturals, used, size)
                stars = min(each + length, cap)
                if over is not None:
                    if over.is_bomb:
                        if irregular and over.irregular and stars == over.stars:
                            continue
                        if bomb_power(rules, stars=stars, size=size, rank=top,
                                      group=group) <= over.power:
                            continue
                for wild in hand.wild_sets[used]:
                    yield base + wild


def _chain_level(naturals: tuple[int, ...], used: int, size: int) -> tuple[int, bool]:
    """Cards per rank a chain bomb counts as, and whether it is irregular."""
    length = len(naturals)
    if size % length == 0 and max(naturals) <= size // length:
        return size // length, False
    level = MIN_BOMB
    while sum(level + 1 - k for k in naturals if k <= level) <= used:
        level += 1
    return level, True

