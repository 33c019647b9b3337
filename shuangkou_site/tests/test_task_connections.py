"""A prefork worker keeps its connection pool across tasks (shuangkou_site.task_connections,
CELERY_DB_REUSE_MAX): Celery's Django fixup closed the pool around every task, and every
sweep opened new PostgreSQL backends (docs/performance.md, "The cause: a new pool around
every task")."""

from types import SimpleNamespace

import psycopg
import pytest
from celery import signals
from celery.fixups.django import DjangoWorkerFixup
from django.db import connection

from shuangkou_site.celery import app


class _Task:
    """A task as the signals see it: hashable, with a request that is not eager."""
    request = SimpleNamespace(is_eager=False)


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def _run_a_task(fixup: DjangoWorkerFixup, task) -> int:
    """What a prefork worker's child does around one task: Celery's fixup and every
    receiver of the task signals, the task's own query between them."""
    fixup.on_task_prerun(sender=task)
    signals.task_prerun.send(sender=task, task_id="t", task=task, args=(), kwargs={})
    pid = _backend_pid()
    fixup.on_task_postrun(sender=task)
    signals.task_postrun.send(sender=task, task_id="t", task=task, args=(), kwargs={},
                              retval=None, state="SUCCESS")
    return pid


@pytest.mark.django_db(transaction=True)
def test_tasks_in_a_prefork_worker_reuse_the_pools_connections():
    assert connection.settings_dict["OPTIONS"].get("pool")  # the settings under test
    fixup = DjangoWorkerFixup(app)
    fixup.worker = SimpleNamespace(pool_cls="celery.concurrency.prefork:TaskPool")
    task = _Task()
    first = _run_a_task(fixup, task)
    pool = connection.pool
    opened = pool.get_stats().get("connections_num", 0)
    pids = {first} | {_run_a_task(fixup, task) for _ in range(5)}
    assert connection.pool is pool and not pool.closed
    assert pool.get_stats().get("connections_num", 0) == opened  # none opened since
    assert connection.connection is None  # each task handed its connection back
    assert len(pids) <= pool.max_size


@pytest.mark.django_db(transaction=True)
def test_a_task_whose_connection_broke_gets_a_working_one_next():
    fixup = DjangoWorkerFixup(app)
    fixup.worker = SimpleNamespace(pool_cls="celery.concurrency.prefork:TaskPool")
    task = _Task()
    broken = _run_a_task(fixup, task)
    # The server ends that backend, idle in the pool now, as a restart would: from a
    # connection outside the pool, which might otherwise lend the very one to end.
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    with psycopg.connect(**params, autocommit=True) as outside:
        ended = outside.execute("SELECT pg_terminate_backend(%s)", [broken]).fetchone()
    assert ended == (True,)
    pids = [_run_a_task(fixup, task) for _ in range(3)]
    assert broken not in pids
