"""The loop-lag probe (shuangkou_site.metrics.process_watch) logs a ``loop-lag`` timing
line when something held the event loop: beside the ``action-commit`` lines it tells a
stall of the web process from a slow database."""

import asyncio
import logging
import re
import time

from games.live import timing
from games.live.tests.test_timing_log import timing_lines
from shuangkou_site.metrics import process_watch

WAIT_SECONDS = 5.0


def test_a_held_loop_is_logged_once_the_probe_wakes(caplog, monkeypatch):
    caplog.set_level(logging.INFO, logger="games.timing")
    monkeypatch.setattr(process_watch, "PROBE_SECONDS", 0.01)

    async def scenario() -> None:
        probe = asyncio.get_running_loop().create_task(
            process_watch._probe(asyncio.get_running_loop()))
        await asyncio.sleep(0.05)  # the probe is waiting for its next wake
        before = len(timing_lines(caplog, "loop-lag"))
        time.sleep(0.2)  # a handler that holds the loop: the stall under test
        waited = time.monotonic()
        while len(timing_lines(caplog, "loop-lag")) == before \
                and time.monotonic() - waited < WAIT_SECONDS:
            await asyncio.sleep(0.01)
        probe.cancel()

    asyncio.run(scenario())
    # The probe asked to wake 10 ms after a moment before the 200 ms hold began.
    lags = [int(re.fullmatch(r"loop-lag ms=(\d+)", line)[1])
            for line in timing_lines(caplog, "loop-lag")]
    assert lags and max(lags) >= 190


def test_a_short_lag_makes_no_line(caplog):
    caplog.set_level(logging.INFO, logger="games.timing")
    timing.log_loop_lag(timing.LOOP_LAG_LOG_MS / 1000 - 0.001)
    assert timing_lines(caplog, "loop-lag") == []
    timing.log_loop_lag(timing.LOOP_LAG_LOG_MS / 1000)
    assert timing_lines(caplog, "loop-lag") == [f"loop-lag ms={timing.LOOP_LAG_LOG_MS}"]
