"""scripts/chaos_checks.py's reading of the sweeper's lag: a fault's wait is the fault's,
the sweeper's own lag is whatever a claim waited outside every fault."""

from __future__ import annotations

import importlib.util
import json
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[3] / "scripts"
START = datetime(2026, 12, 4, 14, 0, tzinfo=UTC)


@pytest.fixture
def chaos_checks(monkeypatch):
    monkeypatch.syspath_prepend(str(SCRIPTS))  # it imports loadtest as the script does
    spec = importlib.util.spec_from_file_location("chaos_checks", SCRIPTS / "chaos_checks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("loadtest", None)


def at(seconds: float) -> datetime:
    return START + timedelta(seconds=seconds)


def claim_line(deadline: float, claimed: float) -> str:
    return json.dumps({"what": "sweep-lag", "ms": (claimed - deadline) * 1000,
                       "time": at(claimed).isoformat()})


def test_a_deadline_just_before_an_outage_is_the_outages_wait_not_the_sweepers(
        chaos_checks, tmp_path):
    redis_down = ("redis down", at(100), at(161))
    log = tmp_path / "worker.log"
    log.write_text("\n".join([
        "not json",
        claim_line(10, 10.5),       # an ordinary claim
        claim_line(99.8, 162.3),    # due 0.2 s before Redis went, claimed once it was back
        claim_line(70, 162.0),      # 30 s late before the outage began: the sweeper's
        claim_line(180, 180.4),     # after the outage and its grace
    ]) + "\n")

    own, delayed = chaos_checks.sweep_lags(str(log), [redis_down], grace_seconds=10)

    assert [round(lag, 3) for lag in own] == [0.5, 0.2, 30.0, 0.4]
    assert [round(lag, 3) for lag in delayed] == [62.5, 92.0]


def test_the_wait_covered_by_two_faults_is_counted_once_each(chaos_checks):
    windows = [(at(10), at(20)), (at(30), at(40))]
    assert chaos_checks.unexplained_wait(at(5), at(45), windows) == 20.0
    assert chaos_checks.unexplained_wait(at(12), at(18), windows) == 0.0
    assert chaos_checks.unexplained_wait(at(41), at(42.5), windows) == 1.5
