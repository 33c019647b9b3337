"""What a web process measures of itself while it serves: its event loop's lag and its
database pools.

One probe task per event loop, started by the first connection the site's protocol
router sees (:class:`WatchedProtocolRouter`; a dict lookup per connection afterwards). It sleeps
``PROBE_SECONDS`` at a time and records how much later than asked it woke: whatever
held the loop (a long handler, a garbage collection, the GIL held by the database
thread) held every table of the process as long. Each second it samples the pools.
Its cost: four wake-ups a second.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import logging
import os

from channels.routing import ProtocolTypeRouter
from prometheus_client import multiprocess

from common.metrics.instruments import LOOP_LAG_MAX_SECONDS, LOOP_LAG_SECONDS
from common.metrics.pool_usage import django_pool, record_pool_usage
from games.live import action_pool
from games.live.timing import log_loop_lag
from shuangkou_site.loop_tasks import start_once
from shuangkou_site.young_collections import ensure_young_collections

logger = logging.getLogger(__name__)

PROBE_SECONDS = 0.25
# The max gauge shows the worst lag of the current window and the one before it (the
# last 10 to 20 s): a scrape every 10 s or less misses no spike, and the histogram
# counts every one whatever the interval.
WINDOW_SECONDS = 10.0
POOL_SAMPLE_SECONDS = 1.0

class WatchedProtocolRouter(ProtocolTypeRouter):
    """Channels' protocol router, starting the probe (and the paced young collections,
    shuangkou_site.young_collections) on the loop it serves from."""

    async def __call__(self, scope, receive, send):
        ensure_probe()
        ensure_young_collections()
        return await super().__call__(scope, receive, send)


def ensure_probe() -> None:
    loop = asyncio.get_running_loop()
    if start_once("metrics-loop-probe", lambda: _probe(loop)):
        _forget_at_exit()


async def _probe(loop: asyncio.AbstractEventLoop) -> None:
    worst = previous = 0.0
    window_ends = pools_due = loop.time()
    while True:
        asked = loop.time() + PROBE_SECONDS
        await asyncio.sleep(PROBE_SECONDS)
        now = loop.time()
        lag = max(0.0, now - asked)
        LOOP_LAG_SECONDS.observe(lag)
        log_loop_lag(lag)
        worst = max(worst, lag)
        LOOP_LAG_MAX_SECONDS.set(max(worst, previous))
        if now >= window_ends:
            previous, worst, window_ends = worst, 0.0, now + WINDOW_SECONDS
        if now >= pools_due:
            pools_due = now + POOL_SAMPLE_SECONDS
            _sample_pools()


def _sample_pools() -> None:
    try:
        pool = django_pool()
        if pool is not None:
            record_pool_usage("default", pool)
        actions = action_pool.opened_pool()
        if actions is not None:
            record_pool_usage("actions", actions)
    except Exception:  # the probe goes on: its loop figures matter more
        logger.exception("metrics: sampling the database pools failed")


@functools.cache
def _forget_at_exit() -> None:
    """A process that ends takes its live gauges (pid-labelled) with it. One killed
    outright is forgotten at the next scrape instead (.exposition)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        atexit.register(multiprocess.mark_process_dead, os.getpid())
