#!/usr/bin/env python
"""How late the sweeper claims expired turns (turn timeouts and bots' moves), without
and then with replay analyses running, in one sitting on one stack.

    python scripts/bench_timeout_lag.py [--games 4] [--analyses 4] [--seconds 90]
                                        [--analyses-on-live-queue]

Starts its own stack (scripts/stack.py: a fresh database, a private redis-server, the
Celery workers and beat as the units in deploy/ run them; no web process is needed).
Deals ``--games`` games in a room with 5 s turns, each with one person who never plays
(so each of their turns times out) and three bots (each bot move is a deadline the
sweeper claims too). Phase 1 measures for ``--seconds``; phase 2 queues ``--analyses``
analyses of stored sample games (the worker spends up to ANALYSIS_GAME_SECONDS on each)
and measures as long again. The lags are the workers' own ``sweep-lag`` timing lines
(games.live.timing: deadline to claim). ``--analyses-on-live-queue`` routes the analyses
to the on-time queue (SLOW_TASK_QUEUE=celery): the layout before the queues were split.
Prints one line per phase (claims, timeouts, p50/p95/max lag) and the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from datetime import datetime

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from stack import Stack, add_stack_arguments, log  # noqa: E402

SETUP = """
import json
from django.contrib.auth import get_user_model
from games.models import Room
from games.testing.room_helpers import make_player, make_room, start_game_with_bots
from games.testing.stored_games import stored_game
live = make_room("bench live", turn_seconds=5, first_turn_seconds=5)
games = [start_game_with_bots(make_player(f"bench-{{i}}"), live).pk for i in range({games})]
slow = make_room("bench analysed")
users = [make_player(f"analysed-{{i}}") for i in range(4)]
stored = [stored_game(slow, users, seed=seed, settled=True).pk for seed in range(1, {analyses} + 1)]
print(json.dumps({{"games": games, "stored": stored}}))
"""

ANALYSE = """
from analysis.services import analysis_request
from games.models import GameRecord
for pk in {stored}:
    analysis_request(record=GameRecord.objects.get(pk=pk), user=None, auto=True)
"""


def lags(log_path: str, since: float) -> list[float]:
    """Seconds of every sweep-lag line the worker wrote after ``since`` (POSIX time)."""
    found = []
    with open(log_path, errors="replace") as handle:
        for line in handle:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if record.get("what") != "sweep-lag":
                continue
            if datetime.fromisoformat(record["time"]).timestamp() >= since:
                found.append(float(record["ms"]) / 1000)
    return found


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
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
        made = stack.manage("shell", "-c", SETUP.format(games=args.games,
                                                         analyses=args.analyses))
        if made.returncode:
            raise RuntimeError(f"setup failed:\n{made.stderr[-3000:]}")
        plan = json.loads(made.stdout.strip().splitlines()[-1])
        worker_log = os.path.join(stack.dir, "worker.log")
        results = []
        for phase in ("without analyses", f"with {args.analyses} analyses"):
            if phase.startswith("with "):
                queued = stack.manage("shell", "-c", ANALYSE.format(stored=plan["stored"]))
                if queued.returncode:
                    raise RuntimeError(f"queueing failed:\n{queued.stderr[-3000:]}")
            began = time.time()
            log(f"measuring {phase} for {args.seconds:.0f} s")
            time.sleep(args.seconds)
            found = lags(worker_log, began)
            timeouts = stack.sql(
                "SELECT count(*) FROM games_gameevent WHERE type = 'timeout' AND "
                "game_id = ANY(%s) AND created_at >= to_timestamp(%s)",
                (plan["games"], began))[0][0]
            analysed = stack.sql("SELECT status, count(*) FROM analysis_gameanalysis "
                                 "GROUP BY status")
            results.append((phase, found))
            print(f"{phase}: claims {len(found)}, timeouts {timeouts}, lag p50 "
                  f"{quantile(found, 0.5):.3f} s, p95 {quantile(found, 0.95):.3f} s, max "
                  f"{max(found, default=float('nan')):.3f} s; analyses {dict(analysed)}",
                  flush=True)
        (_, base), (_, loaded) = results
        layout = "on the live queue" if args.analyses_on_live_queue else "on the slow queue"
        print(f"analyses {layout}: max lag with/without "
              f"{max(loaded, default=0) / max(max(base, default=0), 1e-3):.2f}×; "
              f"{'PASS' if max(loaded, default=99) < 1.0 else 'FAIL'} (every claim within 1 s"
              f" of its deadline while the analyses ran)", flush=True)
    finally:
        stack.cleanup()


if __name__ == "__main__":
    main()
