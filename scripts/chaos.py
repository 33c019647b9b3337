#!/usr/bin/env python
"""Chaos test: bot tables play over real WebSockets while faults are injected one by one.

    python scripts/chaos.py [--quick] [--tables 8] [--duration 900] [--max-connections 10]

Starts and owns everything itself (scripts/stack.py): a fresh database, a private
redis-server (--redis-port, 6390) and the site's processes as deploy/'s systemd units start
them (two uvicorn, the `celery`, `bots` and `slow` workers, beat). --private-tables tables
are private (every other one without spectators); --analyses-per-fault analyses are queued
before each fault. Bot clients (ReconnectingBotClient) play every table while faults follow
one another, --settle s apart: kill -9 of a web process and of the live worker
(--worker-down), Redis down --redis-outages times for --redis-down s (nothing restarts the
workers), pg_terminate_backend, beat stopped (--beat-down), a flood of --flood-sockets
sockets of one user, malformed frames. After --grace for the games to end and settle it
prints games started/finished/settled/lost/stuck, timeouts charged during faults, peak
database connections, the flood's p99, ledger_audit, the sweeper's lag outside the faults
(+--lag-grace; under --max-sweep-lag), processes that died on their own, the analyses,
and ``chaos: PASS`` or ``chaos: FAIL (reasons)``.
Always exits 0 (a stack that could not be set up is a FAIL line too). Stops every process it
started on exit, Ctrl-C included; drops its database unless --keep-db.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from chaos_checks import (  # noqa: E402
    flood_socket,
    malformed_frames,
    prepare,
    queue_analyses,
    run_checks,
    sweeps_resumed,
)
from loadtest import _percentile  # noqa: E402
from stack import Stack, add_stack_arguments, log  # noqa: E402

from games.loadtest.socket_player import ReconnectingBotClient, Stats  # noqa: E402


def now_utc() -> datetime:
    return datetime.now(UTC)


class Chaos:
    def __init__(self, args: argparse.Namespace, stack: Stack, plan: dict) -> None:
        self.args, self.stack, self.plan = args, stack, plan
        self.stats = Stats()
        self.outages: list[tuple[str, datetime, datetime]] = []
        self.peaks: dict[str, int] = {}
        self.flood: dict = {}
        self.malformed: dict = {}
        self.clients: list[ReconnectingBotClient] = []
        self.notes: list[str] = []
        self.died: dict[str, str] = {}

    async def outage(self, name: str, coroutine) -> None:
        began = now_utc()
        log(f"fault: {name}")
        await coroutine
        restored = now_utc()
        # The fault lasts until the sweeps run again: a restarted worker or beat takes a
        # while to start, and that is the fault's time, not the sweeper's lag.
        waited = await asyncio.to_thread(sweeps_resumed, self.args.web_ports[1])
        self.outages.append((name, began, now_utc()))
        log(f"recovered: {name} (sweeps ran again {waited:.1f} s after "
            f"{restored:%H:%M:%S})")

    async def run(self) -> None:
        args = self.args
        started = time.perf_counter()
        deadline = started + args.duration
        tables = self.plan["tables"][: args.tables]
        rng = random.Random(args.seed)
        urls = [f"ws://127.0.0.1:{port}" for port in args.web_ports]
        for index, table in enumerate(tables):
            base = urls[index % len(urls)]
            for seat in table["seats"]:
                self.clients.append(ReconnectingBotClient(
                    f"{base}/ws/table/{table['table']}/", seat["session"],
                    "http://" + base.split("//")[1], self.stats, think=args.think,
                    jitter=args.jitter, rng=random.Random(rng.random()), idle=args.idle,
                    seats=len(table["seats"])))
        sampler = asyncio.create_task(self.sample_connections())
        # The clients play with no end until the faults are done, then each is told to
        # finish the game at hand (stop_after).
        tasks = [asyncio.create_task(c.run(float("inf"))) for c in self.clients]
        phases = [
            ("kill -9 web0", self.kill_web),
            (f"kill -9 worker ({args.worker_down:.0f} s)", self.kill_worker),
            *[(f"redis down {args.redis_down:.0f} s ({n}/{args.redis_outages})",
               self.redis_down) for n in range(1, args.redis_outages + 1)],
            ("pg_terminate_backend", self.terminate_backends),
            (f"beat stopped {args.beat_down:.0f} s", self.beat_down),
            (f"flood {args.flood_sockets} sockets", self.flood_phase),
            ("malformed frames", self.malformed_phase),
        ]
        await asyncio.sleep(args.settle)
        for name, phase in phases:
            if time.perf_counter() + args.settle > deadline:
                self.notes.append(f"skipped (out of --duration): {name}")
                continue
            await self.queue_analyses(args.analyses_per_fault)
            if name.startswith(("flood", "malformed")):
                await phase()
            else:
                await self.outage(name, phase())
            self.check_alive(name)
            await asyncio.sleep(min(args.settle, max(0.0, deadline - time.perf_counter())))
        until = time.perf_counter()  # clients finish the game at hand, then stop
        for client in self.clients:
            client.stop_after = until
        log("faults done: the games at hand finish")
        done, pending = await asyncio.wait(tasks, timeout=args.grace)
        for task in pending:
            task.cancel()
        self.pending_clients = len(pending)
        self.client_failures = [t.exception() for t in done
                                if not t.cancelled() and t.exception() is not None]
        # Settlement runs on the worker after the end: give it the rest of the grace.
        settle_until = time.perf_counter() + max(10.0, args.grace / 3)
        while time.perf_counter() < settle_until and self.unsettled_count():
            await asyncio.sleep(1)
        sampler.cancel()

    def unsettled_count(self) -> int:
        ids = [t["table"] for t in self.plan["tables"][: self.args.tables]]
        return self.stack.sql("SELECT count(*) FROM games_gamerecord WHERE table_id = ANY(%s) "
                              "AND (status <> 'ended' OR settlement IS NULL)", (ids,))[0][0]

    async def queue_analyses(self, count: int) -> None:
        """Queue ``count`` analyses of stored games not analysed yet (the slow queue)."""
        batch, self.plan["stored"] = self.plan["stored"][:count], self.plan["stored"][count:]
        if batch:
            failed = await asyncio.to_thread(queue_analyses, self.stack, batch)
            if failed:
                self.notes.append(f"could not queue analyses: {failed}")

    def check_alive(self, after: str) -> None:
        """Processes no fault of this run stopped must still run: nothing restarts them."""
        for name in ("web0", "web1", "worker", "bots", "slow", "beat"):
            proc = self.stack.procs.get(name)
            if proc is not None and proc.poll() is not None and name not in self.died:
                self.died[name] = f"exited {proc.returncode} by the end of {after!r}"

    # --- faults ---------------------------------------------------------------------------

    async def kill_web(self) -> None:
        self.stack.kill("web0")
        await asyncio.to_thread(self.stack.start, "web0")

    async def kill_worker(self) -> None:
        self.stack.kill("worker")
        await asyncio.sleep(self.args.worker_down)
        await asyncio.to_thread(self.stack.start, "worker")

    async def redis_down(self) -> None:
        subprocess.run(["redis-cli", "-p", str(self.args.redis_port), "shutdown", "nosave"],
                       capture_output=True)
        self.stack.procs["redis"].wait(timeout=20)
        await asyncio.sleep(self.args.redis_down)
        await asyncio.to_thread(self.stack.start, "redis")

    async def terminate_backends(self) -> None:
        rows = await asyncio.to_thread(
            self.stack.sql, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid() "
            "AND application_name LIKE 'chaos-%%' AND application_name <> 'chaos-probe'")
        log(f"terminated {len(rows)} backends")
        await asyncio.sleep(self.args.pg_window)  # the window in which they reconnect

    async def beat_down(self) -> None:
        self.stack.kill("beat", signal.SIGTERM)
        await asyncio.sleep(self.args.beat_down)
        await asyncio.to_thread(self.stack.start, "beat")

    async def flood_phase(self) -> None:
        """--flood-sockets sockets of one user (seated at the spare table, which nobody
        plays) each ask for a snapshot every 1/--flood-rate s; the played tables' p99
        is taken over the same time."""
        spare = self.plan["tables"][self.args.tables]
        session = spare["seats"][0]["session"]
        url = f"ws://127.0.0.1:{self.args.web_ports[0]}/ws/table/{spare['table']}/"
        counts = {"opened": 0, "refused": 0, "capped": 0, "snapshots": 0, "errors": 0,
                  "dropped": 0}
        stop = asyncio.Event()

        before = len(self.stats.latencies)
        base_p99 = _percentile(self.stats.latencies[-500:], 0.99)
        log(f"fault: flood of {self.args.flood_sockets} sockets")
        began = now_utc()
        origin = f"http://127.0.0.1:{self.args.web_ports[0]}"
        tasks = [asyncio.create_task(flood_socket(url, origin, session, self.args.flood_rate,
                                                  stop, counts))
                 for _ in range(self.args.flood_sockets)]
        await asyncio.sleep(self.args.flood_seconds)
        stop.set()
        await asyncio.wait(tasks, timeout=30)
        during = self.stats.latencies[before:]
        self.outages.append(("flood", began, now_utc()))
        self.flood = {"p99": _percentile(during, 0.99), "samples": len(during),
                      "before_p99": base_p99, **counts}
        log(f"recovered: flood ({counts})")

    async def malformed_phase(self) -> None:
        """Frames no client should send, on one socket of the spare table's user: each
        should get an error frame and leave the socket open (a snapshot still answers)."""
        spare = self.plan["tables"][self.args.tables]
        session = spare["seats"][0]["session"]
        url = f"ws://127.0.0.1:{self.args.web_ports[1]}/ws/table/{spare['table']}/"
        log("fault: malformed frames")
        results = await malformed_frames(url, f"http://127.0.0.1:{self.args.web_ports[1]}",
                                         session)
        alive = {name: self.stack.procs[name].poll() is None for name in ("web0", "web1")}
        self.malformed = {"results": results, "web alive": alive}
        log(f"malformed: {results}")

    # --- measures -------------------------------------------------------------------------

    async def sample_connections(self) -> None:
        query = ("SELECT application_name, count(*) FROM pg_stat_activity "
                 "WHERE datname = current_database() AND application_name LIKE 'chaos-%%' "
                 "AND application_name <> 'chaos-probe' GROUP BY application_name")
        while True:
            try:
                for name, count in await asyncio.to_thread(self.stack.sql, query):
                    name = name.removeprefix("chaos-")
                    self.peaks[name] = max(self.peaks.get(name, 0), count)
            except Exception:
                pass
            await asyncio.sleep(self.args.sample_every)

    def report(self) -> str:
        args, stack = self.args, self.stack
        ids = [t["table"] for t in self.plan["tables"][: args.tables]]
        rows = stack.sql("SELECT id, status, settlement IS NOT NULL FROM games_gamerecord "
                         "WHERE table_id = ANY(%s)", (ids,))
        in_db = {row[0]: row for row in rows}
        started = len(rows)
        finished = sum(1 for r in rows if r[1] == "ended")
        settled = sum(1 for r in rows if r[1] == "ended" and r[2])
        stuck = started - finished
        unsettled = finished - settled
        # Lost: games a client played that the database does not hold.
        lost = sorted(g for g in self.stats.games_started if g is not None and g not in in_db)
        grace = timedelta(seconds=args.timeout_grace)
        charged = []
        for name, began, ended in self.outages:
            count = stack.sql(
                "SELECT count(*) FROM games_gameevent e JOIN games_gamerecord g "
                "ON g.id = e.game_id WHERE g.table_id = ANY(%s) AND e.type = 'timeout' "
                "AND e.created_at BETWEEN %s AND %s", (ids, began, ended + grace))[0][0]
            charged.append((name, count))
        audit = stack.manage("ledger_audit")
        audit_text = (audit.stdout + audit.stderr).strip().splitlines()
        audit_clean = audit.returncode == 0
        reconnects = sum(c.reconnects for c in self.clients)
        lines = [
            f"tables: {args.tables} ({len(self.clients)} clients over 2 web processes)",
            f"games: started {started}, finished {finished}, settled {settled}, lost {len(lost)}, "
            f"stuck {stuck}, unsettled {unsettled}",
            f"client view: started {len(self.stats.games_started)}, settled "
            f"{len(self.stats.games_settled)}, actions {self.stats.actions}, reconnects "
            f"{reconnects}, protocol errors {len(self.stats.errors)}, client failures "
            f"{len(self.client_failures)}, clients still running {self.pending_clients}",
        ]
        for failure in self.client_failures[:3]:
            lines.append(f"  client failure: {failure!r}"[:200])
        lines.append("outages (timeouts charged within the window + "
                     f"{args.timeout_grace:.0f} s):")
        for (name, began, ended), (_, count) in zip(self.outages, charged):
            lines.append(f"  {name}: {began:%H:%M:%S}–{ended:%H:%M:%S} UTC, "
                         f"{(ended - began).total_seconds():.0f} s, timeouts {count}")
        lines.append("database connections, peak per process: " + ", ".join(
            f"{name} {count}" for name, count in sorted(self.peaks.items())))
        if self.flood:
            f = self.flood
            lines.append(f"flood: {f['opened']} sockets opened, {f['refused']} refused, "
                         f"{f['capped']} closed by the per-user cap (4429), "
                         f"{f['dropped']} dropped, {f['snapshots']} snapshots, {f['errors']} "
                         f"errors; other tables' p99 during it {f['p99'] * 1000:.0f} ms over "
                         f"{f['samples']} samples (before {f['before_p99'] * 1000:.0f} ms)")
        if self.malformed:
            lines.append("malformed frames: " + ", ".join(
                f"{k}: {v}" for k, v in self.malformed["results"].items()))
            lines.append(f"web processes alive after them: {self.malformed['web alive']}")
        lines.append("ledger_audit: " + ("; ".join(audit_text[-3:]) or f"rc {audit.returncode}"))
        more, outside = run_checks(stack, args, self.outages)
        lines.extend(more)
        self.check_alive("the run")
        lines.append("processes that died on their own: "
                     + (", ".join(f"{k} ({v})" for k, v in self.died.items()) or "none"))
        lines.extend(self.notes)
        reasons = []
        if lost:
            reasons.append(f"{len(lost)} lost")
        if stuck:
            reasons.append(f"{stuck} stuck")
        if unsettled:
            reasons.append(f"{unsettled} unsettled")
        if sum(c for _, c in charged):
            reasons.append(f"{sum(c for _, c in charged)} timeouts charged for outages")
        over = {n: c for n, c in self.peaks.items()
                if n.startswith("web") and c > args.max_connections}
        if over:
            reasons.append(f"connections over {args.max_connections}: {over}")
        if not audit_clean:
            reasons.append("ledger audit not clean")
        reasons.extend(outside)
        if self.died:
            reasons.append(f"died: {', '.join(self.died)}")
        if self.flood and not self.flood["samples"]:
            reasons.append("no action timed during the flood")
        if self.flood and self.flood["p99"] > args.max_flood_p99:
            reasons.append(f"flood p99 {self.flood['p99'] * 1000:.0f} ms > "
                           f"{args.max_flood_p99 * 1000:.0f} ms")
        if self.malformed:
            bad = [k for k, v in self.malformed["results"].items() if v != "ok"]
            if bad:
                reasons.append(f"malformed frames mishandled: {', '.join(bad)}")
            if not all(self.malformed["web alive"].values()):
                reasons.append("a web process died of malformed frames")
        lines.append("chaos: PASS" if not reasons else f"chaos: FAIL ({'; '.join(reasons)})")
        return "\n".join(lines)


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: 5 s outages, 20 s beat stop, short settles")
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--duration", type=float, default=None,
                        help="seconds of play with faults (they stop when it runs out); "
                             "the run takes at most this + --grace + setup")
    parser.add_argument("--grace", type=float, default=None,
                        help="seconds for the games at hand to end and settle")
    parser.add_argument("--settle", type=float, default=None, help="seconds between faults")
    parser.add_argument("--worker-down", type=float, default=None)
    parser.add_argument("--redis-down", type=float, default=None)
    parser.add_argument("--redis-outages", type=int, default=3,
                        help="Redis outages in a row (each --redis-down s, --settle apart)")
    parser.add_argument("--private-tables", type=int, default=4,
                        help="tables made private (every other one without spectators)")
    parser.add_argument("--analyses-per-fault", type=int, default=2,
                        help="replay analyses queued before each fault (slow queue)")
    parser.add_argument("--bot-seats", type=int, default=1, choices=range(4),
                        help="seats of each table the server's bots play: each of their "
                             "moves is a deadline the sweeper claims (the lag measured)")
    parser.add_argument("--max-sweep-lag", type=float, default=2.0,
                        help="seconds: the sweeper's lag outside the faults stays below")
    parser.add_argument("--lag-grace", type=float, default=10.0,
                        help="seconds after a fault whose deadlines still count as its")
    parser.add_argument("--beat-down", type=float, default=None)
    parser.add_argument("--pg-window", type=float, default=5,
                        help="seconds after pg_terminate_backend counted as its outage")
    parser.add_argument("--flood-sockets", type=int, default=200)
    parser.add_argument("--flood-rate", type=float, default=1.0,
                        help="snapshots per second per flood socket (the limit is 10)")
    parser.add_argument("--flood-seconds", type=float, default=None)
    parser.add_argument("--max-flood-p99", type=float, default=1.0,
                        help="seconds: other tables' p99 during the flood must stay below")
    parser.add_argument("--timeout-grace", type=float, default=10,
                        help="seconds after an outage whose timeouts count as charged for it")
    parser.add_argument("--turn-seconds", type=int, default=None,
                        help="the tables' turn time limit (at least 5): shorter than an "
                             "outage, so an outage can cost a timeout")
    parser.add_argument("--think", type=float, default=None)
    parser.add_argument("--jitter", type=float, default=0.3)
    parser.add_argument("--idle", type=float, default=None,
                        help="seconds of silence in a game after which a client asks for a "
                             "snapshot (default: half --turn-seconds, at most 10), so a "
                             "timeout charged is the server's doing, not a slow client's")
    parser.add_argument("--sample-every", type=float, default=1.0)
    add_stack_arguments(parser, web_ports=[8190, 8191], redis_port=6390)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    quick = {"duration": 300, "grace": 150, "settle": 10, "worker_down": 5, "redis_down": 5,
             "beat_down": 20, "flood_seconds": 15, "think": 0.5, "turn_seconds": 5}
    full = {"duration": 1500, "grace": 300, "settle": 30, "worker_down": 30, "redis_down": 60,
            "beat_down": 120, "flood_seconds": 60, "think": 1.0,
            "turn_seconds": 15}
    for key, value in (quick if args.quick else full).items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if args.idle is None:
        args.idle = min(10.0, args.turn_seconds / 2)
    return args


def main() -> None:
    args = parse_args()
    # The live worker writes its sweep-lag lines (games.timing) for the lag check.
    stack = Stack(args, process_env={"worker": {"GAMES_TIMING_LOG_LEVEL": "INFO"}})

    def on_signal(signum, frame):
        raise KeyboardInterrupt
    # Raised at once, for Ctrl-C too: with asyncio.run's own SIGINT handling (it cancels
    # the main task) a SIGINT left the run hanging with its processes up; why was not
    # looked into. SIGTERM raising at once cleaned up in seconds, so both do.
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        log(f"setting up: database {stack.db}, redis :{args.redis_port}, "
            f"web :{args.web_ports[0]} :{args.web_ports[1]}, logs in {stack.dir}")
        plan = stack.setup(args.tables + 1, args.turn_seconds,
                           prepare=("--bot-seats", str(args.bot_seats)))
        private = [t["table"] for t in plan["tables"][: min(args.private_tables, args.tables)]]
        plan["stored"] = prepare(stack, private, args.analyses_per_fault * 12)
        chaos = Chaos(args, stack, plan)
        asyncio.run(chaos.run())
        print(chaos.report(), flush=True)
    except KeyboardInterrupt:
        print("chaos: FAIL (interrupted)", flush=True)
    except Exception as error:
        print(f"chaos: FAIL (could not run: {error!r})", flush=True)
    finally:
        stack.cleanup()
    raise SystemExit(0)


if __name__ == "__main__":
    main()
