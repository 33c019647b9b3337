"""``python -m games.engine.bench``: speed of reading and generating plays.

Deals seeded random 27-card hands from two decks and times, per operation:
classifying a played set, all moves when leading, all moves beating a random
play, and ``has_beating_play``. Prints median and p99 in microseconds.
Targets (RULES-independent, from the foundation issue) on one core: leading
≤ 2 ms median, following ≤ 0.5 ms, has_beating_play ≤ 50 µs.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Callable
from time import perf_counter_ns

from .cards import BIG_JOKER, FULL_DECK, Counts, counts_of, unpack
from .moves import has_beating_play, legal_moves
from .patterns import classify
from .presets import PRESETS

HAND_SIZE = 27


BIG_JOKERS = [card for card in FULL_DECK if card.rank == BIG_JOKER]
NO_BIG_JOKERS = [card for card in FULL_DECK if card.rank != BIG_JOKER]


def deal_hand(rng: random.Random, both_big_jokers: bool = False) -> Counts:
    """A random hand; with ``both_big_jokers`` it holds the two wildcards of qq."""
    if both_big_jokers:
        return counts_of(rng.sample(NO_BIG_JOKERS, HAND_SIZE - 2) + BIG_JOKERS)
    return counts_of(rng.sample(FULL_DECK, HAND_SIZE))


def _time(function: Callable[..., object], *args: object) -> float:
    start = perf_counter_ns()
    function(*args)
    return (perf_counter_ns() - start) / 1000


def run(ruleset: str, hands: int, seed: int, both_big_jokers: bool) -> dict[str, list[float]]:
    rules = PRESETS[ruleset]
    rng = random.Random(seed)
    timings: dict[str, list[float]] = {
        "classify": [], "moves_leading": [], "moves_following": [], "has_beating_play": [],
    }
    for _ in range(hands):
        hand = deal_hand(rng, both_big_jokers)
        played = unpack(rng.choice(legal_moves(deal_hand(rng), None, rules)))
        over = classify(played, rules)
        timings["classify"].append(_time(classify, played, rules))
        timings["moves_leading"].append(_time(legal_moves, hand, None, rules))
        timings["moves_following"].append(_time(legal_moves, hand, over, rules))
        timings["has_beating_play"].append(_time(has_beating_play, hand, over, rules))
    return timings


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="qq", choices=[*PRESETS, "all"])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    names = list(PRESETS) if args.ruleset == "all" else [args.ruleset]
    for name in names:
        for both_big_jokers in (False, True):
            timings = run(name, args.hands, args.seed, both_big_jokers)
            kind = "holding both BJ" if both_big_jokers else "random"
            print(f"ruleset {name}: {args.hands} {kind} {HAND_SIZE}-card hands, seed {args.seed}")
            print(f"  {'operation':<18} {'median µs':>10} {'p99 µs':>10}")
            for op, values in timings.items():
                print(f"  {op:<18} {statistics.median(values):>10.1f} {_p99(values):>10.1f}")


if __name__ == "__main__":
    main()
