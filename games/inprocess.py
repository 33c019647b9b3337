"""The sweeps of Celery beat, run by a thread of the web process for ``make run``."""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import close_old_connections

from . import sweeper

logger = logging.getLogger(__name__)
_started = threading.Event()


def start_sweeper_thread() -> None:
    if _started.is_set():
        return
    _started.set()
    threading.Thread(target=_loop, name="games-sweeper", daemon=True).start()


def _loop() -> None:
    ticks = 0
    while True:
        time.sleep(settings.GAMES_SWEEP_SECONDS)
        ticks += 1
        try:
            close_old_connections()
            sweeper.sweep_deadlines()
            sweeper.sweep_tables()
            if ticks % 30 == 0:
                sweeper.sweep_unsettled()
        except Exception:  # keep sweeping; the next tick retries
            logger.exception("in-process sweep failed")
