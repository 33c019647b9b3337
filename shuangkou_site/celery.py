"""The Celery app: configured from Django settings (CELERY_* names), tasks autodiscovered."""

import logging
import os

from celery import Celery

# Before any broker connection: kombu's Redis channels survive a close after an outage.
from shuangkou_site import broker_guard  # noqa: F401

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shuangkou_site.settings.dev")

app = Celery("shuangkou_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Receivers every process with the app needs: the site's logging, each task's database
# connections, the tasks' lag and pool metrics.
from shuangkou_site import celery_logging, task_connections  # noqa: E402, F401
from shuangkou_site.metrics import task_signals  # noqa: E402, F401


def warm_task_producer() -> None:
    """Load the broker transport and open a pooled connection now, at server start.

    Otherwise the first game to end pays for it inside ``on_commit``, on the server's
    one database thread, and every table of the process waits (measured: the load
    test's slowest actions, up to a second, were the first settlement of each process).
    """
    if app.conf.task_always_eager:
        return
    app.finalize()  # binds every task: done lazily on the first send otherwise
    try:
        with app.producer_or_acquire() as producer:
            producer.connection.ensure_connection(max_retries=1)
    except Exception as error:  # the broker may come up later: the first send connects
        logging.getLogger(__name__).warning("task broker not reachable at start: %s", error)
