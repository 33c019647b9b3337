"""scripts/chaos.py's parts: private tables and stored games to analyse (set up once
the tables are seated), analyses queued during the run, the abusive clients (a flood
socket, malformed frames) and the checks read at the end (the sweeper's lag outside the
faults, private tables and analyses)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
import urllib.error
import urllib.request
from datetime import datetime, timedelta

from loadtest import _percentile
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

# Run in `manage.py shell` once the tables are seated: the first --private-tables tables
# become private (hosted by their first seat's player; every other one without
# spectators), and --analyses stored sample games wait for their analyses.
SETUP = """
import json, secrets
from datetime import timedelta
from django.utils import timezone
from games.models import PrivateTable, Seat, Table
from games.testing.room_helpers import make_player, make_room
from games.testing.stored_games import stored_game
for index, table_id in enumerate({private}):
    host = Seat.objects.filter(table_id=table_id, user__isnull=False).first().user
    PrivateTable.objects.create(table_id=table_id, host=host, code=secrets.token_hex(4),
                                expires_at=timezone.now() + timedelta(days=1),
                                spectators=index % 2 == 0)
room = make_room("chaos analysed")
users = [make_player(f"analysed-{{i}}") for i in range(4)]
stored = [stored_game(room, users, seed=seed, settled=True).pk
          for seed in range(1, {analyses} + 1)]
print(json.dumps(stored))
"""
ANALYSE = """
from analysis.services import analysis_request
from games.models import GameRecord
for pk in {stored}:
    analysis_request(record=GameRecord.objects.get(pk=pk), user=None, auto=True)
"""




def sweeps_resumed(port: int, seconds: float = 180) -> float:
    """Seconds until the site's /healthz says a deadline sweep ran within the last
    second (``last_sweep_seconds``): the sweeps resumed after a fault."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
                body = json.load(r)
        except urllib.error.HTTPError as answer:  # 503: read it all the same
            body = json.load(answer)
        except (OSError, ValueError):
            body = {}
        last = body.get("last_sweep_seconds")
        if last is not None and last <= 1.0 and body.get("redis") == "ok":
            break
        time.sleep(0.2)
    return time.monotonic() - started


def prepare(stack, private: list[int], analyses: int) -> list[int]:
    """Make ``private`` tables private and store ``analyses`` games; their ids."""
    made = stack.manage("shell", "-c", SETUP.format(private=private, analyses=analyses))
    if made.returncode:
        raise RuntimeError(f"private tables and stored games:\n{made.stderr[-2000:]}")
    return json.loads(made.stdout.strip().splitlines()[-1])


def queue_analyses(stack, stored: list[int]) -> str:
    """Queue the analyses of ``stored`` games; what went wrong, or ""."""
    done = stack.manage("shell", "-c", ANALYSE.format(stored=stored))
    return done.stderr[-300:] if done.returncode else ""


def unexplained_wait(deadline: datetime, claimed: datetime,
                     windows: list[tuple[datetime, datetime]]) -> float:
    """Seconds of the wait from ``deadline`` to ``claimed`` that fall outside every
    window: a deadline just before Redis went down is claimed only after it is back, and
    that wait is the fault's, not the sweeper's."""
    covered = 0.0
    for began, until in sorted(windows):
        start, end = max(began, deadline), min(until, claimed)
        if end > start:
            covered += (end - start).total_seconds()
    return max(0.0, (claimed - deadline).total_seconds() - covered)


def sweep_lags(path: str, outages: list, grace_seconds: float) -> tuple[list, list]:
    """The live worker's sweep-lag lines (games.timing), split in two: the sweeper's own
    lag for each claim (the part of its wait outside every fault and ``grace_seconds``
    after it), and the whole lag of the claims whose wait a fault touched."""
    grace = timedelta(seconds=grace_seconds)
    windows = [(began, ended + grace) for _, began, ended in outages]
    outside, inside = [], []
    with open(path, errors="replace") as handle:
        for line in handle:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if not isinstance(record, dict) or record.get("what") != "sweep-lag":
                continue
            lag = float(record["ms"]) / 1000
            claimed = datetime.fromisoformat(record["time"])
            own = unexplained_wait(claimed - timedelta(seconds=lag), claimed, windows)
            outside.append(own)
            if lag - own > 0.001:  # a fault covered some of the wait (the log is in ms)
                inside.append(lag)
    return outside, inside


