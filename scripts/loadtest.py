#!/usr/bin/env python
"""Load test: bot clients play whole games over real WebSockets against a served site.

    python manage.py loadtest_prepare --tables 200 --out loadtest-plan.json
    python scripts/loadtest.py --tables 200 --duration 120 --plan loadtest-plan.json \\
        --url ws://127.0.0.1:8000 [--url ws://127.0.0.1:8001 …] [--think 1.0]

Every seat is a client that waits a think time (with jitter) before each action,
like a quick human. Clients are spread over the given server URLs. Prints tables,
games finished, actions/s, the p50 and p99 latency from sending an action to all
four seats receiving its events, errors, and games left unsettled (must be 0).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import random
import statistics
import sys
import time
from urllib.parse import urlparse

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.loadtest.socket_player import BotClient, Stats  # noqa: E402


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else 0.0


async def main_async(args: argparse.Namespace) -> int:
    with open(args.plan) as handle:
        plan = json.load(handle)
    tables = plan["tables"][: args.tables]
    if len(tables) < args.tables:
        print(f"the plan has only {len(tables)} tables", file=sys.stderr)
        return 2
    stats = Stats()
    rng = random.Random(args.seed)
    started = time.perf_counter()
    until = started + args.duration
    clients = []
    for index, table in enumerate(tables):
        base = args.url[index % len(args.url)]
        origin = "http://" + urlparse(base).netloc
        for seat in table["seats"]:
            clients.append(BotClient(f"{base}/ws/table/{table['table']}/", seat["session"],
                                     origin, stats, think=args.think, jitter=args.jitter,
                                     rng=random.Random(rng.random())))
    tasks = [asyncio.create_task(client.run(until)) for client in clients]
    reporter = asyncio.create_task(_progress(stats, started, args.duration))
    done, pending = await asyncio.wait(tasks, timeout=args.duration + args.grace)
    reporter.cancel()
    for task in pending:
        task.cancel()
    failures = [task.exception() for task in done if task.exception() is not None]
    seconds = time.perf_counter() - started
    unsettled = stats.games_started - stats.games_settled
    print(f"tables: {len(tables)} ({len(clients)} clients over {len(args.url)} server(s))")
    print(f"games finished and settled: {len(stats.games_settled)}")
    print(f"actions: {stats.actions} in {seconds:.0f} s = {stats.actions / seconds:.1f}/s")
    if stats.latencies:
        p50 = _percentile(stats.latencies, 0.5) * 1000
        p99 = _percentile(stats.latencies, 0.99) * 1000
        print(f"latency send → all seats received: p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
              f"max {max(stats.latencies) * 1000:.1f} ms ({len(stats.latencies)} samples, "
              f"mean {statistics.mean(stats.latencies) * 1000:.1f} ms)")
    codes = collections.Counter(code for code, _ in stats.errors)
    print(f"errors: {len(stats.errors)} protocol "
          f"({', '.join(f'{code}: {count}' for code, count in codes.most_common())}), "
          f"{len(failures)} client failures, {len(pending)} clients still running at the end")
    for code, message in stats.errors[:5]:
        print(f"  [{code}] {message}")
    for failure in failures[:5]:
        print(f"  {failure!r}")
    print(f"games lost or left unsettled: {len(unsettled)}")
    return 0 if not (stats.errors or failures or pending or unsettled) else 1


async def _progress(stats: Stats, started: float, duration: float) -> None:
    while True:
        await asyncio.sleep(10)
        elapsed = time.perf_counter() - started
        recent = stats.latencies[-500:]
        p99 = _percentile(recent, 0.99) * 1000 if recent else 0
        print(f"[{elapsed:5.0f}/{duration:.0f} s] actions {stats.actions}, games settled "
              f"{len(stats.games_settled)}, recent p99 {p99:.0f} ms, errors {len(stats.errors)}",
              file=sys.stderr, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--duration", type=float, default=120)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--jitter", type=float, default=0.5)
    parser.add_argument("--grace", type=float, default=180,
                        help="seconds after --duration for the games at hand to finish")
    parser.add_argument("--plan", default="loadtest-plan.json")
    parser.add_argument("--url", action="append", default=None,
                        help="server base URL, e.g. ws://127.0.0.1:8000 (repeatable)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.url = args.url or ["ws://127.0.0.1:8000"]
    raise SystemExit(asyncio.run(main_async(args)))


if __name__ == "__main__":
    main()
