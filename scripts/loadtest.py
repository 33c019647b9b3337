#!/usr/bin/env python
"""Load test: bot clients play whole games over real WebSockets against a served site.

    python manage.py loadtest_prepare --tables 200 --out loadtest-plan.json
    python scripts/loadtest.py --tables 200 --window 60 --plan loadtest-plan.json \\
        --url ws://127.0.0.1:8000 [--url ws://127.0.0.1:8001 …] [--think 1.0] \\
        [--watch uvicorn=PID --watch uvicorn=PID2 --watch redis=PID …]

Every seat is a client that waits a think time (with jitter) before each action,
like a quick human. Clients are spread over the given server URLs. Once every table
has been dealt, and --warmup seconds more, a --window of seconds is measured:
actions/s, the p50 and p99 latency from sending an action to all four seats
receiving its events (actions sent in the window), and the CPU of each watched
process tree and of the client itself (psutil; a name given twice is summed) in %
of one core and, for ``uvicorn``, in milliseconds per action: the server's cost of
an action. Then the games at hand finish; it prints games finished, errors, and
games left unsettled (must be 0). scripts/loadtest_stack.py runs it against a stack it owns.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime
from urllib.parse import urlparse

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import django  # noqa: E402
import psutil  # noqa: E402

# The client reads the engine's hints (games.live.hints), whose module imports the game
# models: Django must be set up, on settings that start nothing (no database is opened).
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shuangkou_site.settings.test")
django.setup()

from games.loadtest.client_gc import GcPauses, collector_off, collector_on  # noqa: E402
from games.loadtest.server_metrics import loop_lag_buckets, window_summary  # noqa: E402
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
        self.started_at = datetime.now(UTC)  # to match the `slowest` times with server logs
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
    pauses = GcPauses()
    rng = random.Random(args.seed)
    started = time.perf_counter()
    clients = []
    for index, table in enumerate(tables):
        base = args.url[index % len(args.url)]
        origin = "http://" + urlparse(base).netloc
        for seat in table["seats"]:
            # A table's other seats may be server bots (loadtest_prepare --bot-seats):
            # an action is delivered once every client of its table has it.
            clients.append(BotClient(f"{base}/ws/table/{table['table']}/", seat["session"],
                                     origin, stats, think=args.think, jitter=args.jitter,
                                     seats=len(table["seats"]),
                                     rng=random.Random(rng.random())))
    # The start is measured too (every table's first deal): the client's collections
    # would read as the servers' slowness, so none run until the window's are decided.
    collector_off()
    # The clients play until the window is over, then finish the game at hand.
    tasks = [asyncio.create_task(client.run(float("inf"))) for client in clients]
    reporter = asyncio.create_task(_progress(stats, started))
    meter = CpuMeter([*args.watch, f"client={os.getpid()}"])
    window = asyncio.create_task(_measure(stats, meter, pauses, clients, len(tables), args))
    done, pending = await asyncio.wait(tasks, timeout=args.deal_timeout + args.warmup
                                       + args.window + args.grace)
    reporter.cancel()
    for task in pending:
        task.cancel()
    failures = [task.exception() for task in done if task.exception() is not None]
    seconds = time.perf_counter() - started
    unsettled = stats.games_started - stats.games_settled
    print(f"tables: {len(tables)} ({len(clients)} clients over {len(args.url)} server(s))")
    print(f"games finished and settled: {len(stats.games_settled)}")
    print(f"actions: {stats.actions} in {seconds:.0f} s (the whole run)")
    result = None
    if window.done() and window.exception() is None:
        dealt, actions = window.result()
        print(f"first deal at every table: {dealt:.1f} s after connecting")
        print(_deal_spread(stats, started))
        print(f"load client GC, whole run: {len(pauses.pauses)} collections, longest "
              f"{max(pauses.pauses, default=0) * 1000:.1f} ms")
        result = _window_result(stats, meter, actions)
    if result is None:
        print("measured window: none (the tables were not all dealt, or the run ended early)")
        window.cancel()
    else:
        _print_window(result)
        if args.samples_out:
            _write_samples(stats, meter, args.samples_out)
        if args.json_out:
            with open(args.json_out, "a") as handle:
                handle.write(json.dumps({"label": args.label, "tables": len(tables),
                                         **result}) + "\n")
    print(f"errors: {len(stats.errors)} protocol ({stats.error_codes()}), "
          f"{len(failures)} client failures, {len(pending)} clients still running at the end")
    for code, message in stats.errors[:5]:
        print(f"  [{code}] {message}")
    for failure in failures[:5]:
        print(f"  {failure!r}")
    print(f"games lost or left unsettled: {len(unsettled)}")
    return 0 if not (stats.errors or failures or pending or unsettled) else 1


def _deal_spread(stats: Stats, started: float) -> str:
    """When the sockets' handshakes completed, their first snapshots came and the
    tables were first dealt, after connecting: whether a cold start is one even queue
    (the quantiles spread evenly) or a few late tables, and which step takes the time."""
    lines = []
    for name, moments in (("handshakes", stats.handshakes),
                          ("first snapshots", stats.first_snapshots),
                          ("first deals", stats.first_dealt.values())):
        times = sorted(moment - started for moment in moments)
        if times:
            marks = ", ".join(f"{int(share * 100)} % {_percentile(times, share):.1f}"
                              for share in (0.1, 0.25, 0.5, 0.75, 0.9))
            lines.append(f"{name} by: {marks}, all {times[-1]:.1f} s ({len(times)})")
    return "\n".join(lines)


async def _measure(stats: Stats, meter: CpuMeter, pauses: GcPauses, clients: list[BotClient],
                   tables: int, args: argparse.Namespace) -> tuple[float, int]:
    """Wait until every table has been dealt, then --warmup seconds (the first deals of
    all tables at once are a cold start, not the steady state), then measure the CPU for
    --window seconds and tell the clients to stop after the game at hand. Returns when
    the last table was first dealt (seconds after the start) and the window's actions."""
    started = time.perf_counter()
    while len(stats.games_started) < tables:
        if time.perf_counter() - started > args.deal_timeout:
            raise TimeoutError("not every table was dealt")
        await asyncio.sleep(0.2)
    dealt = time.perf_counter() - started
    await asyncio.sleep(args.warmup)
    collector_off()  # games.loadtest.client_gc
    await asyncio.sleep(1)  # the messages that queued up during the collection
    pauses_before = len(pauses.pauses)
    first_action = stats.actions
    lag_before = await _loop_lag(args)
    meter.start()
    await asyncio.sleep(args.window)
    meter.stop()
    lag_after = await _loop_lag(args)
    if lag_before is not None and lag_after is not None:
        print(window_summary(lag_before, lag_after), flush=True)
    # The last actions of the window arrive after it: a collection now would delay them.
    await asyncio.sleep(2)
    collector_on()
    window_pauses = len(pauses.pauses) - pauses_before
    print(f"load client GC collections in the window: {window_pauses}", flush=True)
    for client in clients:
        client.stop_after = time.perf_counter()
    return dealt, stats.actions - first_action


