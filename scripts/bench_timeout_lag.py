#!/usr/bin/env python
"""How late the sweeper claims expired turns (turn timeouts and bots' moves), without
and then with replay analyses running, in one sitting on one stack.

    python scripts/bench_timeout_lag.py [--games 4] [--analyses 4] [--seconds 90]
                                        [--analyses-on-live-queue]

Starts its own stack (scripts/stack.py: a fresh database, a private redis-server, the
Celery workers and beat as the units in deploy/ run them; no web process is needed).
Each phase deals ``--games`` fresh games in a room with 5 s turns, each with one person
who never plays (their turns time out until the seat goes to 托管) and three bots (each
bot move is a deadline the sweeper claims too), and measures for ``--seconds``; phase 2
first queues ``--analyses`` analyses of stored sample games (up to ANALYSIS_GAME_SECONDS
each). The lags are the live worker's own ``sweep-lag`` timing lines (games.live.timing:
deadline to claim), those of the timeouts apart. ``--analyses-on-live-queue`` routes the analyses
to the on-time queue (SLOW_TASK_QUEUE=celery): the layout before the queues were split.
Prints one line per phase and the worst timeout lags' ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from stack import Stack, add_stack_arguments, log  # noqa: E402

SETUP = """
import json
from games.testing.room_helpers import make_player, make_room
from games.testing.stored_games import stored_game
make_room("bench live", turn_seconds=5, first_turn_seconds=5)
slow = make_room("bench analysed")
users = [make_player(f"analysed-{{i}}") for i in range(4)]
stored = [stored_game(slow, users, seed=seed, settled=True).pk for seed in range(1, {analyses} + 1)]
print(json.dumps(stored))
"""

DEAL = """
import json
from games.models import Room
from games.testing.room_helpers import make_player, start_game_with_bots
live = Room.objects.get(name="bench live")
print(json.dumps([start_game_with_bots(make_player(f"bench-{phase}-{{i}}"), live).pk
                  for i in range({games})]))
"""

ANALYSE = """
from analysis.services import analysis_request
from games.models import GameRecord
for pk in {stored}:
    analysis_request(record=GameRecord.objects.get(pk=pk), user=None, auto=True)
"""


def claims(log_path: str, games: list[int]) -> dict[tuple[int, int], float]:
    """(game, seq) → seconds late, of every sweep-lag line the worker wrote for
    ``games``."""
    found = {}
    with open(log_path, errors="replace") as handle:
        for line in handle:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and record.get("what") == "sweep-lag" \
                    and record["game"] in games:
                found[(record["game"], record["seq"])] = float(record["ms"]) / 1000
    return found


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--analyses", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=90)
    parser.add_argument("--analyses-on-live-queue", action="store_true")
    add_stack_arguments(parser, web_ports=[8290, 8291], redis_port=6402)
    args = parser.parse_args(argv)
    extra = {"GAMES_BOT_FILL_SECONDS": "0", "GAMES_TIMING_LOG_LEVEL": "INFO",
             "ANALYSIS_AUTO_COIN_GAMES": "0"}
    if args.analyses_on_live_queue:
        extra["SLOW_TASK_QUEUE"] = "celery"
    args.worker_log_level = "INFO"
    stack = Stack(args, name="tlag", extra_env=extra)
    try:
        stack.create_database()
        for argv_ in (["migrate", "--noinput"], ["load_presets"]):
            done = stack.manage(*argv_)
            if done.returncode:
                raise RuntimeError(f"manage.py {argv_[0]}:\n{done.stderr[-2000:]}")
        for name in ("worker", "slow", "beat"):
            stack.start(name)
        made = stack.manage("shell", "-c", SETUP.format(analyses=args.analyses))
        if made.returncode:
            raise RuntimeError(f"setup failed:\n{made.stderr[-3000:]}")
        stored = json.loads(made.stdout.strip().splitlines()[-1])
        worker_log = os.path.join(stack.dir, "worker.log")
        results = []
        for number, phase in enumerate(("without analyses", f"with {args.analyses} analyses")):
            if number:
                queued = stack.manage("shell", "-c", ANALYSE.format(stored=stored))
                if queued.returncode:
                    raise RuntimeError(f"queueing failed:\n{queued.stderr[-3000:]}")
            dealt = stack.manage("shell", "-c", DEAL.format(phase=number, games=args.games))
            if dealt.returncode:
                raise RuntimeError(f"dealing failed:\n{dealt.stderr[-3000:]}")
            games = json.loads(dealt.stdout.strip().splitlines()[-1])
            log(f"measuring {phase} for {args.seconds:.0f} s")
            time.sleep(args.seconds)
            found = claims(worker_log, games)
            # A timeout is the step right after the claim of its turn (seq + 1).
            timed_out = {(game, seq - 1) for game, seq in stack.sql(
                "SELECT game_id, seq FROM games_gameevent WHERE type = 'timeout' AND "
                "game_id = ANY(%s)", (games,))}
            timeouts = [lag for key, lag in found.items() if key in timed_out]
            every = list(found.values())
            analysed = stack.sql("SELECT status, count(*) FROM analysis_gameanalysis "
                                 "GROUP BY status")
            results.append((phase, timeouts))
            print(f"{phase}: timeouts {len(timeouts)} (of {len(timed_out)}), lag p50 "
                  f"{quantile(timeouts, 0.5):.3f} s, max {max(timeouts, default=0):.3f} s; "
                  f"every claim (bots' moves too) {len(every)}, p50 {quantile(every, 0.5):.3f}"
                  f" s, p95 {quantile(every, 0.95):.3f} s, max {max(every, default=0):.3f} s;"
                  f" analyses {dict(analysed)}", flush=True)
        (_, base), (_, loaded) = results
        layout = "on the live queue" if args.analyses_on_live_queue else "on the slow queue"
        worst = max(loaded, default=float("inf"))
        print(f"analyses {layout}: worst timeout lag with/without analyses "
              f"{worst:.3f} / {max(base, default=0):.3f} s = "
              f"{worst / max(max(base, default=0), 1e-3):.2f}×; "
              f"{'PASS' if worst < 1.0 else 'FAIL'} (each timeout within 1 s of its "
              f"deadline while the analyses ran)", flush=True)
    finally:
        stack.cleanup()


if __name__ == "__main__":
    main()
