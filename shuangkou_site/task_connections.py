"""A task's database connections, handled as a request's are: before and after each
task, Django's ``close_old_connections`` hands a healthy connection back to the
process's pool and drops a broken one (the pool checks the next one it lends,
shuangkou_site.pool_check).

Celery's own handling closed the whole pool around every task in a prefork worker;
CELERY_DB_REUSE_MAX (settings.base) turns that off, and this takes its place.
"""

from __future__ import annotations

from celery import signals
from django.db import close_old_connections


@signals.task_prerun.connect
@signals.task_postrun.connect
def hand_connections_back(sender=None, **kwargs) -> None:
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return  # run inline, inside the caller's own connection and transaction
    close_old_connections()
