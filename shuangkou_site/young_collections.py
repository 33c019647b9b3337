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

Every :data:`MIDDLE_EVERY`-th of them collects the middle generation too. Each young
collection counts toward the middle one, but Python starts that only from its own
trigger, which the loop's collections keep from firing: the middle generation then
gathered minutes of survivors until a burst of allocations (every game of the process
ending at once) fired the trigger, and one collection walked them all — up to 334 ms at
400 tables (docs/performance.md, "Load test figures").
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


# Python's own ratio of young to middle collections here (asgi.py's gc.set_threshold).
MIDDLE_EVERY = 20


async def _collect_young(period: float) -> None:
    count = 0
    while True:
        await asyncio.sleep(period)
        count += 1
        gc.collect(1 if count % MIDDLE_EVERY == 0 else 0)
