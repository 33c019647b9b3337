#!/usr/bin/env python
"""The load test against a stack it owns, and the bare relay in the same sitting.

    python scripts/loadtest_stack.py --tables 200 [--window 60] \\
        [--relay ../shared/bench/relay --relay-venv $SCRATCH/venv]

Sets up a fresh database and a private Redis, seats --tables tables, starts two uvicorn
processes (prod settings), a Celery worker and beat (scripts/stack.py), and runs
scripts/loadtest.py against them with every process watched: after --warmup seconds,
a --window of seconds is measured (actions/s, p50/p99 from sending an action to all
four seats having it, CPU per process and the web processes' CPU per action). Then,
with --relay, it runs the bare Channels relay (its run.sh: mode B, one UPDATE per
action, pub/sub layer, lean dispatch, two processes) with the same tables, think time
and window, and prints both rows and their ratios: machines here differ by up to 3×
from day to day, the ratio much less (docs/performance.md, "Load test against the relay").
Stops everything it started and drops its database (unless --keep-db).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from stack import PY, Stack, add_stack_arguments, log  # noqa: E402


def postmaster_pid() -> int | None:
    found = subprocess.run(["pgrep", "-o", "-x", "postgres"], capture_output=True, text=True)
    return int(found.stdout.split()[0]) if found.stdout.strip() else None


def run_project(args: argparse.Namespace, out: str) -> int:
    metrics = {"METRICS_TOKEN": "loadtest-metrics-token-of-this-run-only",
               "PROMETHEUS_MULTIPROC_DIR": tempfile.mkdtemp(prefix="loadtest-metrics-")}
    stack = Stack(args, name="load",
                  extra_env={**metrics, **dict(item.split("=", 1) for item in args.env)},
                  web_args=args.web_arg)
    try:
        log(f"setting up: database {stack.db}, {args.tables} tables, logs in {stack.dir}")
        prepare = ("--bot-seats", str(args.bot_seats), "--bot-level", args.bot_level)
        plan = stack.setup(args.tables, prepare=prepare)
        plan_file = os.path.join(stack.dir, "plan.json")
        watch = [*(f"uvicorn={stack.pid(name)}" for name in stack.webs),
                 *(f"redis={stack.pid(name)}" for name in stack.redises),
                 f"celery={stack.pid('worker')}", f"bots={stack.pid('bots')}"]
        if postmaster_pid():
            watch.append(f"postgres={postmaster_pid()}")
        command = [PY, os.path.join(ROOT, "scripts", "loadtest.py"), "--plan", plan_file,
                   "--tables", str(args.tables), "--think", str(args.think),
                   "--warmup", str(args.warmup), "--window", str(args.window),
                   "--deal-timeout", str(args.deal_timeout),
                   "--label", "project", "--json-out", out,
                   "--samples-out", os.path.join(os.path.dirname(out), "samples.csv"),
                   "--metrics-url", f"http://127.0.0.1:{args.web_ports[0]}/metrics",
                   "--metrics-token", metrics["METRICS_TOKEN"]]
        for port in args.web_ports:
            command += ["--url", f"ws://127.0.0.1:{port}"]
        for item in watch:
            command += ["--watch", item]
        log(f"load test: {len(plan['tables'])} tables; after every first deal "
            f"{args.warmup:.0f} s warm-up, then {args.window:.0f} s measured")
        code = subprocess.run(command, cwd=ROOT).returncode
        audit = stack.manage("ledger_audit")
        print(f"ledger_audit: {(audit.stdout + audit.stderr).strip().splitlines()[-1:]}"
              f" (exit {audit.returncode})")
        return code or audit.returncode
    finally:
        stack.cleanup()
        shutil.rmtree(metrics["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)


def run_relay(args: argparse.Namespace, out: str) -> int:
    env = {**os.environ, "VENV": args.relay_venv, "OUT": out, "LAYER": "pubsub",
           "DISPATCH": "lean", "THINK": str(args.think), "WARMUP": str(int(args.warmup)),
           "LABEL": "relay", "SCRATCH": os.path.dirname(out)}
    log(f"relay: mode B, {args.tables} tables, 2 processes, {args.window:.0f} s window")
    return subprocess.run([os.path.join(args.relay, "run.sh"), "B", str(args.tables), "2",
                           str(int(args.window))], env=env).returncode


def comparison(project: dict, relay: dict) -> str:
    relay_cpu_ms = relay["cpu"]["uvicorn"] * 10 / max(relay["actions_per_s"], 1e-9)
    rows = [
        ("actions/s", project["actions_per_s"], relay["actions_per_s"]),
        ("p50 ms", project["p50_ms"], relay["p50_ms"]),
        ("p99 ms", project["p99_ms"], relay["p99_ms"]),
        ("uvicorn CPU % of a core", project["cpu_percent"].get("uvicorn"),
         relay["cpu"].get("uvicorn")),
        ("server CPU ms per action", project.get("server_cpu_ms_per_action"),
         round(relay_cpu_ms, 2)),
        ("redis CPU %", project["cpu_percent"].get("redis"), relay["cpu"].get("redis")),
        ("postgres CPU %", project["cpu_percent"].get("postgres"),
         relay["cpu"].get("postgres")),
        ("load client CPU %", project["cpu_percent"].get("client"), relay["cpu"].get("client")),
    ]
    lines = ["| | project | relay | project / relay |", "|---|---|---|---|"]
    for name, mine, theirs in rows:
        ratio = f"{mine / theirs:.2f}" if mine is not None and theirs else "–"
        lines.append(f"| {name} | {mine} | {theirs} | {ratio} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--window", type=float, default=60, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=10,
                        help="seconds between the last table's first deal and the window")
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--deal-timeout", type=float, default=240,
                        help="seconds for every table's first deal (a cold start: all "
                             "players ready at once; about 60 s for 200 tables here)")
    parser.add_argument("--bot-seats", type=int, default=0, choices=range(4),
                        help="seats of each table taken by server bots (the rest are "
                             "clients; the relay run ignores this)")
    parser.add_argument("--bot-level", choices=("easy", "table", "strong"), default="table",
                        help="how those bots play; strong bots think on the "
                             "bots worker")
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                        help="an extra environment variable for the stack's processes")
    parser.add_argument("--web-arg", action="append", default=[], metavar="ARG",
                        help="an extra uvicorn argument, e.g. --web-arg=--loop=uvloop")
    parser.add_argument("--relay", help="the relay's folder (../shared/bench/relay)")
    parser.add_argument("--relay-venv", help="the relay's virtualenv (its README)")
    parser.add_argument("--out", help="JSON lines of both runs (default: a temporary file)")
    add_stack_arguments(parser, web_ports=[8170, 8171], redis_port=6391)
    args = parser.parse_args()
    out = args.out or os.path.join(tempfile.mkdtemp(prefix="loadtest-"), "results.jsonl")

    def on_signal(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_signal)
    code = run_project(args, out)
    if args.relay:
        code = run_relay(args, out) or code
    results = {}
    with open(out) as handle:
        for line in handle:
            row = json.loads(line)
            results[row["label"]] = row
    if "project" in results and "relay" in results:
        print(comparison(results["project"], results["relay"]))
    print(f"results: {out}")
    raise SystemExit(code)


if __name__ == "__main__":
    main()