async def _loop_lag(args: argparse.Namespace) -> dict | None:
    """The servers' loop-lag histogram now (--metrics-url), or None."""
    if not args.metrics_url:
        return None
    try:
        return await asyncio.to_thread(loop_lag_buckets, args.metrics_url, args.metrics_token)
    except OSError as error:
        print(f"metrics: {error!r}", flush=True)
        return None


def _window_result(stats: Stats, meter: CpuMeter, actions: int) -> dict:
    """The window's figures. Latencies are those of the actions *sent* in the window
    (whenever they arrived): an action sent during the first deals that arrives in the
    window is the warm-up's, not the window's."""
    begin, end = meter.started, meter.started + meter.seconds
    samples = [(done - latency, latency) for done, latency
               in zip(stats.completed, stats.latencies, strict=True)
               if begin <= done - latency < end]
    latencies = [latency for _sent, latency in samples]
    slowest = sorted(samples, key=lambda sample: -sample[1])[:5]
    result = {
        "window_s": round(meter.seconds, 1), "actions": actions,
        "window_start_utc": meter.started_at.isoformat(timespec="seconds"),
        "actions_per_s": round(actions / meter.seconds, 1),
        "p50_ms": round(_percentile(latencies, 0.5) * 1000, 1),
        "p99_ms": round(_percentile(latencies, 0.99) * 1000, 1),
        "max_ms": round(max(latencies, default=0) * 1000, 1),
        "mean_ms": round(statistics.mean(latencies) * 1000, 1) if latencies else 0.0,
        "samples": len(latencies),
        # The slowest samples and when they were sent (seconds into the window): a tail
        # in one burst is a stall, one spread out is load.
        "slowest": [[round(sent - begin, 1), round(latency * 1000, 1)]
                    for sent, latency in slowest],
        "cpu_percent": {name: round(100 * used / meter.seconds, 1)
                        for name, used in meter.used.items()},
    }
    if SERVER in meter.used and actions:
        result["server_cpu_ms_per_action"] = round(1000 * meter.used[SERVER] / actions, 2)
    return result


