"""Reading a set of cards as a pattern (RULES §4) and ordering readings (§5, §9).

A set of cards can have several readings when wildcards are in it. Every
reading carries ``power``, a tuple that orders readings: for bombs it is the
bomb order of the rule set; for non-bombs it only matters when choosing the
largest reading of one set of cards (higher top rank wins, RULES §4.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .cards import ACE, BIG_JOKER, RANK_TOKENS, SMALL_JOKER, TWO, Counts
from .rulesets import RuleSet

SINGLE, PAIR, TRIPLE = "single", "pair", "triple"
STRAIGHT, PAIRS, TRIPLES = "straight", "pairs", "triples"
BOMB, CHAIN_BOMB, JOKER_BOMB = "bomb", "chain_bomb", "joker_bomb"
BOMB_TYPES = frozenset((BOMB, CHAIN_BOMB, JOKER_BOMB))
CHAIN_TYPES = frozenset((STRAIGHT, PAIRS, TRIPLES, CHAIN_BOMB))

# Cards in a single, a pair and a triple.
SET_SIZES = {SINGLE: 1, PAIR: 2, TRIPLE: 3}
# Chains of singles, pairs and triples: (type, cards per rank, shortest length).
CHAINS: tuple[tuple[str, int, int], ...] = ((STRAIGHT, 1, 5), (PAIRS, 2, 3), (TRIPLES, 3, 3))
CHAIN_WIDTH = {kind: width for kind, width, _ in CHAINS}
CHAIN_BOMB_LENGTHS = range(3, 7)  # X相Y连环炸弹: 3 ≤ Y ≤ 6
MIN_BOMB = 4
CHAIN_TOP = ACE  # ordinary chains run 3 … A

# Where a bomb sits among bombs of its star level (RULES §5 special places).
TIER_LOWEST, TIER_NORMAL, TIER_HIGHEST = 0, 1, 2
# jinyou chain bombs holding a 2 (RULES §9): through 2 into 3 < ending at 2 < ordinary.
GROUP_THROUGH_TWO, GROUP_ENDS_AT_TWO, GROUP_ORDINARY = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a set of cards as a pattern."""

    kind: str
    size: int
    rank: int  # top rank index; for a jinyou chain through 2, the run's last rank
    length: int = 1  # distinct ranks
    stars: int = 0  # bombs only
    irregular: bool = False  # tcy chain bomb with unequal counts
    group: int = GROUP_ORDINARY
    tier: int = TIER_NORMAL
    filled: tuple[int, ...] = ()  # ranks the wildcards stand for, ascending
    power: tuple = ()
    # Worked out once, when the reading is made: the playouts ask at every move.
    is_bomb: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_bomb", self.kind in BOMB_TYPES)

    def to_protocol(self) -> dict:
        """The reply fields of RULES §11 ``classify``."""
        reply: dict = {"valid": True, "type": self.kind, "size": self.size}
        if self.kind != JOKER_BOMB:
            reply["rank"] = RANK_TOKENS[self.rank]
        if self.kind in CHAIN_TYPES:
            reply["length"] = self.length
        if self.is_bomb:
            reply["stars"] = self.stars
        return reply

    def describe_wildcards(self, cards: Counts, rules: RuleSet) -> str:
        """What each wildcard stands for, e.g. ``"BJ as 9"`` (RULES §4.1)."""
        jokers = [BIG_JOKER] * cards[BIG_JOKER] + [SMALL_JOKER] * cards[SMALL_JOKER]
        if not self.filled:
            return ""
        if self.kind == PAIR and self.rank >= SMALL_JOKER:
            wild = BIG_JOKER if self.rank == SMALL_JOKER else SMALL_JOKER
            jokers = [wild]
        else:
            jokers = [joker for joker in jokers if RANK_TOKENS[joker] in rules.wildcards]
        return ", ".join(
            f"{RANK_TOKENS[joker]} as {RANK_TOKENS[rank]}"
            for joker, rank in zip(jokers, self.filled)
        )


def bomb_power(rules: RuleSet, *, stars: int, size: int, rank: int,
               tier: int = TIER_NORMAL, group: int = GROUP_ORDINARY) -> tuple:
    """The order of bombs under a rule set (RULES §5 and §9)."""
    if rules.bomb_order == "cards":
        return (1, size, tier, group, rank)
    return (1, stars, tier, -size, group, rank)


def _make_bomb(rules: RuleSet, kind: str, size: int, rank: int, stars: int, length: int = 1,
               irregular: bool = False, group: int = GROUP_ORDINARY,
               filled: tuple[int, ...] = ()) -> Reading:
    stars = min(stars, rules.max_stars)
    return Reading(kind, size, rank, length, stars, irregular, group, TIER_NORMAL, filled,
                   bomb_power(rules, stars=stars, size=size, rank=rank, group=group))


