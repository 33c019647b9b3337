"""When the turn-deadline sweep last ran, and how late the oldest turn it found was:
what /healthz reports as the sweeper's lag (shuangkou_site.health). Kept in the Django
cache (the shared Redis in production, the process's memory under `make run`, where
the web process sweeps itself): one write a sweep, every second."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from django.core.cache import cache

logger = logging.getLogger(__name__)
KEY = "games:last-deadline-sweep"


@dataclass(frozen=True)
class SweepMark:
    at: float  # POSIX time the sweep began
    lag_seconds: float  # how long past its deadline the oldest expired turn was then


def note_sweep(at: datetime, oldest_deadline: datetime | None) -> None:
    """Record a sweep that began ``at`` and found ``oldest_deadline`` the oldest expired
    turn (None: none). Never fails the sweep: a cache that cannot be written is logged."""
    lag = 0.0 if oldest_deadline is None else max(0.0, (at - oldest_deadline).total_seconds())
    try:
        cache.set(KEY, {"at": at.timestamp(), "lag": round(lag, 3)}, timeout=None)
    except Exception:  # noqa: BLE001 - Redis down: the sweep goes on, health says redis
        logger.warning("could not record the deadline sweep", exc_info=True)


def last_sweep() -> SweepMark | None:
    """The last sweep recorded, or None (none yet, or the cache cannot be read)."""
    try:
        value = cache.get(KEY)
    except Exception:  # noqa: BLE001
        return None
    if not isinstance(value, dict):
        return None
    return SweepMark(at=float(value["at"]), lag_seconds=float(value["lag"]))
