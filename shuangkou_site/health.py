"""What /healthz reports: can this site serve games right now?

Each dependency is checked on its own, so a 503 says which one failed: the database
(a query), Redis (a PING with a short timeout: the channel layer, the login limits and the
Celery broker all live there), the turn-deadline sweeper (how long the oldest expired
turn of a running game has waited for it) and settlement (how long the oldest ended game
has waited to be settled). The two lags are read from the database, so they say whether
Celery beat and the workers keep up, whichever process runs them. The sweeper's lag is
also what its last run found (games.live.sweep_clock): how late the oldest expired turn
was when the sweep began, and how long ago that was (``last_sweep_seconds``). A sweep
held up behind other work shows in both even while no turn happens to be waiting now.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

import redis
from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models import Min
from django.utils import timezone

from games.live.sweep_clock import last_sweep
from games.models import GameRecord

# One client per Redis URL for the life of the process: a probe reuses its connection
# instead of opening one per request (redis-py connects again if it broke).
_redis_clients: dict[tuple[str, float], redis.Redis] = {}


@dataclass
class Health:
    database: str = "ok"
    redis: str = "ok"
    sweeper_lag_seconds: float | None = None
    last_sweep_seconds: float | None = None
    oldest_unsettled_seconds: float | None = None
    failing: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failing

    def as_json(self) -> dict:
        return {
            "status": "ok" if self.ok else "error",
            "database": self.database,
            "redis": self.redis,
            "sweeper_lag_seconds": self.sweeper_lag_seconds,
            "last_sweep_seconds": self.last_sweep_seconds,
            "oldest_unsettled_seconds": self.oldest_unsettled_seconds,
            "failing": self.failing,
        }


def check_health() -> Health:
    health = Health()
    now = timezone.now()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        health.sweeper_lag_seconds = _age(now, GameRecord.objects.filter(
            status=GameRecord.Status.PLAYING, deadline__lt=now).aggregate(
            oldest=Min("deadline"))["oldest"])
        mark = last_sweep()
        if mark is not None:
            health.last_sweep_seconds = round(max(0.0, now.timestamp() - mark.at), 1)
            health.sweeper_lag_seconds = max(health.sweeper_lag_seconds,
                                             round(mark.lag_seconds, 1))
        health.oldest_unsettled_seconds = _age(now, GameRecord.objects.filter(
            status=GameRecord.Status.ENDED, settled_at__isnull=True).aggregate(
            oldest=Min("ended_at"))["oldest"])
    except DatabaseError:
        health.database = "error"
        health.failing.append("database")
    health.redis = _redis_status()
    if health.redis == "error":
        health.failing.append("redis")
    if (health.sweeper_lag_seconds or 0) > settings.HEALTH_SWEEPER_LAG_LIMIT_SECONDS:
        health.failing.append("sweeper_lag")
    if (health.last_sweep_seconds or 0) > settings.HEALTH_LAST_SWEEP_LIMIT_SECONDS:
        health.failing.append("sweeper_stalled")
    if (health.oldest_unsettled_seconds or 0) > settings.HEALTH_UNSETTLED_AGE_LIMIT_SECONDS:
        health.failing.append("unsettled")
    return health


def _age(now: datetime, oldest: datetime | None) -> float:
    """Seconds since ``oldest``; 0 when there is none."""
    return 0.0 if oldest is None else round(max(0.0, (now - oldest).total_seconds()), 1)


def _redis_status() -> str:
    """ok / error, or "not used" where the settings keep nothing in Redis (`make run`)."""
    url = settings.HEALTH_REDIS_URL
    if not url:
        return "not used"
    timeout = settings.HEALTH_REDIS_TIMEOUT_SECONDS
    client = _redis_clients.get((url, timeout))
    if client is None:
        client = _redis_clients.setdefault((url, timeout), redis.Redis.from_url(
            url, socket_timeout=timeout, socket_connect_timeout=timeout,
            max_connections=4))
    try:
        return "ok" if client.ping() else "error"
    except (redis.RedisError, OSError):
        return "error"