def _non_bomb(kind: str, size: int, rank: int, length: int = 1,
              filled: tuple[int, ...] = ()) -> Reading:
    return Reading(kind, size, rank, length, filled=filled, power=(0, rank, length))


def joker_bomb(rules: RuleSet, size: int) -> Reading | None:
    """三王炸弹 (3 jokers) and 天王炸弹 (all 4): their special places of §5/§9."""
    if size == 3:
        if not rules.three_joker_bomb:
            return None
        stars, tier = 6, TIER_LOWEST  # the smallest 6-star
    else:
        stars = 7
        tier = {"top_of_seven": TIER_HIGHEST, "bottom_of_seven": TIER_LOWEST,
                "top_of_all": TIER_HIGHEST}[rules.heavenly_bomb]
        if rules.heavenly_bomb == "top_of_all":
            return Reading(JOKER_BOMB, 4, BIG_JOKER, 1, 7, tier=tier, power=(2,))
    return Reading(JOKER_BOMB, size, BIG_JOKER, 1, stars, tier=tier,
                   power=bomb_power(rules, stars=stars, size=size, rank=BIG_JOKER, tier=tier))


def joker_only_reading(small: int, big: int, rules: RuleSet) -> Reading | None:
    """Jokers played alone are themselves (RULES §4.1 and §9)."""
    size = small + big
    if size == 1:
        return _non_bomb(SINGLE, 1, BIG_JOKER if big else SMALL_JOKER)
    if size == 2:
        if small == 2 or big == 2:
            return _non_bomb(PAIR, 2, BIG_JOKER if big else SMALL_JOKER)
        if rules.small_joker_wild:  # tcy: SJ BJ is a pair of BJ
            return _non_bomb(PAIR, 2, BIG_JOKER, filled=(BIG_JOKER,))
        if rules.big_joker_wild:  # qq, jinyou: SJ BJ is a pair of SJ
            return _non_bomb(PAIR, 2, SMALL_JOKER, filled=(SMALL_JOKER,))
        return None
    if size in (3, 4):
        return joker_bomb(rules, size)
    return None


def chain_bomb_windows(rules: RuleSet) -> list[tuple[tuple[int, ...], int, int]]:
    """Every run of ranks a chain bomb may use: (ranks, rank, group)."""
    key = rules.chain_bombs_through_two
    windows = _WINDOW_CACHE.get(key)
    if windows is None:  # built once per kind: this is on every reading's path
        windows = _WINDOW_CACHE[key] = _windows(rules)
    return windows


def _windows(rules: RuleSet) -> list[tuple[tuple[int, ...], int, int]]:
    windows = []
    for length in CHAIN_BOMB_LENGTHS:
        for start in range(CHAIN_TOP - length + 2):
            ranks = tuple(range(start, start + length))
            windows.append((ranks, ranks[-1], GROUP_ORDINARY))
        if rules.chain_bombs_through_two:
            # The cycle 3 … A 2 3: runs that hold the 2 (RULES §9 jinyou).
            for start in range(TWO - length + 1, TWO + 1):
                ranks = tuple((start + i) % (TWO + 1) for i in range(length))
                group = GROUP_ENDS_AT_TWO if ranks[-1] == TWO else GROUP_THROUGH_TWO
                windows.append((ranks, ranks[-1], group))
    return windows


_WINDOW_CACHE: dict[bool, list] = {}


def wild_count(cards: Counts, rules: RuleSet) -> int:
    return (cards[BIG_JOKER] if rules.big_joker_wild else 0) + (
        cards[SMALL_JOKER] if rules.small_joker_wild else 0)


