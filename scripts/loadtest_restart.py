#!/usr/bin/env python
"""A deploy's restart under load: tables playing on two web processes, one of them
stopped with SIGTERM (as a deploy stops it) and started again, and the figures.

    python scripts/loadtest_restart.py --tables 200 [--steady 30] [--after 30]

Owns its stack (scripts/stack.py: a fresh database, a private Redis, two uvicorn
processes with prod settings, a worker, beat). Every seat is a reconnecting client
(games.loadtest.socket_player.ReconnectingBotClient); tables alternate between the two
processes. A dropped socket reconnects as behind a load balancer: first to the other
process, then alternately (--no-failover: only to its own). Once every table is dealt
and --warmup seconds have passed, --steady seconds are measured; then web1 gets
SIGTERM, and once it has exited it is started again.

It prints how long the stop and the start took; when every socket of web1 was back
(a snapshot received) and when every table of web1 moved again (an event received),
both from the SIGTERM; the other process's p50 and p99 in the --after seconds from
the SIGTERM beside its steady ones, and their ratio; the turns charged as timeouts
since the SIGTERM; the games lost or left unsettled. Targets (docs/performance.md,
"Restart"): every socket back and every table moving within 10 s, no timeout, no game
lost, the other process's p99 at most twice its steady p99.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import signal
import sys
import time
from datetime import UTC, datetime

from stack import ROOT, Stack, add_stack_arguments, log

sys.path.insert(0, ROOT)

import django  # noqa: E402

# The client reads the engine's hints (games.live.hints), whose module imports the game
# models: Django must be set up, on the settings that start nothing (no database is
# opened), which importing the stack names (scripts/stack.py).
django.setup()

from games.loadtest.client_gc import GcPauses, collector_off, collector_on  # noqa: E402
from games.loadtest.socket_player import ReconnectingBotClient, Stats  # noqa: E402


class WatchedClient(ReconnectingBotClient):
    """Notes, for the figures, which server each game is played on and when this seat
    was back after a reconnect and heard its table move."""

    def __init__(self, *args, server: int, table: int, games: dict, urls: list[str],
                 **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.server, self.table, self.games = server, table, games
        self.urls = urls  # its own server's first, then where a balancer would send it
        self.back_at: float | None = None  # the first snapshot after a reconnect
        self.moved_at: float | None = None  # the first events after ``watch_from``
        self.watch_from = float("inf")

    async def _session(self, until: float, keep_playing: bool, first: bool) -> None:
        # A reconnect goes where a load balancer would send it: the first to the other
        # process (the stopped one is out of rotation), the next back to its own, …
        self.url = self.urls[self.reconnects % len(self.urls)]
        await super()._session(until, keep_playing, first)

    async def _handle(self, message: dict) -> None:
        now = time.perf_counter()
        if message["type"] == "snapshot" and self.reconnects and self.back_at is None:
            self.back_at = now
        if message["type"] == "events" and now >= self.watch_from and self.moved_at is None \
                and (self.server == 0 or self.back_at is not None):
            self.moved_at = now
        await super()._handle(message)
        if self.game_id is not None:
            self.games[self.game_id] = self.server


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else 0.0


def _latencies(stats: Stats, games: dict, server: int, begin: float, end: float) -> list:
    return [last - sent for game, _seq, sent, _first, last in stats.samples
            if games.get(game) == server and begin <= sent < end]


def _by_period(stats: Stats, games: dict, server: int, begin: float, end: float,
               period: float = 2.0) -> list[list[float]]:
    """The latencies of ``server``'s actions sent in each ``period`` from ``begin``:
    where in the window the slow ones were."""
    periods: list[list[float]] = [[] for _ in range(int((end - begin) // period) + 1)]
    for game, _seq, sent, _first, last in stats.samples:
        if games.get(game) == server and begin <= sent < end:
            periods[int((sent - begin) // period)].append(last - sent)
    return periods


async def run(args: argparse.Namespace, stack: Stack, plan: dict) -> dict:
    stats, games, rng = Stats(), {}, random.Random(args.seed)
    urls = [f"ws://127.0.0.1:{port}" for port in args.web_ports]
    clients = []
    for index, table in enumerate(plan["tables"][: args.tables]):
        server = index % 2
        order = [server, 1 - server] if args.failover else [server]
        paths = [f"{urls[number]}/ws/table/{table['table']}/" for number in order]
        for seat in table["seats"]:
            clients.append(WatchedClient(
                f"{urls[server]}/ws/table/{table['table']}/", seat["session"],
                "http://" + urls[server].split("//")[1], stats, think=args.think,
                jitter=args.jitter, rng=random.Random(rng.random()), server=server,
                table=table["table"], games=games, urls=paths))
    collector_off()  # the start is measured too (every table dealt)
    tasks = [asyncio.create_task(client.run(float("inf"))) for client in clients]
    started = time.perf_counter()
    while len(stats.games_started) < args.tables:
        if time.perf_counter() - started > args.deal_timeout:
            raise TimeoutError("not every table was dealt")
        await asyncio.sleep(0.2)
    log(f"every table dealt after {time.perf_counter() - started:.1f} s; warm-up")
    await asyncio.sleep(args.warmup)
    collector_off()  # the client's collections would read as web0's latency
    pauses = GcPauses()  # those that run all the same
    steady_from = time.perf_counter()
    await asyncio.sleep(args.steady)
    term_at = time.perf_counter()
    term_utc = datetime.now(UTC)
    for client in clients:
        client.watch_from = term_at
    log("SIGTERM web1")
    await asyncio.to_thread(stack.kill, "web1", signal.SIGTERM)
    stopped_at = time.perf_counter()
    await asyncio.to_thread(stack.start, "web1")
    up_at = time.perf_counter()
    log(f"web1 stopped in {stopped_at - term_at:.1f} s, up again after {up_at - term_at:.1f} s")
    await asyncio.sleep(max(0.0, term_at + args.after - time.perf_counter()))
    await asyncio.sleep(2)  # the after window's last actions are still arriving
    collector_on()
    client_collections = len(pauses.pauses)
    for client in clients:
        client.stop_after = time.perf_counter()
    done, pending = await asyncio.wait(tasks, timeout=args.grace)
    for task in pending:
        task.cancel()
    settle_until = time.perf_counter() + 60
    while time.perf_counter() < settle_until and _unsettled(stack, plan, args):
        await asyncio.sleep(1)
    moved = [client for client in clients if client.server == 1]
    return {
        "stop_s": stopped_at - term_at, "up_s": up_at - term_at,
        "sockets": len(moved),
        "back": [c.back_at - term_at for c in moved if c.back_at is not None],
        "tables_moved": _tables_moved(moved, term_at),
        "tables": len({c.table for c in moved}),
        "steady": _latencies(stats, games, 0, steady_from, term_at),
        "after": _latencies(stats, games, 0, term_at, term_at + args.after),
        "after_by_period": _by_period(stats, games, 0, term_at, term_at + args.after),
        "timeouts": stack.sql("SELECT count(*) FROM games_gameevent WHERE type = 'timeout' "
                              "AND created_at >= %s", (term_utc,))[0][0],
        "unsettled": _unsettled(stack, plan, args),
        "errors": len(stats.errors), "pending": len(pending),
        "error_codes": stats.error_codes(),
        "client_collections": client_collections,
        "failures": [repr(t.exception()) for t in done
                     if not t.cancelled() and t.exception() is not None][:5],
    }


def _tables_moved(clients: list[WatchedClient], term_at: float) -> dict[int, float]:
    """Each table's first move heard after the SIGTERM (by any of its seats)."""
    moved: dict[int, float] = {}
    for client in clients:
        if client.moved_at is not None:
            at = client.moved_at - term_at
            moved[client.table] = min(at, moved.get(client.table, at))
    return moved


