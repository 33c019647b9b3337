"""Who sits where in a round (pure). Round 1 in a shuffled order; later rounds by the
standings (Swiss): the table at the top takes the first four, and so on. At a table
of four the partnerships (seats 0 and 2, 1 and 3) are the split that repeats the
fewest earlier partnerships, the strongest with the weakest among equals."""

from __future__ import annotations

import random
from collections.abc import Iterable

# The three ways to split four players a, b, c, d into two partnerships, as seatings
# (seat 0 partners seat 2, seat 1 partners seat 3): a+d, a+c, a+b. a+d first: the
# strongest with the weakest when nothing else decides.
SPLITS_OF_FOUR = ((0, 1, 3, 2), (0, 1, 2, 3), (0, 2, 1, 3))


def partners_of(seating: list[int]) -> set[frozenset[int]]:
    """The partnerships at a table (four seats: 0+2 and 1+3; two seats: none)."""
    if len(seating) != 4:
        return set()
    return {frozenset((seating[0], seating[2])), frozenset((seating[1], seating[3]))}


def first_round(users: list[int], per_table: int, seed: str) -> list[list[int]]:
    order = list(users)
    random.Random(f"{seed}:pairing").shuffle(order)
    return [order[start:start + per_table] for start in range(0, len(order), per_table)]


def swiss_round(ranked: list[int], per_table: int,
                earlier: Iterable[frozenset[int]]) -> list[list[int]]:
    """Tables for the next round from the standings ``ranked`` (best first), given
    the partnerships of earlier rounds."""
    seen = set(earlier)
    tables = []
    for start in range(0, len(ranked), per_table):
        group = ranked[start:start + per_table]
        if per_table != 4:
            tables.append(group)
            continue
        best = min(SPLITS_OF_FOUR, key=lambda split: sum(
            1 for pair in partners_of([group[index] for index in split]) if pair in seen))
        tables.append([group[index] for index in best])
    return tables
