"""Celery workers that outlive a Redis outage, and reconnect soon after it ends.

**Why a worker died.** When the broker goes away while a worker holds unacknowledged
messages (tasks are acknowledged late, settings.base), Celery's consumer closes the
broken connection: ``kombu.Connection.collect()`` first drops the transport's link to
its connection (``transport.client = None``), then ``connection.close()`` closes the
default channel, whose QoS restores its unacknowledged messages. The Redis channel has
already thrown its connection pool away, so it builds a new one from
``transport.client.hostname``: ``AttributeError: 'NoneType' object has no attribute
'hostname'`` (kombu.transport.redis.Channel._connparams, celery/kombu#582 reports the
same trace). ``ignore_errors`` around the close lets only connection errors through,
so the AttributeError reached the worker's blueprint ("Unrecoverable error") and the
worker exited, whenever the outage hit while a task was unacknowledged (measured on
kombu 5.7.0: the second of eight 4 s outages under a steady trickle of tasks).

:func:`install` makes that case the connection error it is: a channel whose transport
has no connection any more raises ``redis.exceptions.ConnectionError``, which the close
ignores, and the consumer reconnects as after any outage. Nothing is lost: the messages
stay in the broker's unacked set and kombu restores them once their visibility timeout
passes (every task here is idempotent; turns and settlements have their own sweeps).

:class:`Consumer` (``CELERY_WORKER_CONSUMER``) retries the broker every
:data:`RECONNECT_INTERVAL_MAX` seconds at most, where kombu's default backs off to 30 s:
after a 60 s outage the sweeps would otherwise resume up to 14 s after Redis did.
"""

from __future__ import annotations

import functools

import redis
from celery.worker.consumer import Consumer as CeleryConsumer
from kombu.transport import redis as kombu_redis

RECONNECT_INTERVAL_START = 0.5
RECONNECT_INTERVAL_STEP = 0.5
RECONNECT_INTERVAL_MAX = 2.0

_original_connparams = kombu_redis.Channel._connparams


def _connparams(self, asynchronous: bool = False) -> dict:
    transport = self.connection
    if transport is None or transport.client is None:
        raise redis.exceptions.ConnectionError(
            "the broker connection of this channel is closed")
    return _original_connparams(self, asynchronous=asynchronous)


def install() -> None:
    """Guard kombu's Redis channels (idempotent)."""
    kombu_redis.Channel._connparams = _connparams


class Consumer(CeleryConsumer):
    """Celery's consumer, reconnecting to the broker at most every 2 s."""

    def ensure_connected(self, conn):
        conn.ensure_connection = functools.partial(
            conn.ensure_connection, interval_start=RECONNECT_INTERVAL_START,
            interval_step=RECONNECT_INTERVAL_STEP, interval_max=RECONNECT_INTERVAL_MAX)
        return super().ensure_connected(conn)


install()
