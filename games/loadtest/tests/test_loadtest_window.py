"""scripts/loadtest.py's measured window: which latencies it counts, and the CPU it
reports per watched process and per action."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

from games.loadtest.socket_player import Stats

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "loadtest.py"


def _loadtest():
    spec = importlib.util.spec_from_file_location("loadtest_script", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _burn(seconds: float) -> None:
    until = time.process_time() + seconds
    while time.process_time() < until:
        pass


CHILD = """
import sys, time
sys.stdin.readline()  # burn only once the meter has started
until = time.process_time() + 0.3
while time.process_time() < until:
    pass
print("done", flush=True)
sys.stdin.readline()  # stay alive, and in the tree, until the meter has stopped
"""


def test_the_cpu_of_a_watched_tree_is_counted_children_included():
    loadtest = _loadtest()
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        meter = loadtest.CpuMeter([f"uvicorn={os.getpid()}"])
        meter.start()
        child.stdin.write("go\n")
        child.stdin.flush()
        assert child.stdout.readline() == "done\n"
        _burn(0.2)
        meter.stop()
    finally:
        child.kill()
        child.wait()
    assert meter.used["uvicorn"] >= 0.2 + 0.3 - 0.03  # CPU times count in 10 ms ticks
    assert set(meter.used) == {"uvicorn"}


def test_the_window_counts_the_actions_sent_in_it_and_their_server_cpu():
    loadtest = _loadtest()
    meter = loadtest.CpuMeter([])
    meter.start()
    begin = meter.started
    meter.seconds = 10.0
    meter.used = {"uvicorn": 2.0, "client": 1.0}
    stats = Stats()
    # (sent at, latency): before the window, in it, in it but arriving after it, after it.
    for sent, latency in [(-1.0, 2.5), (1.0, 0.005), (2.0, 0.010), (9.9, 0.4), (10.5, 0.001)]:
        stats.latencies.append(latency)
        stats.completed.append(begin + sent + latency)

    result = loadtest._window_result(stats, meter, actions=400)

    assert result["samples"] == 3  # sent in [begin, begin + 10)
    assert result["max_ms"] == 400.0  # not the 2.5 s of an action sent before the window
    assert result["slowest"][0] == [9.9, 400.0]
    assert result["actions_per_s"] == 40.0
    assert result["server_cpu_ms_per_action"] == 5.0  # 2 s of CPU over 400 actions
    assert result["cpu_percent"] == {"uvicorn": 20.0, "client": 10.0}
