"""The test settings talk to real PostgreSQL and Redis, and the ASGI app routes both protocols."""

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.staticfiles import finders
from django.db import connection

from shuangkou_site import celery_app


@pytest.mark.django_db
def test_tests_run_against_postgresql():
    assert connection.vendor == "postgresql"


def test_channel_layer_round_trips_a_message_through_redis():
    layer = get_channel_layer()
    assert type(layer).__module__ == "channels_redis.pubsub"

    async def send_then_receive():
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "table.event", "seq": 1})
        return await layer.receive(channel)

    assert async_to_sync(send_then_receive)() == {"type": "table.event", "seq": 1}


def test_asgi_application_routes_http_and_websockets():
    from shuangkou_site.asgi import application

    assert set(application.application_mapping) == {"http", "websocket"}


def test_celery_takes_its_broker_from_the_settings():
    assert celery_app.conf.broker_url == settings.CELERY_BROKER_URL
    assert celery_app.conf.task_always_eager is True


def test_site_stylesheet_is_a_static_file():
    assert finders.find("css/site.css") is not None


@pytest.mark.django_db
def test_tests_use_the_connection_pool_production_uses():
    database = settings.DATABASES["default"]
    assert database["CONN_MAX_AGE"] == 0
    assert connection.pool is not None
    assert database["OPTIONS"]["pool"]["max_size"] >= database["OPTIONS"]["pool"]["min_size"]


def test_the_pool_is_sized_from_the_environment(monkeypatch):
    from shuangkou_site.settings.base import pooled_postgres

    monkeypatch.setenv("DB_POOL_MIN_SIZE", "1")
    monkeypatch.setenv("DB_POOL_MAX_SIZE", "7")
    monkeypatch.setenv("DB_POOL_TIMEOUT", "2.5")
    database = pooled_postgres("postgres://u@db:5432/site")
    assert database["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 7, "timeout": 2.5}
    assert database["CONN_MAX_AGE"] == 0
    assert database["OPTIONS"]["application_name"] == "shuangkou"


def test_the_pool_size_refuses_words(monkeypatch):
    from environs import EnvValidationError

    from shuangkou_site.settings.base import pooled_postgres

    monkeypatch.setenv("DB_POOL_MAX_SIZE", "many")
    with pytest.raises(EnvValidationError, match="DB_POOL_MAX_SIZE"):
        pooled_postgres("postgres://u@db:5432/site")


def test_the_socket_rate_limit_comes_from_the_environment(monkeypatch):
    import importlib

    from shuangkou_site.settings import base

    try:
        monkeypatch.setenv("GAMES_SOCKET_RATE_PER_SECOND", "2.5")
        monkeypatch.setenv("GAMES_SOCKET_RATE_BURST", "4")
        assert importlib.reload(base).GAMES_SOCKET_RATE == {"per_second": 2.5, "burst": 4.0}
        monkeypatch.delenv("GAMES_SOCKET_RATE_PER_SECOND")
        monkeypatch.delenv("GAMES_SOCKET_RATE_BURST")
        assert importlib.reload(base).GAMES_SOCKET_RATE == {"per_second": 10.0, "burst": 20.0}
    finally:
        monkeypatch.undo()
        importlib.reload(base)


def test_the_socket_caps_come_from_the_environment(monkeypatch):
    import importlib

    from shuangkou_site.settings import base

    try:
        monkeypatch.setenv("GAMES_SOCKETS_PER_USER", "3")
        monkeypatch.setenv("GAMES_SOCKETS_PER_ADDRESS", "500")
        reloaded = importlib.reload(base)
        assert (reloaded.GAMES_SOCKETS_PER_USER, reloaded.GAMES_SOCKETS_PER_ADDRESS) == (3, 500)
        monkeypatch.delenv("GAMES_SOCKETS_PER_USER")
        monkeypatch.delenv("GAMES_SOCKETS_PER_ADDRESS")
        reloaded = importlib.reload(base)
        assert (reloaded.GAMES_SOCKETS_PER_USER, reloaded.GAMES_SOCKETS_PER_ADDRESS) == (8, 64)
    finally:
        monkeypatch.undo()
        importlib.reload(base)


def test_test_sockets_keep_the_production_rate_with_a_burst_no_game_reaches():
    from shuangkou_site.settings import base

    assert settings.GAMES_SOCKET_RATE == {"per_second": base.GAMES_SOCKET_RATE["per_second"],
                                          "burst": 1_000_000.0}
