"""/healthz names each dependency and answers 503 unless games can be served: the
database and Redis answer, and the sweeper and settlement keep up. Real PostgreSQL and
Redis; a Redis outage is a refused connection (a port bound but not listening)."""

from datetime import timedelta

import pytest
from django.db import DatabaseError, connection
from django.utils import timezone

from common.testing.server_helpers import refusing_port
from games.live import sweeps
from games.live.sweep_clock import note_sweep
from games.models import GameRecord, Table
from games.testing.room_helpers import make_player, make_room

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed_port():
    with refusing_port() as port:
        yield port


def game(*, status: str, deadline=None, ended_at=None, settled_at=None) -> GameRecord:
    room = make_room(f"health {GameRecord.objects.count()}")
    table, _ = Table.objects.get_or_create(room=room, number=1)
    players = [make_player(f"h{GameRecord.objects.count()}-{seat}") for seat in range(4)]
    return GameRecord.objects.create(
        table=table, room=room, rule_set_name=room.rule_set.name,
        players=[player.pk for player in players], status=status, deadline=deadline,
        ended_at=ended_at, settled_at=settled_at)


def test_healthz_reports_every_dependency_ok(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "redis": "ok",
                               "sweeper_lag_seconds": 0.0, "last_sweep_seconds": None,
                               "oldest_unsettled_seconds": 0.0,
                               "failing": []}


def test_healthz_answers_503_when_the_database_fails(client, monkeypatch):
    def broken_cursor(*args, **kwargs):
        raise DatabaseError("connection refused")

    monkeypatch.setattr(connection, "cursor", broken_cursor)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["database"] == "error"
    assert response.json()["failing"] == ["database"]


def test_healthz_answers_503_when_redis_refuses_connections(client, settings, closed_port):
    settings.HEALTH_REDIS_URL = f"redis://127.0.0.1:{closed_port}/0"

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["redis"] == "error"
    assert response.json()["database"] == "ok"
    assert response.json()["failing"] == ["redis"]


def test_a_turn_expired_past_the_limit_means_the_sweeper_lags(client, settings):
    settings.HEALTH_SWEEPER_LAG_LIMIT_SECONDS = 30
    now = timezone.now()
    game(status=GameRecord.Status.PLAYING, deadline=now - timedelta(seconds=5))
    game(status=GameRecord.Status.PLAYING, deadline=now + timedelta(seconds=60))

    recent = client.get("/healthz")
    assert recent.status_code == 200
    assert 5 <= recent.json()["sweeper_lag_seconds"] < 30

    game(status=GameRecord.Status.PLAYING, deadline=now - timedelta(seconds=90))
    # An ended game's old deadline is no turn anyone waits for.
    game(status=GameRecord.Status.ENDED, deadline=now - timedelta(hours=1), ended_at=now,
         settled_at=now)

    lagging = client.get("/healthz")
    assert lagging.status_code == 503
    assert 90 <= lagging.json()["sweeper_lag_seconds"] < 120
    assert lagging.json()["failing"] == ["sweeper_lag"]


def test_an_ended_game_unsettled_past_the_limit_answers_503(client, settings):
    settings.HEALTH_UNSETTLED_AGE_LIMIT_SECONDS = 300
    now = timezone.now()
    game(status=GameRecord.Status.ENDED, ended_at=now - timedelta(hours=2),
         settled_at=now - timedelta(hours=1))
    game(status=GameRecord.Status.ENDED, ended_at=now - timedelta(seconds=20))

    recent = client.get("/healthz")
    assert recent.status_code == 200
    assert 20 <= recent.json()["oldest_unsettled_seconds"] < 300

    game(status=GameRecord.Status.ENDED, ended_at=now - timedelta(minutes=10))

    stuck = client.get("/healthz")
    assert stuck.status_code == 503
    assert 600 <= stuck.json()["oldest_unsettled_seconds"] < 700
    assert stuck.json()["failing"] == ["unsettled"]


def test_a_sweep_that_found_a_late_turn_reports_its_lag_after_the_turn_is_gone(
        client, settings):
    """The sweeper's lag as it is: a sweep held up behind other work found a turn 32 s
    late. The turn is handled by then, so no expired turn waits now; /healthz still
    says how late that sweep came (the old reading said 0 and ok)."""
    settings.HEALTH_SWEEPER_LAG_LIMIT_SECONDS = 5
    late = game(status=GameRecord.Status.PLAYING,
                deadline=timezone.now() - timedelta(seconds=32))
    GameRecord.objects.filter(pk=late.pk).update(status=GameRecord.Status.ENDED)
    note_sweep(timezone.now(), late.deadline)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert 32 <= response.json()["sweeper_lag_seconds"] < 60
    assert response.json()["last_sweep_seconds"] < 5
    assert response.json()["failing"] == ["sweeper_lag"]


def test_no_sweep_for_longer_than_the_limit_means_the_sweeper_stalled(client, settings):
    settings.HEALTH_LAST_SWEEP_LIMIT_SECONDS = 10
    sweeps.sweep_deadlines()  # nothing expired: a sweep on time

    fresh = client.get("/healthz")
    assert fresh.status_code == 200
    assert fresh.json()["sweeper_lag_seconds"] == 0.0
    assert 0 <= fresh.json()["last_sweep_seconds"] < 10

    note_sweep(timezone.now() - timedelta(seconds=25), None)  # then none since

    stalled = client.get("/healthz")
    assert stalled.status_code == 503
    assert 25 <= stalled.json()["last_sweep_seconds"] < 60
    assert stalled.json()["failing"] == ["sweeper_stalled"]
