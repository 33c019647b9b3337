"""A served process holds no more PostgreSQL connections than its pool allows, however
many requests it serves (with persistent connections under ASGI each request's
thread kept one, and one process reached 91)."""

import os
import threading

import pytest

from common.testing.server_helpers import served, this_database_url
from games.testing.connection_count import connections_named, hammer

POOL_MAX = 4


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_prod_server_holds_at_most_the_pools_connections_after_200_requests():
    application_name = f"sk-pool-test-{os.getpid()}"
    prod = {
        "DJANGO_SETTINGS_MODULE": "shuangkou_site.settings.prod",
        "DJANGO_SECRET_KEY": "pool-test",
        "ALLOWED_HOSTS": "127.0.0.1",
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "SECURE_SSL_REDIRECT": "0",
        "DB_APPLICATION_NAME": application_name,
        "DB_POOL_MIN_SIZE": "1",
        "DB_POOL_MAX_SIZE": str(POOL_MAX),
        "DB_POOL_TIMEOUT": "20",
        "GAMES_DEAL_SEED": "",  # production refuses a fixed seed
    }
    peak = 0
    done = threading.Event()

    def watch() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, connections_named(this_database_url(), application_name))
            done.wait(0.05)

    with served(env=prod) as [port]:
        watcher = threading.Thread(target=watch)
        watcher.start()
        try:
            statuses = hammer(port, requests=100, concurrency=1)
            statuses += hammer(port, requests=100, concurrency=16)
        finally:
            done.set()
            watcher.join()
        after = connections_named(this_database_url(), application_name)
        print(f"pool max_size {POOL_MAX}: peak {peak} connections during 200 requests, "
              f"{after} after")

    assert statuses.count(200) == 200
    assert 1 <= after <= POOL_MAX
    assert peak <= POOL_MAX
