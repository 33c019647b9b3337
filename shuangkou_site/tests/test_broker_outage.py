"""Celery workers outlive Redis outages (shuangkou_site.broker_guard).

A worker died for good when the broker went away while it held an unacknowledged
message: closing the broken connection restored the message through a channel whose
transport had already lost its connection (``'NoneType' object has no attribute
'hostname'``). The first test builds that state with kombu alone; the second stops a
redis-server of its own three times under a real worker started as the operators'
unit starts it, and sees the worker alive and working after each outage."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import kombu
import pytest
from kombu.common import ignore_errors

from common.testing.server_helpers import ROOT, private_redis, this_database_url
from shuangkou_site.celery import app as celery_app
from shuangkou_site.deploy_units import unit_command

TASK = "games.tasks.sweep_tables_task"  # harmless on an empty database


def test_closing_a_channel_whose_connection_is_gone_is_a_connection_error():
    """What Celery's consumer does after a broker connection breaks: ``collect()``
    leaves the transport without its connection, then ``close()`` closes the default
    channel, which restores its unacknowledged message. Unguarded, that raised
    AttributeError past ``ignore_errors`` and the worker exited ("Unrecoverable
    error")."""
    with private_redis() as url, kombu.Connection(url) as connection:
        queue = kombu.Queue(f"outage-{uuid.uuid4().hex}")
        with connection.Producer() as producer:
            producer.publish({"n": 1}, routing_key=queue.name, declare=[queue])
        message = queue(connection.default_channel).get(no_ack=False)
        assert message is not None and not message.acknowledged
        connection._do_close_transport()  # the state collect() leaves

        ignore_errors(connection, connection.close)  # raised AttributeError before

        assert connection._default_channel is None or connection._default_channel.closed


# --- a real worker, a real outage ----------------------------------------------------------

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_redis(port: int) -> subprocess.Popen:
    server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                               "--save", "", "--appendonly", "no"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server
        except OSError:
            assert server.poll() is None and time.monotonic() < deadline, \
                "redis-server did not start"
            time.sleep(0.05)


def stop_redis(server: subprocess.Popen) -> None:
    server.terminate()
    server.wait(timeout=30)


def wait_for(log: Path, text: str, count: int, worker: subprocess.Popen,
             seconds: float = 120) -> None:
    """Until the worker's log holds ``text`` at least ``count`` times; the worker must
    stay alive meanwhile."""
    deadline = time.monotonic() + seconds
    while log.read_text(errors="replace").count(text) < count:
        assert worker.poll() is None, f"the worker exited:\n{log.read_text()[-4000:]}"
        assert time.monotonic() < deadline, \
            f"no {text!r} ×{count} in the worker's log:\n{log.read_text()[-4000:]}"
        time.sleep(0.1)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
# The test settings run tasks eagerly; send_task goes to the broker regardless, which is
# what this test wants, and says so in a warning.
@pytest.mark.filterwarnings("ignore::celery.exceptions.AlwaysEagerIgnored")
def test_a_worker_lives_through_three_broker_outages_and_works_after_each(tmp_path):
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    redis_server = start_redis(port)
    log = tmp_path / "worker.log"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "shuangkou_site.settings.prod",
           "DJANGO_SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "127.0.0.1",
           "DATABASE_URL": this_database_url(), "REDIS_URL": url, "LOG_LEVEL": "INFO",
           "CELERY_LOG_LEVEL": "INFO"}
    env.pop("GAMES_DEAL_SEED", None)  # production refuses one
    env.pop("METRICS_TOKEN", None)
    command = unit_command("shuangkou-worker-live", bin_dir=os.path.dirname(sys.executable),
                           env=env)
    with open(log, "ab") as out:
        worker = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out,
                                  stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_for(log, "ready.", 1, worker)
        for outage in range(1, 4):
            # A task held unacknowledged (its ETA is an hour away) while the broker goes.
            with celery_app.connection_for_write(url) as connection:
                held = celery_app.send_task(TASK, countdown=3600, connection=connection)
            wait_for(log, held.id, 1, worker)
            stop_redis(redis_server)
            wait_for(log, "Connection to broker lost", outage, worker)
            wait_for(log, "Cannot connect to redis", outage, worker)  # it retried, down
            redis_server = start_redis(port)
            wait_for(log, "Connected to redis", outage + 1, worker)
            with celery_app.connection_for_write(url) as connection:
                done = celery_app.send_task(TASK, connection=connection)
            wait_for(log, f"{done.id}] succeeded", 1, worker)
        output = log.read_text()
        assert "Unrecoverable error" not in output
        assert worker.poll() is None
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGTERM)
            try:
                worker.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, signal.SIGKILL)
                worker.wait()
        if redis_server.poll() is None:
            stop_redis(redis_server)
