#!/usr/bin/env python
"""Seconds per game of the replay analysis, as one Celery worker spends them.

    python scripts/bench_analysis.py [--games 5] [--ruleset qq] [--seed 1]
                                     [--move-ms 500] [--game-seconds 45] [--seats 4]

Analyses the engine's seeded sample games (games.engine.sample_games: bots playing
``by`` "player", with timeouts, 托管 and escapes) with analysis.compute.analyse_log,
the task's own code, without the database: every decision of the first ``--seats``
seats (4: the worst case, a table of people). The budgets default to the settings'
(ANALYSIS_MOVE_BUDGET_MS, ANALYSIS_GAME_SECONDS). Prints one line per game (moves
analysed, forced, marks, wall and CPU seconds) and the means and maxima: on a machine
busy with other work the wall seconds include waiting for a core, the CPU seconds are
what a worker of its own would take. The issue asks for
≤ 60 s a game; prefix with ``nice -n 19`` on a shared machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis.compute import Budget, Thresholds, analyse_log, decisions  # noqa: E402
from games.engine.sample_games import sample_log  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--ruleset", default="qq")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--move-ms", type=int, default=500)
    parser.add_argument("--game-seconds", type=float, default=45.0)
    parser.add_argument("--seats", type=int, default=4, help="seats analysed: 0 … n-1")
    args = parser.parse_args(argv)
    budget = Budget(move_ms=args.move_ms, game_seconds=args.game_seconds)
    thresholds = Thresholds(doubtful=1.0, bad=3.0)
    seconds, cpus = [], []
    print(f"ruleset={args.ruleset} move_ms={args.move_ms} game_seconds={args.game_seconds} "
          f"seats={args.seats}")
    for seed in range(args.seed, args.seed + args.games):
        events = [event for event in sample_log(args.ruleset, seed)
                  if event["type"] != "settled"]
        seats = list(range(args.seats))
        started, cpu = time.perf_counter(), time.process_time()
        outcome = analyse_log(events, seats, budget=budget, thresholds=thresholds, seed=seed)
        took, cpu = time.perf_counter() - started, time.process_time() - cpu
        seconds.append(took)
        cpus.append(cpu)
        marks = {mark: sum(move["mark"] == mark for move in outcome.moves)
                 for mark in ("ok", "?", "??")}
        print(f"seed={seed} decisions={len(decisions(events, seats))} "
              f"analysed={len(outcome.moves)} forced={sum(outcome.forced.values())} "
              f"marks={marks} budget_given_ms={outcome.budget_used_ms} seconds={took:.1f} "
              f"cpu_seconds={cpu:.1f}")
    print(f"games={len(seconds)} mean_seconds={statistics.fmean(seconds):.1f} "
          f"max_seconds={max(seconds):.1f} mean_cpu_seconds={statistics.fmean(cpus):.1f} "
          f"max_cpu_seconds={max(cpus):.1f}")


if __name__ == "__main__":
    main()
