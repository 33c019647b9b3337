"""A process's database pools as gauges and counters (instruments ``shuangkou_db_pool_*``),
from psycopg_pool's own figures. Sampled, not hooked: the web process's loop probe
(.process_watch) samples every second, a Celery worker after each task.

``pop_stats`` hands over the counters gathered since the last sample and starts them
again, so each sample adds only what is new to the Prometheus counters. (A count the
pool makes on another thread at that very moment may be lost: these are figures for
graphs, not money.)
"""

from __future__ import annotations

from django.db import connections

from .instruments import (
    POOL_CONNECTIONS,
    POOL_ERRORS,
    POOL_MAX_CONNECTIONS,
    POOL_REQUESTS_WAITING,
    POOL_WAIT_SECONDS,
    POOL_WAITS,
)


def django_pool():
    """This process's pool of Django's default database (settings.base.pooled_postgres),
    or None where a database is configured without it (settings of one's own)."""
    return getattr(connections["default"], "pool", None)


def record_pool_usage(name: str, pool) -> None:
    """Sample ``pool`` (a psycopg_pool pool, sync or async) as the pool ``name``."""
    stats = pool.pop_stats()
    size, idle = stats.get("pool_size", 0), stats.get("pool_available", 0)
    POOL_CONNECTIONS.labels(pool=name, state="in_use").set(size - idle)
    POOL_CONNECTIONS.labels(pool=name, state="idle").set(idle)
    POOL_MAX_CONNECTIONS.labels(pool=name).set(stats.get("pool_max", 0))
    POOL_REQUESTS_WAITING.labels(pool=name).set(stats.get("requests_waiting", 0))
    POOL_WAITS.labels(pool=name).inc(stats.get("requests_queued", 0))
    POOL_WAIT_SECONDS.labels(pool=name).inc(stats.get("requests_wait_ms", 0) / 1000)
    POOL_ERRORS.labels(pool=name).inc(stats.get("requests_errors", 0))