def _write_samples(stats: Stats, meter: CpuMeter, path: str) -> None:
    """Every sample of the run, one CSV line each, in wall-clock (Unix) seconds to
    line up with the servers' timing logs and loop-lag figures: the game, the first
    sequence number of the action's events, when it was sent, when the first and the
    last seat had it, and whether it was sent in the measured window."""
    wall = meter.started_at.timestamp() - meter.started  # perf_counter -> Unix time
    begin, end = meter.started, meter.started + meter.seconds
    with open(path, "w") as handle:
        handle.write("game,seq,sent_unix,first_received_unix,all_received_unix,"
                     "latency_ms,in_window\n")
        for game, seq, sent, first, last in stats.samples:
            handle.write(f"{game},{seq},{sent + wall:.6f},{first + wall:.6f},"
                         f"{last + wall:.6f},{(last - sent) * 1000:.2f},"
                         f"{int(begin <= sent < end)}\n")
    print(f"samples: {len(stats.samples)} written to {path}")


def _print_window(result: dict) -> None:
    print(f"measured window: {result['window_s']} s from {result['window_start_utc']}, "
          f"{result['actions']} actions = {result['actions_per_s']}/s")
    print(f"latency send → all seats received: p50 {result['p50_ms']} ms, "
          f"p99 {result['p99_ms']} ms, max {result['max_ms']} ms "
          f"({result['samples']} samples, mean {result['mean_ms']} ms)")
    print("slowest (s into the window, ms): "
          + ", ".join(f"{at} s {ms}" for at, ms in result["slowest"]))
    if result["cpu_percent"]:
        shares = ", ".join(f"{name} {share} %" for name, share in result["cpu_percent"].items())
        print(f"CPU (% of one core): {shares}")
    if "server_cpu_ms_per_action" in result:
        print(f"server CPU per action: {result['server_cpu_ms_per_action']} ms")


async def _progress(stats: Stats, started: float) -> None:
    while True:
        await asyncio.sleep(10)
        elapsed = time.perf_counter() - started
        recent = stats.latencies[-500:]
        p99 = _percentile(recent, 0.99) * 1000 if recent else 0
        print(f"[{elapsed:5.0f} s] actions {stats.actions}, games settled "
              f"{len(stats.games_settled)}, recent p99 {p99:.0f} ms, errors {len(stats.errors)}",
              file=sys.stderr, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--window", type=float, default=60, help="seconds measured")
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--jitter", type=float, default=0.5)
    parser.add_argument("--grace", type=float, default=180,
                        help="seconds after the window for the games at hand to finish")
    parser.add_argument("--deal-timeout", type=float, default=120,
                        help="seconds for every table to be dealt its first game")
    parser.add_argument("--plan", default="loadtest-plan.json")
    parser.add_argument("--url", action="append", default=None,
                        help="server base URL, e.g. ws://127.0.0.1:8000 (repeatable)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warmup", type=float, default=10,
                        help="seconds between the last table's first deal and the window")
    parser.add_argument("--watch", action="append", default=[], metavar="NAME=PID",
                        help="a process tree whose CPU to report (repeatable; give every "
                             f"web process as {SERVER}=PID for the CPU per action)")
    parser.add_argument("--label", default="project")
    parser.add_argument("--json-out", help="append the window's figures here as a JSON line")
    parser.add_argument("--metrics-url", help="a web process's /metrics: the servers' "
                        "loop lag in the window (games.loadtest.server_metrics)")
    parser.add_argument("--metrics-token", default="", help="its METRICS_TOKEN")
    parser.add_argument("--samples-out",
                        help="write every sample's send and receipt times here (CSV)")
    args = parser.parse_args()
    args.url = args.url or ["ws://127.0.0.1:8000"]
    raise SystemExit(asyncio.run(main_async(args)))


if __name__ == "__main__":
    main()
