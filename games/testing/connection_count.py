"""How many PostgreSQL connections one served process holds: the load (plain HTTP GETs,
some concurrent) and the count, shared by the pool test and scripts/db_connections.py."""

from __future__ import annotations

import urllib.request
from concurrent.futures import ThreadPoolExecutor

import psycopg


def hammer(port: int, *, requests: int, concurrency: int,
           paths: tuple[str, ...] = ("/healthz", "/api/rooms")) -> list[int]:
    """GET ``paths`` in turn ``requests`` times, ``concurrency`` at once; the statuses.
    Both default paths are sync views that query the database and render no template:
    a production server's pages need ``collectstatic``'s manifest first."""

    def get(number: int) -> int:
        url = f"http://127.0.0.1:{port}{paths[number % len(paths)]}"
        try:
            with urllib.request.urlopen(url, timeout=30) as reply:
                return reply.status
        except urllib.error.HTTPError as error:
            return error.code

    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        return list(pool.map(get, range(requests)))


def connections_named(dsn: str, application_name: str) -> int:
    """Backends in pg_stat_activity whose application_name is ``application_name``."""
    with psycopg.connect(dsn, autocommit=True) as watcher:
        row = watcher.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
            [application_name]).fetchone()
    return row[0]
