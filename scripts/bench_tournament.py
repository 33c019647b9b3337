#!/usr/bin/env python
"""A tournament round's start and play, beside the same tables outside a tournament,
in one sitting, on a stack the script owns (scripts/stack.py: a fresh database, a
private Redis, two uvicorn processes with prod settings, Celery worker and beat).

    python scripts/bench_tournament.py [--players 64] [--think 0.5] [--boards 1]

1. **Outside a tournament**: --players people seated at --players/4 tables of a
   points room (loadtest_prepare), their table sockets open; at t0 every client says
   ready; each table is dealt when its fourth player is ready. Measured: seconds from t0 until
   every player holds their hand, and the action latency (send → all four seats have
   the events; p50, p99) while the games are played out with --think seconds a move.
2. **A tournament**: --players people registered (tournament_bench_prepare), each on
   the tournament's socket; at t0 the round starts (tournaments.flow.start: every table
   seated and dealt in one transaction). Measured: the start's own seconds, seconds
   from t0 until every player holds their hand (the tournament socket tells each
   player their table, the player's client connects there and gets its snapshot), and
   the action latency during the round, as above. Both rows also give the p99 of the
   actions completed after every player held a hand (the connects and snapshots over).

Prints both rows and the ratios. Stops everything it started and drops its database.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from stack import Stack, add_stack_arguments, log  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from games.loadtest.socket_player import BotClient, Stats  # noqa: E402

ROUND_SECONDS = 600


class TimedClient(BotClient):
    """A seat that notes when it first holds a dealt hand."""

    dealt_at: float | None = None

    def _load(self, message: dict) -> bool:
        settled = super()._load(message)
        if self.dealt_at is None and self.playing and self.hand:
            self.dealt_at = time.perf_counter()
        return settled


class GatedSeat(TimedClient):
    """A seat outside a tournament whose socket is open before t0 (the server warm,
    as the tournament's players' sockets are), saying ready once ``gate`` is set."""

    gate: asyncio.Event
    opened: asyncio.Event

    async def run(self, until: float, keep_playing: bool = False) -> None:
        self.stop_after = until
        headers = {"Cookie": f"sessionid={self.session}"}
        async with connect(self.url, origin=self.origin, additional_headers=headers,
                           open_timeout=30, max_queue=256) as socket:
            self.socket = socket
            await self._handle(json.loads(await socket.recv()))
            self.opened.set()
            await self.gate.wait()
            await self._send({"type": "ready"})
            async for raw in socket:
                await self._handle(json.loads(raw))
                if not self.playing and self.game_id in self.stats.games_settled:
                    return


class TournamentSeat(TimedClient):
    """A tournament seat: the tournament deals, nobody says ready; plays its game."""

    async def run(self, until: float, keep_playing: bool = False) -> None:
        self.stop_after = until
        headers = {"Cookie": f"sessionid={self.session}"}
        async with connect(self.url, origin=self.origin, additional_headers=headers,
                           open_timeout=30, max_queue=256) as socket:
            self.socket = socket
            await self._handle(json.loads(await socket.recv()))
            async for raw in socket:
                await self._handle(json.loads(raw))
                if not self.playing and self.game_id in self.stats.games_settled:
                    return


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else 0.0


def row(label: str, t0: float, clients: list[TimedClient], stats: Stats, tables: int,
        start_seconds: float | None = None) -> dict:
    dealt = [client.dealt_at for client in clients]
    assert all(dealt), "a player never got a hand"
    settled = len(stats.games_settled)
    # Once every player holds a hand (the sockets' connects and snapshots are over).
    steady = [latency for latency, done in zip(stats.latencies, stats.completed)
              if done > max(dealt)]
    return {"label": label, "tables": tables, "players": len(clients),
            "start_s": start_seconds, "all_dealt_s": max(dealt) - t0,
            "first_dealt_s": min(dealt) - t0, "actions": len(stats.latencies),
            "p50_ms": 1000 * statistics.median(stats.latencies),
            "p99_ms": 1000 * percentile(stats.latencies, 0.99),
            "steady_actions": len(steady), "steady_p99_ms": 1000 * percentile(steady, 0.99),
            "games_settled": settled, "errors": len(stats.errors)}


async def outside(plan: dict, bases: list[str], think: float) -> dict:
    stats = Stats()
    clients = []
    gate = asyncio.Event()
    for number, table in enumerate(plan["tables"]):
        base = bases[number % len(bases)]
        for seat in table["seats"]:
            client = GatedSeat(f"{base}/ws/table/{table['table']}/", seat["session"],
                               "http://" + base.split("//")[1], stats, think=think)
            client.gate, client.opened = gate, asyncio.Event()
            clients.append(client)
    tasks = [asyncio.create_task(client.run(0)) for client in clients]
    await asyncio.wait_for(asyncio.gather(*(client.opened.wait() for client in clients)), 120)
    t0 = time.perf_counter()
    gate.set()
    await asyncio.wait_for(asyncio.gather(*tasks), ROUND_SECONDS)
    return row("outside a tournament", t0, clients, stats, len(plan["tables"]))


async def tournament(plan: dict, bases: list[str], think: float) -> dict:
    from tournaments import flow  # noqa: PLC0415 (Django is set up by now)

    stats = Stats()
    tournament_id = plan["tournament"]
    joined = asyncio.Event()
    count = {"on": 0}
    go = asyncio.Event()
    clients: list[TimedClient] = []

    async def player(number: int, person: dict) -> None:
        base = bases[number % len(bases)]
        origin = "http://" + base.split("//")[1]
        headers = {"Cookie": f"sessionid={person['session']}"}
        async with connect(f"{base}/ws/tournament/{tournament_id}/", origin=origin,
                           additional_headers=headers, open_timeout=30) as socket:
            await socket.recv()
            count["on"] += 1
            if count["on"] == len(plan["people"]):
                joined.set()
            await go.wait()
            while True:
                state = json.loads(await socket.recv())
                table = state["tables"].get(str(person["user"]))
                if table:
                    break
        # A table's four sockets on one web process, as outside a tournament (a game's
        # engine stays warm in the process its actions reach).
        base = bases[table % len(bases)]
        client = TournamentSeat(f"{base}/ws/table/{table}/", person["session"], origin,
                                stats, think=think)
        clients.append(client)
        await client.run(0)

    tasks = [asyncio.create_task(player(number, person))
             for number, person in enumerate(plan["people"])]
    await asyncio.wait_for(joined.wait(), 120)
    go.set()
    t0 = time.perf_counter()
    started = await asyncio.to_thread(flow.start, tournament_id, force=True)
    start_seconds = time.perf_counter() - t0
    assert started, "the tournament did not start"
    await asyncio.wait_for(asyncio.gather(*tasks), ROUND_SECONDS)
    return row("tournament round", t0, clients, stats, len(plan["people"]) // 4,
               start_seconds)


def show(rows: list[dict]) -> None:
    print(f"{'':22} {'tables':>6} {'start s':>8} {'all dealt s':>11} {'actions':>8} "
          f"{'p50 ms':>7} {'p99 ms':>7} {'p99 after':>9} {'settled':>7} {'errors':>6}")
    for item in rows:
        start = f"{item['start_s']:.3f}" if item["start_s"] is not None else "–"
        print(f"{item['label']:22} {item['tables']:>6} {start:>8} {item['all_dealt_s']:>11.3f} "
              f"{item['actions']:>8} {item['p50_ms']:>7.1f} {item['p99_ms']:>7.1f} "
              f"{item['steady_p99_ms']:>9.1f} "
              f"{item['games_settled']:>7} {item['errors']:>6}")
    base, other = rows
    dealt = other["all_dealt_s"] / base["all_dealt_s"]
    print(f"ratios (tournament / outside): all dealt {dealt:.2f}, "
          f"p50 {other['p50_ms'] / base['p50_ms']:.2f}, "
          f"p99 {other['p99_ms'] / base['p99_ms']:.2f}, "
          f"p99 after all dealt {other['steady_p99_ms'] / base['steady_p99_ms']:.2f}")
    print("(outside: sockets open before t0, then every seat ready at t0; tournament: "
          "players on the tournament socket, the round started at t0, each player's "
          "client then connects to the table it is told)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--boards", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.5)
    parser.add_argument("--json-out", default="")
    add_stack_arguments(parser, web_ports=[8871, 8872], redis_port=6471)
    args = parser.parse_args()
    if args.players % 4 or not 8 <= args.players <= 64:
        parser.error("--players: 8 to 64, a multiple of 4")
    stack = Stack(args, name="tourney")
    try:
        log(f"setting up: database {stack.db}, logs in {stack.dir}")
        plan = stack.setup(args.players // 4)
        tplan_file = os.path.join(stack.dir, "tournament.json")
        done = stack.manage("tournament_bench_prepare", "--players", str(args.players),
                            "--boards", str(args.boards), "--out", tplan_file)
        if done.returncode:
            raise RuntimeError(done.stderr[-2000:])
        with open(tplan_file) as handle:
            tplan = json.load(handle)
        os.environ.update(stack.env("bench"))
        os.environ.pop("GAMES_DEAL_SEED", None)
        import django  # noqa: PLC0415

        django.setup()
        bases = [f"ws://127.0.0.1:{port}" for port in args.web_ports]
        log("outside a tournament")
        rows = [asyncio.run(outside(plan, bases, args.think))]
        log(json.dumps(rows[0]))
        log("a tournament round")
        rows.append(asyncio.run(tournament(tplan, bases, args.think)))
        show(rows)
        if args.json_out:
            with open(args.json_out, "w") as handle:
                json.dump(rows, handle, indent=2)
    finally:
        stack.cleanup()


if __name__ == "__main__":
    main()
