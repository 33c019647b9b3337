"""The shared facts, read at scrape time: from PostgreSQL, tables playing, sockets open
and the sweeper's and settlement's lags (/healthz's own reads, shuangkou_site.health);
from the broker, the depth of each Celery queue. Any process gives the same answer.

A source that does not answer is reported as down (``shuangkou_metrics_source_up``) and
its facts left out: the scrape still answers with everything else.
"""

from __future__ import annotations

import functools
import logging

import redis
from django.conf import settings
from django.db import DatabaseError
from kombu.transport.redis import PRIORITY_STEPS
from kombu.transport.redis import Channel as RedisChannel
from prometheus_client.core import GaugeMetricFamily

from games.live.socket_rows import live_sockets
from games.models import Table
from shuangkou_site.celery import app as celery_app
from shuangkou_site.health import check_health

logger = logging.getLogger(__name__)


class SiteFacts:
    """A prometheus-client collector (``collect`` yields the families)."""

    def describe(self) -> list:
        return []  # nothing read when the collector is registered

    def collect(self):
        up = GaugeMetricFamily("shuangkou_metrics_source_up",
                               "1 if the scrape could read this source of shared facts.",
                               labels=["source"])
        try:
            families = list(database_facts())
        except DatabaseError:
            logger.exception("metrics: the database facts could not be read")
            families = []
        up.add_metric(["database"], 1 if families else 0)
        yield from families
        if not celery_app.conf.task_always_eager:  # eager tasks queue nowhere
            try:
                depths = queue_depths()
            except (redis.RedisError, OSError):
                logger.exception("metrics: the broker's queues could not be read")
                depths = None
            up.add_metric(["broker"], 0 if depths is None else 1)
            if depths is not None:
                depth = GaugeMetricFamily(
                    "shuangkou_celery_queue_depth",
                    "Tasks waiting in each Celery queue (the broker's lists).",
                    labels=["queue"])
                for queue, count in depths.items():
                    depth.add_metric([queue], count)
                yield depth
        yield up


def database_facts():
    health = check_health()
    if health.database != "ok":
        raise DatabaseError("the health check's database read failed")
    yield _gauge("shuangkou_tables_playing", "Tables with a game being played.",
                 Table.objects.filter(status=Table.Status.PLAYING).count())
    yield _gauge("shuangkou_sockets_open",
                 "Table sockets open on every web process (their rows, stale ones left out).",
                 live_sockets().count())
    yield _gauge("shuangkou_oldest_expired_turn_seconds",
                 "How long the oldest expired turn of a running game has waited for the "
                 "sweeper (0: none waits).", health.sweeper_lag_seconds or 0.0)
    yield _gauge("shuangkou_oldest_unsettled_game_seconds",
                 "How long the oldest ended game has waited for its settlement (0: none).",
                 health.oldest_unsettled_seconds or 0.0)


def _gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, value=value)


def queue_depths() -> dict[str, int]:
    """Messages waiting in each queue the Celery app knows, as kombu's Redis transport
    keeps them: a list per queue and per priority step."""
    options = celery_app.conf.broker_transport_options or {}
    prefix = options.get("global_keyprefix", "")
    steps = options.get("priority_steps", PRIORITY_STEPS)
    queues = celery_queue_names()
    with _broker(celery_app.conf.broker_url).pipeline(transaction=False) as pipe:
        for queue in queues:
            for step in steps:
                suffix = f"{RedisChannel.sep}{step}" if step else ""
                pipe.llen(f"{prefix}{queue}{suffix}")
        sizes = pipe.execute()
    per_queue = len(steps)
    return {queue: sum(sizes[index * per_queue:(index + 1) * per_queue])
            for index, queue in enumerate(queues)}


def celery_queue_names() -> list[str]:
    """Every queue named in the settings, read when asked: the app's queues (or its
    default one), the queues of its routes, the strong bots' queue and any queue in
    beat's schedule."""
    conf = celery_app.conf
    names = {conf.task_default_queue, *celery_app.amqp.queues.keys()}
    routes = conf.task_routes or []
    for table in routes if isinstance(routes, (list, tuple)) else [routes]:
        if isinstance(table, dict):
            names.update(route["queue"] for route in table.values()
                         if isinstance(route, dict) and route.get("queue"))
    for entry in (conf.beat_schedule or {}).values():
        names.add(entry.get("options", {}).get("queue"))
    names.add(getattr(settings, "GAMES_BOT_QUEUE", None))
    return sorted(name for name in names if name)


@functools.cache
def _broker(url: str) -> redis.Redis:
    """One client per broker URL for the process's life, with short timeouts: a scrape
    must not hang on a broker that does not answer."""
    timeout = settings.METRICS_BROKER_TIMEOUT_SECONDS
    return redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout,
                                max_connections=4)