def run_checks(stack, args, outages: list) -> tuple[list[str], list[str]]:
    """Report lines and failure reasons: the sweeper's lag, private tables, analyses."""
    outside, inside = sweep_lags(os.path.join(stack.dir, "worker.log"), outages,
                                 args.lag_grace)
    private = stack.sql("SELECT count(*), count(*) FILTER (WHERE NOT spectators) FROM "
                        "games_privatetable")[0]
    analyses = dict(stack.sql("SELECT status, count(*) FROM analysis_gameanalysis "
                              "GROUP BY status"))
    lines = [
        f"sweeper lag outside the faults (+{args.lag_grace:.0f} s): {len(outside)} claims, "
        f"p50 {_percentile(outside, 0.5):.3f} s, p99 {_percentile(outside, 0.99):.3f} s, "
        f"max {max(outside, default=0):.3f} s; claims a fault delayed: {len(inside)}, "
        f"whole lag max {max(inside, default=0):.1f} s",
        f"private tables: {private[0]} ({private[1]} without spectators); "
        f"analyses: {analyses}",
    ]
    reasons = []
    if max(outside, default=0) >= args.max_sweep_lag:
        reasons.append(f"sweeper lag {max(outside):.2f} s outside the faults "
                       f">= {args.max_sweep_lag:.0f} s")
    if not outside:
        reasons.append("no sweep-lag lines read")
    if args.analyses_per_fault and not sum(n for status, n in analyses.items()
                                           if status != "queued"):
        reasons.append("no analysis ran")
    return lines, reasons


async def flood_socket(url: str, origin: str, session: str, rate: float,
                       stop: asyncio.Event, counts: dict[str, int]) -> None:
    """One socket of the flood: asks for a snapshot ``rate`` times a second until
    ``stop``, and counts in ``counts`` how it opened, what it heard and how it ended."""
    opened = False
    try:
        async with connect(url, origin=origin,
                           additional_headers={"Cookie": f"sessionid={session}"},
                           open_timeout=30, max_queue=None) as socket:
            counts["opened"] += 1
            opened = True

            async def read() -> None:
                with contextlib.suppress(ConnectionClosed):  # the caller counts the close
                    async for raw in socket:
                        kind = json.loads(raw).get("type")
                        if kind in ("snapshot", "error"):
                            counts[kind + "s"] += 1
            reader = asyncio.create_task(read())
            while not stop.is_set():
                await socket.send(json.dumps({"type": "snapshot"}))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), 1 / rate)
            reader.cancel()
    except ConnectionClosed as closed:
        # 4429: the per-user socket cap closed it (docs/protocol.md), as it should.
        capped = closed.rcvd is not None and closed.rcvd.code == 4429
        counts["capped" if capped else "dropped" if opened else "refused"] += 1
    except Exception:
        counts["dropped" if opened else "refused"] += 1


async def malformed_frames(url: str, origin: str, session: str) -> dict[str, str]:
    """Frames no client should send, each on a socket of its own: "ok" where the server
    answered an error frame and the socket still answers a snapshot after it."""
    frames = {
        "deep-nested JSON": "[" * 2000 + "]" * 2000,
        "deep-nested object": '{"type": "play", "seq": 0, "cards": ' + "[" * 1500
        + "]" * 1500 + "}",
        "NaN": '{"type": "play", "seq": NaN, "cards": []}',
        "Infinity seq": '{"type": "pass", "seq": Infinity}',
        "huge int seq": '{"type": "pass", "seq": ' + "9" * 3000 + "}",
        "garbage": "\x00\xff not json at all }}}",
        "binary": b"\x00\x01\x02\xff" * 16,
        "oversized": json.dumps({"type": "snapshot", "pad": "x" * 70000}),
        "wrong shapes": json.dumps({"type": ["play"], "seq": {"a": 1}}),
        "cards not a list": json.dumps({"type": "play", "seq": 0, "cards": "AS"}),
    }
    async def next_of(socket, *kinds: str) -> str:
        """The type of the next frame of one of ``kinds``, skipping the table's own
        pushes (``table`` and ``events`` frames); "nothing" after 10 s."""
        try:
            async with asyncio.timeout(10):
                while True:
                    kind = json.loads(await socket.recv()).get("type")
                    if kind in kinds:
                        return kind
        except TimeoutError:
            return "nothing"

    results = {}
    for name, frame in frames.items():
        try:
            async with connect(url, origin=origin,
                               additional_headers={"Cookie": f"sessionid={session}"},
                               open_timeout=10, max_size=None) as socket:
                await next_of(socket, "snapshot")  # the one sent on connect
                await socket.send(frame)
                reply = await next_of(socket, "error", "snapshot")
                await socket.send(json.dumps({"type": "snapshot"}))
                after = await next_of(socket, "snapshot")
                results[name] = ("ok" if reply == "error" and after == "snapshot"
                                 else f"replied {reply}, then {after}")
        except Exception as error:
            results[name] = f"socket lost: {type(error).__name__} {error}"[:120]
    return results
