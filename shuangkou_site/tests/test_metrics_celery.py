"""Celery in the metrics, against a real broker (a redis-server of the test's own) and a
real worker on the production settings: each queue's depth, read from the broker at
scrape time; each task's lag from its enqueueing (a header stamped when published) to
its start, observed in the worker's child process and read from the shared folder; the
worker's pool gauges, gone with its child; and the worker's log lines, JSON."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from prometheus_client import CollectorRegistry, generate_latest, multiprocess

from common.testing.server_helpers import ROOT, private_redis, this_database_url
from shuangkou_site.celery import app as celery_app
from shuangkou_site.tests.metrics_helpers import (
    TOKEN,
    Samples,
    celery_broker,
    parse_samples,
    sample,
    scrape_here,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

TASK = "games.tasks.sweep_tables_task"  # harmless on an empty database


def folder_samples(folder: str) -> Samples:
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=folder)
    return parse_samples(generate_latest(registry).decode())


def start_worker(redis_url: str, folder: str) -> subprocess.Popen:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "shuangkou_site.settings.prod",
           "DJANGO_SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "127.0.0.1",
           "DATABASE_URL": this_database_url(), "REDIS_URL": redis_url,
           "PROMETHEUS_MULTIPROC_DIR": folder, "LOG_LEVEL": "INFO"}
    env.pop("GAMES_DEAL_SEED", None)  # production refuses one
    env.pop("METRICS_TOKEN", None)
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "--quiet", "-A", "shuangkou_site", "worker",
         "-Q", "celery", "-c", "1", "--without-gossip", "--without-mingle",
         "--without-heartbeat", "-l", "INFO"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True)


def stop_worker(worker: subprocess.Popen) -> str:
    """Its warm shutdown (SIGTERM), then everything it wrote."""
    os.killpg(worker.pid, signal.SIGTERM)
    try:
        output, _ = worker.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(worker.pid, signal.SIGKILL)
        output, _ = worker.communicate()
        pytest.fail(f"the worker did not stop:\n{output}")
    return output


def test_queue_depths_task_lags_and_the_workers_pool_reach_the_metrics(settings, tmp_path):
    settings.METRICS_TOKEN = TOKEN
    folder = str(tmp_path)
    with private_redis() as redis_url, celery_broker(redis_url):
        with celery_app.connection_for_write(redis_url) as connection:
            for _ in range(3):
                celery_app.send_task(TASK, queue="celery", connection=connection)
            celery_app.send_task(TASK, queue=settings.GAMES_BOT_QUEUE, connection=connection)
        queued = scrape_here()

        worker = start_worker(redis_url, folder)
        try:
            deadline = time.monotonic() + 90
            while sample(folder_samples(folder), "shuangkou_celery_task_lag_seconds_count",
                         queue="celery") < 3:
                assert worker.poll() is None, worker.communicate()[0]
                assert time.monotonic() < deadline, "the worker did not run the tasks"
                time.sleep(0.2)
            drained = scrape_here()
            working = folder_samples(folder)
        finally:
            output = stop_worker(worker)
        stopped = folder_samples(folder)

    assert sample(queued, "shuangkou_metrics_source_up", source="broker") == 1
    assert sample(queued, "shuangkou_celery_queue_depth", queue="celery") == 3
    assert sample(queued, "shuangkou_celery_queue_depth", queue=settings.GAMES_BOT_QUEUE) == 1
    assert sample(drained, "shuangkou_celery_queue_depth", queue="celery") == 0
    assert sample(drained, "shuangkou_celery_queue_depth", queue=settings.GAMES_BOT_QUEUE) == 1

    assert sample(working, "shuangkou_celery_task_lag_seconds_count", queue="celery") == 3
    assert sample(working, "shuangkou_celery_task_lag_seconds_sum", queue="celery") > 0
    pool_pids = {dict(labels)["pid"] for (name, labels) in working
                 if name == "shuangkou_db_pool_max_connections"}
    assert len(pool_pids) == 1 and str(worker.pid) not in pool_pids  # the child's
    assert not any(name == "shuangkou_db_pool_max_connections" for name, _ in stopped)

    # Every log line one JSON object. Celery prints its shutdown notice itself, not
    # through logging (celery.apps.worker.safe_say): docs/operations.md says so.
    lines = [line for line in output.splitlines()
             if line.strip() and line != "worker: Warm shutdown (MainProcess)"]
    records = [json.loads(line) for line in lines]
    assert sum(record["logger"] == "celery.app.trace" and "succeeded" in record["message"]
               for record in records) == 3
