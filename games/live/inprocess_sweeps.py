"""The sweeps of Celery beat, run inside the web process for ``make run``.

An asyncio task on the server's loop (started as `make run` starts serving,
scripts/serve_dev.py, and by a table socket where nothing started it), calling the
sweeps through ``database_sync_to_async``: their notifications then go out on
the server's loop, which the in-memory channel layer needs.
"""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async
from django.conf import settings

from games.hooks.sweeps import periodic_sweeps
from games.live import sweeps

logger = logging.getLogger(__name__)
_task: asyncio.Task | None = None


def ensure_sweeper() -> None:
    """Start the sweeping task on the running loop, once (only when configured)."""
    global _task
    if not settings.GAMES_INPROCESS_SWEEPER or (_task is not None and not _task.done()):
        return
    _task = asyncio.get_running_loop().create_task(_sweep_forever())


async def _sweep_forever() -> None:
    ticks = 0
    while True:
        await asyncio.sleep(settings.GAMES_SWEEP_SECONDS)
        ticks += 1
        try:
            await database_sync_to_async(_sweep_once)(ticks)
        except Exception:  # keep sweeping; the next tick retries
            logger.exception("in-process sweep failed")


def _sweep_once(ticks: int) -> None:
    sweeps.sweep_undelivered()
    sweeps.sweep_deadlines()
    sweeps.sweep_away()
    sweeps.sweep_tables()
    if ticks % 30 == 0:
        sweeps.sweep_unsettled()
    if ticks % 5 == 0:  # the apps' own (games.hooks.sweeps), as beat's every 5 s
        for sweep in periodic_sweeps:
            sweep()
