"""/metrics is Prometheus's only: off without METRICS_TOKEN, 401 without that token."""

import os
import subprocess
import sys

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from common.testing.server_helpers import refusing_port
from shuangkou_site.metrics.exposition import forget_dead_processes
from shuangkou_site.tests.metrics_helpers import TOKEN, celery_broker, parse_samples, sample


@pytest.fixture
def client() -> Client:
    return Client(HTTP_HOST="127.0.0.1")


def test_the_endpoint_is_off_while_no_token_is_set(client, settings):
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics").status_code == 404
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 404


@pytest.mark.parametrize("authorization", [None, "Bearer wrong", f"Basic {TOKEN}",
                                           f"Bearer {TOKEN}x", "Bearer"])
def test_a_request_without_the_token_is_refused_with_401(client, settings, authorization):
    settings.METRICS_TOKEN = TOKEN
    headers = {} if authorization is None else {"HTTP_AUTHORIZATION": authorization}
    response = client.get("/metrics", **headers)
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert b"shuangkou_" not in response.content


@pytest.mark.django_db
def test_a_staff_session_is_not_enough(client, settings):
    settings.METRICS_TOKEN = TOKEN
    staff = get_user_model().objects.create_user(username="op", password="pw", is_staff=True,
                                                 is_superuser=True)
    client.force_login(staff)
    assert client.get("/metrics").status_code == 401


@pytest.mark.django_db
def test_the_token_gets_the_metrics_in_prometheus_text_format(client, settings):
    settings.METRICS_TOKEN = TOKEN
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    assert "no-cache" in response["Cache-Control"]
    samples = parse_samples(response.content.decode())
    assert sample(samples, "shuangkou_metrics_source_up", source="database") == 1
    assert sample(samples, "shuangkou_tables_playing") == 0
    assert ("shuangkou_action_seconds_count", frozenset({("stage", "committed")})) in samples


@pytest.mark.django_db
def test_a_broker_that_refuses_leaves_the_depths_out_and_the_scrape_answers(client, settings):
    settings.METRICS_TOKEN = TOKEN
    with refusing_port() as port, celery_broker(f"redis://127.0.0.1:{port}/0"):
        response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200
    samples = parse_samples(response.content.decode())
    assert sample(samples, "shuangkou_metrics_source_up", source="broker") == 0
    assert sample(samples, "shuangkou_metrics_source_up", source="database") == 1
    assert not any(name == "shuangkou_celery_queue_depth" for name, _ in samples)


def test_a_dead_processs_live_gauges_are_forgotten_and_a_live_ones_kept(tmp_path):
    dead = _pid_of_an_ended_process()
    for pid in (dead, os.getpid()):
        (tmp_path / f"gauge_liveall_{pid}.db").write_bytes(b"")
    (tmp_path / f"histogram_{dead}.db").write_bytes(b"")  # summed for ever: kept

    forget_dead_processes(str(tmp_path))

    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(
        [f"gauge_liveall_{os.getpid()}.db", f"histogram_{dead}.db"])


def _pid_of_an_ended_process() -> int:
    process = subprocess.Popen([sys.executable, "-c", ""])
    process.wait()
    return process.pid
