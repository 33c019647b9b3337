"""A brute-force reader of plays, independent of ``games.engine.patterns``.

It follows RULES.md literally and is meant to be obviously right, not fast:

1. Jokers played alone are themselves (RULES §4 table, §4.1, §9).
2. Otherwise every joker must be a wildcard of the rule set, and each wildcard is
   tried as every rank 3…2 (§4.1). The resulting set of natural cards is read by
   the direct shape rules of §4 (and §9 for tcy's irregular chain bombs and
   jinyou's chain bombs through 2).
3. The readings are ordered by §5 (and §9); the largest ones are the answer.

When two readings are equally large under RULES (for example a tcy straight
and a tcy pairs chain with the same top rank), :func:`largest_readings` returns
all of them: RULES does not say which one is shown, so either is accepted.

Only the rank tokens come from the outside; counts are tuples of 15 numbers in
rank order 3 … 2, SJ, BJ, as in ``games.engine.cards``.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement

RANKS = ("3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "SJ", "BJ")
ACE, TWO, SJ, BJ = 11, 12, 13, 14
NATURALS = range(13)  # 3 … 2: what a wildcard may stand for

CHAIN_TYPES = {"straight", "pairs", "triples", "chain_bomb"}
BOMB_TYPES = {"bomb", "chain_bomb", "joker_bomb"}

# jinyou chain bombs holding a 2 (RULES §9): through 2 into 3 < ending at 2 < ordinary.
THROUGH_TWO, ENDS_AT_TWO, ORDINARY = 0, 1, 2


@dataclass(frozen=True)
class Play:
    """One reading of a set of cards."""

    type: str
    size: int
    rank: int | None = None  # None for joker_bomb
    length: int | None = None  # chains only
    stars: int | None = None  # bombs only
    irregular: bool = False  # tcy chain bomb with unequal counts
    group: int = ORDINARY  # jinyou chain bombs with a 2

    @property
    def is_bomb(self) -> bool:
        return self.type in BOMB_TYPES

    def protocol(self) -> dict:
        """The ``classify`` reply of RULES §11."""
        reply: dict = {"valid": True, "type": self.type, "size": self.size}
        if self.type != "joker_bomb":
            reply["rank"] = RANKS[self.rank]
        if self.type in CHAIN_TYPES:
            reply["length"] = self.length
        if self.is_bomb:
            reply["stars"] = self.stars
        return reply


def all_readings(counts: tuple[int, ...], rules) -> set[Play]:
    """Every reading of the cards under ``rules`` (empty: not a pattern)."""
    small, big = counts[SJ], counts[BJ]
    naturals = list(counts[:SJ])
    if not any(naturals):
        return _jokers_alone(small, big, rules)
    wild_small = small if "SJ" in rules.wildcards else 0
    wild_big = big if "BJ" in rules.wildcards else 0
    if wild_small + wild_big != small + big:
        return set()  # a joker that is not wild cannot go with other cards (§4.1)
    found: set[Play] = set()
    # Jokers are interchangeable here: only the multiset of ranks they stand for
    # changes the natural set, so each multiset is tried once.
    for stand_ins in combinations_with_replacement(NATURALS, small + big):
        filled = naturals[:]
        for rank in stand_ins:
            filled[rank] += 1
        found |= _natural_readings(filled, rules)
    return found


def _jokers_alone(small: int, big: int, rules) -> set[Play]:
    size = small + big
    if size == 1:
        return {Play("single", 1, BJ if big else SJ)}
    if size == 2:
        if small == 2:
            return {Play("pair", 2, SJ)}
        if big == 2:
            return {Play("pair", 2, BJ)}
        # SJ BJ: a wild joker stands for the other one (qq: pair of SJ; tcy: pair of BJ).
        pairs = set()
        if "BJ" in rules.wildcards:
            pairs.add(Play("pair", 2, SJ))
        if "SJ" in rules.wildcards:
            pairs.add(Play("pair", 2, BJ))
        return pairs
    if size == 3:
        return {Play("joker_bomb", 3, stars=6)} if rules.three_joker_bomb else set()
    if size == 4:
        return {Play("joker_bomb", 4, stars=7)}
    return set()


def _natural_readings(counts: list[int], rules) -> set[Play]:
    """Readings of a set of natural cards (3 … 2) by the shapes of RULES §4."""
    present = [rank for rank in NATURALS if counts[rank]]
    size = sum(counts)
    heights = [counts[rank] for rank in present]
    found: set[Play] = set()

    if len(present) == 1:
        rank = present[0]
        if size == 1:
            found.add(Play("single", 1, rank))
        elif size == 2:
            found.add(Play("pair", 2, rank))
        elif size == 3:
            found.add(Play("triple", 3, rank))
        else:
            found.add(Play("bomb", size, rank, stars=min(size, rules.max_stars)))
        return found

    length = len(present)
    consecutive = present == list(range(present[0], present[0] + length))
    if consecutive and present[-1] <= ACE and len(set(heights)) == 1:
        shortest = {1: 5, 2: 3, 3: 3}
        kind = {1: "straight", 2: "pairs", 3: "triples"}.get(heights[0])
        if kind and length >= shortest[heights[0]]:
            found.add(Play(kind, size, present[-1], length))

    if rules.chain_bombs and 3 <= length <= 6 and min(heights) >= 4:
        run = _chain_bomb_run(present, rules)
        if run is not None:
            last, group = run
            if len(set(heights)) == 1:
                found.add(Play("chain_bomb", size, last, length,
                               min(heights[0] + length, rules.max_stars), group=group))
            elif rules.irregular_chain_bombs:
                found.add(Play("chain_bomb", size, last, length,
                               min(min(heights) + length, rules.max_stars),
                               irregular=True, group=group))
    return found


def _chain_bomb_run(present: list[int], rules) -> tuple[int, int] | None:
    """(last rank of the run, group) if the ranks form a chain-bomb run."""
    length = len(present)
    if present[-1] <= ACE and present == list(range(present[0], present[0] + length)):
        return present[-1], ORDINARY
    if rules.chain_bombs_through_two and TWO in present:
        # jinyou: ranks run in the cycle 3 4 … K A 2 3 (RULES §9).
        for start in NATURALS:
            run = [(start + step) % 13 for step in range(length)]
            if sorted(run) == present:
                last = run[-1]
                return last, ENDS_AT_TWO if last == TWO else THROUGH_TWO
    return None


def order_key(play: Play, rules) -> tuple:
    """The size of a reading by RULES §5 and §9 (bigger is larger)."""
    if not play.is_bomb:
        return (0, play.rank)  # non-bombs: the higher top rank (§4.1)
    if play.type == "joker_bomb" and play.size == 4 and rules.heavenly_bomb == "top_of_all":
        return (2,)  # classic: 天王炸弹 beats every bomb
    if rules.bomb_order == "cards":  # classic: more cards, then rank
        return (1, play.size, play.rank if play.rank is not None else -1)
    if play.type == "joker_bomb":
        if play.size == 3:
            tier = 0  # 三王炸弹: the smallest 6-star
        else:
            tier = 2 if rules.heavenly_bomb == "top_of_seven" else 0
        return (1, play.stars, tier)
    # stars (more), then fewer cards, then (jinyou) the group, then the top rank.
    return (1, play.stars, 1, -play.size, play.group, play.rank)


def largest_readings(counts: tuple[int, ...], rules, plays: set[Play] | None = None) -> list[Play]:
    """The largest readings (usually one; several when RULES leaves a tie)."""
    plays = all_readings(counts, rules) if plays is None else plays
    if not plays:
        return []
    best = max(order_key(play, rules) for play in plays)
    return sorted((play for play in plays if order_key(play, rules) == best),
                  key=lambda play: (play.type, play.length or 0))


def beats(play: Play, current: Play, rules) -> bool:
    """Whether one reading beats another (RULES §5, §9)."""
    if not play.is_bomb:
        return (not current.is_bomb and play.type == current.type
                and play.size == current.size and play.rank > current.rank)
    if not current.is_bomb:
        return True
    if play.irregular and current.irregular and play.stars == current.stars:
        return False  # tcy: irregular chain bombs of equal stars never beat each other
    return order_key(play, rules) > order_key(current, rules)


def beating_readings(counts: tuple[int, ...], current: Play, rules) -> list[Play]:
    """The largest readings of the cards among those that beat ``current``."""
    return largest_readings(
        counts, rules, {play for play in all_readings(counts, rules) if beats(play, current, rules)}
    )
