"""``python -m games.engine.search_bench``: the strong bot's sampling speed.

Plays seeded games with the expert in every seat, keeps every 4th position, then
searches each with a fixed number of samples and no time limit. Prints the CPU time
and samples per second, and a fingerprint of every candidate's value: a change that
only makes the search faster keeps the fingerprint (docs/engine.md, "Budget").
"""

from __future__ import annotations

import argparse
import hashlib
from time import thread_time

from .ai import decide, position_from_game
from .cards import Counts
from .game import Game
from .position import Position
from .presets import PRESETS
from .search import search

_EVERY = 4
_NO_LIMIT_MS = 10 ** 9


def positions_and_hands(ruleset: str, games: int, seed: str,
                        bot: str = "expert") -> list[tuple[Position, list[Counts]]]:
    """Every 4th position of ``games`` seeded games of ``bot`` in every seat, with every
    seat's true hand then."""
    rules = PRESETS[ruleset]
    found = []
    for index in range(games):
        game = Game.deal(rules, list(range(rules.players)), f"{seed}:{index}")
        step = 0
        while game.status == "playing":
            seat = game.turn
            position = position_from_game(game, seat)
            if step % _EVERY == 0:
                found.append((position, list(game.counts)))
            action = decide(position, bot=bot)
            step += 1
            if action == "pass":
                game.pass_turn(seat, by="bot")
            else:
                game.play(seat, action, by="bot")
    return found


def positions(ruleset: str, games: int, seed: str) -> list[Position]:
    """Every 4th position of ``games`` seeded expert games."""
    return [position for position, _ in positions_and_hands(ruleset, games, seed)]


def run(ruleset: str = "qq", games: int = 6, samples: int = 12, seed: str = "sp") -> dict:
    searched = positions(ruleset, games, seed)
    fingerprint = hashlib.sha256()
    done = 0
    started = thread_time()
    for index, position in enumerate(searched):
        report = search(position, seed=index, budget_ms=_NO_LIMIT_MS, max_samples=samples)
        done += report["samples"]
        fingerprint.update(repr(sorted(report["values"].items())).encode())
    seconds = thread_time() - started
    return {"ruleset": ruleset, "positions": len(searched), "samples": done,
            "cpu_seconds": round(seconds, 3),
            "samples_per_second": round(done / seconds, 1) if seconds else None,
            "fingerprint": fingerprint.hexdigest()[:16]}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m games.engine.search_bench",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="qq", choices=list(PRESETS))
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--samples", type=int, default=12, help="samples per position")
    parser.add_argument("--seed", default="sp")
    args = parser.parse_args(argv)
    if args.games < 1 or args.samples < 1:
        parser.error("--games and --samples must be at least 1")
    report = run(args.ruleset, args.games, args.samples, args.seed)
    print(f"{report['positions']} positions of {args.games} {args.ruleset} expert games, "
          f"{args.samples} samples each: {report['samples']} samples in "
          f"{report['cpu_seconds']} s CPU, {report['samples_per_second']} samples/s, "
          f"fingerprint {report['fingerprint']}")


if __name__ == "__main__":
    main()