def readings(cards: Counts, rules: RuleSet) -> list[Reading]:
    """Every useful reading of a set of cards: for each pattern and run of ranks,
    the largest way to place the wildcards. Empty when the cards are no pattern."""
    size = sum(cards)
    if size == 0:
        return []
    naturals = [rank for rank in range(TWO + 1) if cards[rank]]
    if not naturals:
        reading = joker_only_reading(cards[SMALL_JOKER], cards[BIG_JOKER], rules)
        return [reading] if reading else []
    wilds = wild_count(cards, rules)
    if wilds != cards[SMALL_JOKER] + cards[BIG_JOKER]:
        return []  # a joker that is not wild cannot join other cards
    low, high = naturals[0], naturals[-1]
    most = max(cards[rank] for rank in naturals)
    found: list[Reading] = []

    if len(naturals) == 1:
        rank = low
        filled = (rank,) * wilds
        if size == 1:
            found.append(_non_bomb(SINGLE, 1, rank))
        elif size == 2:
            found.append(_non_bomb(PAIR, 2, rank, filled=filled))
        elif size == 3:
            found.append(_non_bomb(TRIPLE, 3, rank, filled=filled))
        else:
            found.append(_make_bomb(rules, BOMB, size, rank, size, filled=filled))

    if high <= CHAIN_TOP:
        for kind, width, shortest in CHAINS:
            if size % width or most > width:
                continue
            length = size // width
            start = min(low, CHAIN_TOP + 1 - length)  # the highest run that fits (§4.1)
            if length < shortest or start < 0 or start + length - 1 < high:
                continue
            ranks = range(start, start + length)
            filled = tuple(r for r in ranks for _ in range(width - cards[r]))
            found.append(_non_bomb(kind, size, start + length - 1, length, filled))

    # A run of ranks holds at most six: more ranks held are no chain bomb (and many
    # hands asked about are no pattern at all).
    if rules.chain_bombs and size >= MIN_BOMB * CHAIN_BOMB_LENGTHS[0] \
            and len(naturals) <= CHAIN_BOMB_LENGTHS[-1]:
        present = set(naturals)
        for ranks, top, group in chain_bomb_windows(rules):
            if not present.issubset(ranks):
                continue
            reading = _chain_bomb(cards, rules, ranks, top, group, size, wilds)
            if reading:
                found.append(reading)
    return found


def _chain_bomb(cards: Counts, rules: RuleSet, ranks: tuple[int, ...], top: int, group: int,
                size: int, wilds: int) -> Reading | None:
    length = len(ranks)
    counts = [cards[r] for r in ranks]
    if size % length == 0:
        each = size // length
        if each >= MIN_BOMB and max(counts) <= each:
            filled = tuple(sorted(r for r, c in zip(ranks, counts) for _ in range(each - c)))
            return _make_bomb(rules, CHAIN_BOMB, size, top, each + length, length,
                              group=group, filled=filled)
    if not rules.irregular_chain_bombs:
        return None
    # tcy: unequal counts ≥ 4 count as the smallest; wildcards raise the smallest first.
    if sum(max(0, MIN_BOMB - c) for c in counts) > wilds:
        return None
    level = MIN_BOMB
    while sum(max(0, level + 1 - c) for c in counts) <= wilds:
        level += 1
    raised = [max(c, level) for c in counts]
    spare = wilds - sum(r - c for r, c in zip(raised, counts))
    for index in range(length):  # leftover wildcards go to the top ranks at the floor
        position = length - 1 - index
        if spare and raised[position] == level:
            raised[position] += 1
            spare -= 1
    raised[-1] += spare
    filled = tuple(sorted(r for r, new, c in zip(ranks, raised, counts) for _ in range(new - c)))
    return _make_bomb(rules, CHAIN_BOMB, size, top, level + length, length,
                      irregular=True, group=group, filled=filled)


def classify(cards: Counts, rules: RuleSet) -> Reading | None:
    """The largest reading (RULES §4.1), or None if the cards are no pattern."""
    found = readings(cards, rules)
    return max(found, key=_order) if found else None


def beats(play: Reading, current: Reading, rules: RuleSet) -> bool:
    """Whether ``play`` beats ``current`` (RULES §5)."""
    if not play.is_bomb:
        return (not current.is_bomb and play.kind == current.kind
                and play.size == current.size and play.rank > current.rank)
    if not current.is_bomb:
        return True
    if play.irregular and current.irregular and play.stars == current.stars:
        return False  # tcy: irregular chain bombs of the same stars never beat each other
    return play.power > current.power


def best_beating(cards: Counts, current: Reading | None, rules: RuleSet) -> Reading | None:
    """The reading recorded for a play: the largest overall when leading, else the
    largest of those that beat ``current`` (RULES §4.1). None if none does."""
    return best_reading(readings(cards, rules), current, rules)


def best_reading(found: Sequence[Reading], current: Reading | None,
                 rules: RuleSet) -> Reading | None:
    """:func:`best_beating` of a set of cards whose :func:`readings` are ``found``
    (the playouts keep the readings of the cards they have seen)."""
    if current is not None:
        found = [reading for reading in found if beats(reading, current, rules)]
    return max(found, key=_order) if found else None


def _order(reading: Reading) -> tuple:
    # Bombs above non-bombs; a regular chain bomb above an irregular one of equal power.
    return (reading.power, not reading.irregular)
