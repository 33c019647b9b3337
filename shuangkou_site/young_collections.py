"""The web process's young garbage collections, paced by its event loop.

Python collects its youngest generation when allocations exceed frees by the threshold
(asgi.py sets 5,000). A table's action replaces old objects (the table's state, which
earlier collections promoted) with new ones, so a web process frees about as much as
it allocates: the trigger fired only every few seconds, by then the young generation
held every object those seconds had made, and one collection took 17–34 ms of CPU
(20–48 ms of wall time; games.timing ``gc-pause`` lines, 400 tables) while every table
of the process waited.
That was the 400-table load test's p99.

Collected from the loop every ``WEB_YOUNG_GC_SECONDS`` instead, each collection has only
that fraction of a second's objects: the same work in short pauses (the loop-lag probe's
slowest in a 400-table window fell from 25–50 ms to 5 ms; docs/performance.md, "The
400-table tail"). One task per event loop, started by the first connection the site's
router sees, like the loop-lag probe; 0: off.
"""

from __future__ import annotations

import asyncio
import gc

from django.conf import settings

from shuangkou_site.loop_tasks import start_once


def ensure_young_collections() -> None:
    """Start this loop's collecting task unless it runs (call on the loop)."""
    period = float(settings.WEB_YOUNG_GC_SECONDS)
    if period > 0:
        start_once("young-collections", lambda: _collect_young(period))


async def _collect_young(period: float) -> None:
    while True:
        await asyncio.sleep(period)
        gc.collect(0)
