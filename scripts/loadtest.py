#!/usr/bin/env python
"""Load test: bot clients play whole games over real WebSockets against a served site.

    python manage.py loadtest_prepare --tables 200 --out loadtest-plan.json
    python scripts/loadtest.py --tables 200 --duration 120 --plan loadtest-plan.json \\
        --url ws://127.0.0.1:8000 [--url ws://127.0.0.1:8001 …] [--think 1.0] \\
        [--watch uvicorn=PID --watch uvicorn=PID2 --watch redis=PID …]

Every seat is a client that waits a think time (with jitter) before each action,
like a quick human. Clients are spread over the given server URLs. After --warmup
seconds a window of the rest of --duration is measured: actions/s, the p50 and p99
latency from sending an action to all four seats receiving its events, and the CPU
of each watched process tree (psutil; a name given twice is summed) in % of one core
and, for ``uvicorn``, in milliseconds per action: the server's cost of an action.
Then the games at hand finish; it prints games finished, errors, and games left
unsettled (must be 0). scripts/loadtest_stack.py runs it against a stack it owns.
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

import psutil  # noqa: E402

from games.loadtest.socket_player import BotClient, Stats  # noqa: E402

SERVER = "uvicorn"  # the watched name whose CPU is the server's cost per action


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else 0.0


class CpuMeter:
    """CPU seconds used by named process trees between ``start`` and ``stop``."""

    def __init__(self, watch: list[str]) -> None:
        self.roots: list[tuple[str, int]] = []
        for item in watch:
            name, _, pid = item.partition("=")
            self.roots.append((name, int(pid)))
        self.before: dict = {}
        self.used: dict[str, float] = {}

    def _times(self) -> dict[tuple[str, int], float]:
        times = {}
        for name, pid in self.roots:
            try:
                root = psutil.Process(pid)
                tree = [root, *root.children(recursive=True)]
            except psutil.Error:
                continue
            for process in tree:
                try:
                    cpu = process.cpu_times()
                except psutil.Error:
                    continue
                times[(name, process.pid)] = cpu.user + cpu.system
        return times

    def start(self) -> None:
        self.started = time.perf_counter()
        self.before = self._times()

    def stop(self) -> None:
        self.seconds = time.perf_counter() - self.started
        self.used = {}
        for (name, pid), cpu in self._times().items():
            # A process born in the window counts from zero.
            self.used[name] = self.used.get(name, 0.0) + cpu - self.before.get((name, pid), 0.0)


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
    meter = CpuMeter(args.watch)
    window = asyncio.create_task(_measure(stats, meter, started + args.warmup, until))
    done, pending = await asyncio.wait(tasks, timeout=args.duration + args.grace)
    reporter.cancel()
    for task in pending:
        task.cancel()
    failures = [task.exception() for task in done if task.exception() is not None]
    seconds = time.perf_counter() - started
    unsettled = stats.games_started - stats.games_settled
    print(f"tables: {len(tables)} ({len(clients)} clients over {len(args.url)} server(s))")
    print(f"games finished and settled: {len(stats.games_settled)}")
    print(f"actions: {stats.actions} in {seconds:.0f} s (the whole run)")
    result = window.result() if window.done() else None
    if result is None:
        print("measured window: none (the run ended before --warmup + the window)")
    else:
        _print_window(result)
        if args.json_out:
            with open(args.json_out, "a") as handle:
                handle.write(json.dumps({"label": args.label, "tables": len(tables),
                                         **result}) + "\n")
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


async def _measure(stats: Stats, meter: CpuMeter, begin: float, end: float) -> dict:
    """Latencies, actions and CPU between ``begin`` and ``end`` (perf_counter times)."""
    await asyncio.sleep(max(0.0, begin - time.perf_counter()))
    first_latency, first_action = len(stats.latencies), stats.actions
    meter.start()
    await asyncio.sleep(max(0.0, end - time.perf_counter()))
    meter.stop()
    latencies = stats.latencies[first_latency:]
    actions = stats.actions - first_action
    result = {
        "window_s": round(meter.seconds, 1), "actions": actions,
        "actions_per_s": round(actions / meter.seconds, 1),
        "p50_ms": round(_percentile(latencies, 0.5) * 1000, 1),
        "p99_ms": round(_percentile(latencies, 0.99) * 1000, 1),
        "max_ms": round(max(latencies, default=0) * 1000, 1),
        "mean_ms": round(statistics.mean(latencies) * 1000, 1) if latencies else 0.0,
        "samples": len(latencies),
        "cpu_percent": {name: round(100 * used / meter.seconds, 1)
                        for name, used in meter.used.items()},
    }
    if SERVER in meter.used and actions:
        result["server_cpu_ms_per_action"] = round(1000 * meter.used[SERVER] / actions, 2)
    return result


def _print_window(result: dict) -> None:
    print(f"measured window: {result['window_s']} s, {result['actions']} actions = "
          f"{result['actions_per_s']}/s")
    print(f"latency send → all seats received: p50 {result['p50_ms']} ms, "
          f"p99 {result['p99_ms']} ms, max {result['max_ms']} ms "
          f"({result['samples']} samples, mean {result['mean_ms']} ms)")
    if result["cpu_percent"]:
        shares = ", ".join(f"{name} {share} %" for name, share in result["cpu_percent"].items())
        print(f"CPU (% of one core): {shares}")
    if "server_cpu_ms_per_action" in result:
        print(f"server CPU per action: {result['server_cpu_ms_per_action']} ms")


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
    parser.add_argument("--warmup", type=float, default=15,
                        help="seconds before the measured window (connecting, first deals)")
    parser.add_argument("--watch", action="append", default=[], metavar="NAME=PID",
                        help="a process tree whose CPU to report (repeatable; give every "
                             f"web process as {SERVER}=PID for the CPU per action)")
    parser.add_argument("--label", default="project")
    parser.add_argument("--json-out", help="append the window's figures here as a JSON line")
    args = parser.parse_args()
    args.url = args.url or ["ws://127.0.0.1:8000"]
    raise SystemExit(asyncio.run(main_async(args)))


if __name__ == "__main__":
    main()
