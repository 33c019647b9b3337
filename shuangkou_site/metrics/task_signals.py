"""Celery's side of the metrics, connected in every process that loads the Celery app
(shuangkou_site.celery): web processes and beat publish, workers run.

- Publishing stamps each task's message with the time it was enqueued (a header).
- A worker starting the task observes its lag behind that time, or behind its ETA if it
  has one, by the queue it came from. The clocks of the publishing and the working
  host are compared: keep them in sync (NTP).
- After each task a worker samples its database pool.
- A worker's child process that ends takes its live gauges with it.
"""

from __future__ import annotations

import os
import time
from datetime import datetime

from celery import signals
from prometheus_client import multiprocess

from common.metrics.instruments import TASK_LAG_SECONDS
from common.metrics.pool_usage import django_pool, record_pool_usage

ENQUEUED_AT = "shuangkou_enqueued_at"  # a message header: Unix time, seconds


@signals.before_task_publish.connect
def stamp_enqueue_time(headers: dict | None = None, **kwargs) -> None:
    if headers is not None:
        headers.setdefault(ENQUEUED_AT, time.time())


@signals.task_prerun.connect
def observe_task_lag(task=None, **kwargs) -> None:
    request = getattr(task, "request", None)
    enqueued = getattr(request, ENQUEUED_AT, None)
    if request is None or request.is_eager or not isinstance(enqueued, (int, float)):
        return
    due = enqueued
    if request.eta:  # a countdown is not lag: from when it was due
        due = max(due, datetime.fromisoformat(request.eta).timestamp())
    queue = (request.delivery_info or {}).get("routing_key") or "-"
    TASK_LAG_SECONDS.labels(queue=queue).observe(max(0.0, time.time() - due))


@signals.task_postrun.connect
def sample_pool(**kwargs) -> None:
    pool = django_pool()
    if pool is not None:
        record_pool_usage("default", pool)


@signals.worker_process_shutdown.connect
def forget_process(pid: int | None = None, **kwargs) -> None:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(pid or os.getpid())