def _unsettled(stack: Stack, plan: dict, args: argparse.Namespace) -> int:
    ids = [table["table"] for table in plan["tables"][: args.tables]]
    return stack.sql("SELECT count(*) FROM games_gamerecord WHERE table_id = ANY(%s) "
                     "AND (status <> 'ended' OR settlement IS NULL)", (ids,))[0][0]


def report(figures: dict, args: argparse.Namespace) -> bool:
    back, moved = figures["back"], figures["tables_moved"]
    steady_p99 = _percentile(figures["steady"], 0.99) * 1000
    after_p99 = _percentile(figures["after"], 0.99) * 1000
    ratio = after_p99 / steady_p99 if steady_p99 else float("inf")
    all_back = len(back) == figures["sockets"]
    all_moved = len(moved) == figures["tables"]
    last_back = max(back, default=float("inf"))
    last_moved = max(moved.values(), default=float("inf"))
    print(f"web1: SIGTERM to exit {figures['stop_s']:.1f} s, to answering again "
          f"{figures['up_s']:.1f} s")
    print(f"sockets of web1 back: {len(back)} of {figures['sockets']}, the last "
          f"{last_back:.1f} s after the SIGTERM")
    print(f"tables of web1 moving again: {len(moved)} of {figures['tables']}, the last "
          f"{last_moved:.1f} s after the SIGTERM")
    print(f"web0 latency, steady {args.steady:.0f} s: p50 "
          f"{_percentile(figures['steady'], 0.5) * 1000:.1f} ms, p99 {steady_p99:.1f} ms "
          f"({len(figures['steady'])} samples)")
    print(f"web0 latency, {args.after:.0f} s from the SIGTERM: p50 "
          f"{_percentile(figures['after'], 0.5) * 1000:.1f} ms, p99 {after_p99:.1f} ms "
          f"({len(figures['after'])} samples); p99 ratio {ratio:.2f}")
    print("web0 p99 by 2 s from the SIGTERM (ms, samples): " + ", ".join(
        f"{_percentile(values, 0.99) * 1000:.0f} ({len(values)})"
        for values in figures["after_by_period"]))
    print(f"load client GC collections while measuring: {figures['client_collections']}")
    print(f"turns charged as timeouts since the SIGTERM: {figures['timeouts']}")
    print(f"games lost or left unsettled: {figures['unsettled']}; protocol errors "
          f"{figures['errors']} ({figures['error_codes']}), clients still running "
          f"{figures['pending']}")
    for failure in figures["failures"]:
        print(f"  {failure}")
    met = (all_back and all_moved and last_back <= 10 and last_moved <= 10
           and not figures["timeouts"] and not figures["unsettled"] and ratio <= 2)
    print("targets: " + ("met" if met else "NOT met"))
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--jitter", type=float, default=0.5)
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("--steady", type=float, default=30, help="steady seconds measured")
    parser.add_argument("--after", type=float, default=30,
                        help="seconds from the SIGTERM measured")
    parser.add_argument("--deal-timeout", type=float, default=240)
    parser.add_argument("--grace", type=float, default=180)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-failover", dest="failover", action="store_false",
                        help="reconnect only to the socket's own process (no balancer)")
    add_stack_arguments(parser, web_ports=[8180, 8181], redis_port=6393)
    args = parser.parse_args()

    def on_signal(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_signal)
    stack = Stack(args, name="restart")
    try:
        log(f"setting up: database {stack.db}, {args.tables} tables, logs in {stack.dir}")
        plan = stack.setup(args.tables)
        figures = asyncio.run(run(args, stack, plan))
    finally:
        stack.cleanup()
    raise SystemExit(0 if report(figures, args) else 1)


if __name__ == "__main__":
    main()
