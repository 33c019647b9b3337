"""What the metrics add to the live path (shuangkou_site.metrics), printed per action:
the clock a table socket starts for each frame, the commit's and the broadcast's
histogram observations; and what a web process's loop probe costs per second. Measured
with prometheus-client's two storages, memory (one process) and the shared folder
(PROMETHEUS_MULTIPROC_DIR, production), each in a process of its own since the library
picks its storage when first imported.

    .venv/bin/python scripts/bench_metrics.py [--actions 200000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def per_action_us(actions: int) -> float:
    """Microseconds of CPU the hooks add to one action, the loop's own cost taken out."""
    from common.metrics.action_clock import (
        action_committed,
        action_received,
        events_sent,
    )

    async def hooks() -> float:
        started = time.process_time()
        for _ in range(actions):
            action_received()
            action_committed()
            events_sent(delivered=True)
        return time.process_time() - started

    async def bare() -> float:
        started = time.process_time()
        for _ in range(actions):
            pass
        return time.process_time() - started

    return (asyncio.run(hooks()) - asyncio.run(bare())) / actions * 1e6


def probe_us_per_second(rounds: int) -> float:
    """Microseconds of CPU a second of the loop probe costs: four wake-ups with their
    observations, and one sample of two pools' figures (their gauges and counters)."""
    from common.metrics.instruments import LOOP_LAG_MAX_SECONDS, LOOP_LAG_SECONDS
    from common.metrics.pool_usage import record_pool_usage

    class Pool:  # psycopg_pool's figures, without a database
        def pop_stats(self) -> dict:
            return {"pool_size": 4, "pool_available": 2, "pool_max": 10,
                    "requests_waiting": 0, "requests_queued": 1, "requests_wait_ms": 3}

    async def second_of_probing() -> None:
        for _ in range(4):
            await asyncio.sleep(0)
            LOOP_LAG_SECONDS.observe(0.0004)
            LOOP_LAG_MAX_SECONDS.set(0.0004)
        record_pool_usage("default", Pool())
        record_pool_usage("actions", Pool())

    async def run() -> float:
        started = time.process_time()
        for _ in range(rounds):
            await second_of_probing()
        return time.process_time() - started

    return asyncio.run(run()) / rounds * 1e6


def measure(actions: int) -> None:
    mode = "shared folder" if os.environ.get("PROMETHEUS_MULTIPROC_DIR") else "memory"
    action = min(per_action_us(actions) for _ in range(3))
    probe = min(probe_us_per_second(actions // 20) for _ in range(3))
    print(f"{mode:>13}: {action:.2f} µs of CPU per action (receive clock, commit and "
          f"broadcast observed); loop probe {probe:.0f} µs of CPU per second "
          f"({probe / 1e4:.4f}% of a core)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=200_000)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measure(args.actions)
        return
    with tempfile.TemporaryDirectory(prefix="bench-metrics-") as folder:
        for extra in ({}, {"PROMETHEUS_MULTIPROC_DIR": folder}):
            env = {key: value for key, value in os.environ.items()
                   if key != "PROMETHEUS_MULTIPROC_DIR"}
            subprocess.run([sys.executable, __file__, "--measure", "--actions",
                            str(args.actions)], cwd=ROOT, env={**env, **extra,
                                                               "PYTHONPATH": ROOT},
                           check=True)


if __name__ == "__main__":
    main()
