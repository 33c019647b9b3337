"""The channel layer over several Redis servers, the broker on its own
(docs/operations.md, "Beyond one machine")."""

import importlib
import os
from unittest import mock

from shuangkou_site.settings.base import redis_channel_layer


def test_a_list_of_urls_makes_one_layer_host_per_server_in_order():
    layer = redis_channel_layer(["redis://10.0.0.1:6379/0", "redis://10.0.0.2:6379/0"], "sk")

    assert [host["address"] for host in layer["CONFIG"]["hosts"]] \
        == ["redis://10.0.0.1:6379/0", "redis://10.0.0.2:6379/0"]
    assert layer["CONFIG"]["prefix"] == "sk"


def test_prod_reads_the_layer_servers_and_the_broker_from_the_environment():
    env = {"DJANGO_SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "example.org",
           "DATABASE_URL": "postgres://u@db:5432/sk", "REDIS_URL": "redis://cache:6379/0",
           "CHANNEL_LAYER_REDIS_URLS": "redis://l1:6379/0, redis://l2:6379/0",
           "CELERY_BROKER_URL": "redis://broker:6379/0"}
    with mock.patch.dict(os.environ, env):
        for name in ("GAMES_DEAL_SEED", "DB_CONN_MAX_AGE", "METRICS_TOKEN"):
            os.environ.pop(name, None)
        prod = importlib.reload(importlib.import_module("shuangkou_site.settings.prod"))

    hosts = prod.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]
    assert [host["address"] for host in hosts] == ["redis://l1:6379/0", "redis://l2:6379/0"]
    assert prod.CELERY_BROKER_URL == "redis://broker:6379/0"
    assert prod.CACHES["default"]["LOCATION"] == "redis://cache:6379/0"
