"""PostgreSQL connections of the event loop itself, for the live path's actions.

Django's ORM runs on one database thread per process (``database_sync_to_async``): every
table of the process queues there, behind whatever else holds the thread (a deal's
reads, a snapshot, the heartbeat's query), and each trip is a thread handoff that waits
for the GIL while the loop is busy. An action is one statement (games.live.append), so
it can run on the loop instead, through a small pool of psycopg's async connections:
tables then wait for one another only inside PostgreSQL, and a slow read elsewhere holds
nobody's action.

One pool per running event loop (a server process has one; tests run many, and close
theirs with :func:`close`), of ``GAMES_ACTION_POOL_SIZE`` connections at most.
Autocommit: each statement is its own transaction.
"""

from __future__ import annotations

import asyncio

from django.conf import settings
from django.db import connections
from psycopg.conninfo import make_conninfo
from psycopg_pool import AsyncConnectionPool

from common.per_loop import PerLoop

# A loop that ended without closing its pool: its connections close when they are
# collected; its entry is dropped when another loop opens one.
_pools: PerLoop[asyncio.Future] = PerLoop()


async def execute(sql: str, params: dict) -> tuple[int, tuple | None]:
    """Run one statement in its own transaction: its row count and its first row."""
    pool = await _pool()
    async with pool.connection() as connection, connection.cursor() as cursor:
        await cursor.execute(sql, params)
        row = await cursor.fetchone() if cursor.description else None
        return cursor.rowcount, row


def opened_pool() -> AsyncConnectionPool | None:
    """This loop's pool once it has opened (its usage figures: shuangkou_site.metrics),
    else None. Call on the loop."""
    opening = _pools.get()
    if opening is None or not opening.done() or opening.cancelled() or opening.exception():
        return None
    return opening.result()


async def close() -> None:
    """Close this loop's pool, if it has one (before the loop ends)."""
    opening = _pools.pop()
    if opening is not None:
        try:
            pool = await opening
        except Exception:  # it never opened: nothing to close
            return
        await pool.close()


async def _pool() -> AsyncConnectionPool:
    opening = _pools.get_or_make(lambda: asyncio.ensure_future(_open()))
    try:
        # Shielded: an action cancelled meanwhile must not cancel the others' pool.
        return await asyncio.shield(opening)
    except Exception:
        _pools.forget(opening)  # PostgreSQL was away: the next action tries again
        raise


async def _open() -> AsyncConnectionPool:
    pool = AsyncConnectionPool(
        _conninfo(), min_size=1, max_size=settings.GAMES_ACTION_POOL_SIZE,
        # How long an action waits for a connection (PostgreSQL away, or every
        # connection busy) before it fails with a server error the client retries.
        timeout=settings.GAMES_ACTION_POOL_TIMEOUT, kwargs={"autocommit": True},
        name="actions", open=False)
    try:
        await pool.open(wait=True, timeout=settings.GAMES_ACTION_POOL_TIMEOUT)
    except Exception:
        await pool.close()
        raise
    return pool


def _conninfo() -> str:
    # The settings of Django's own connection, read when the pool opens: under the test
    # runner they name the test database.
    database = connections["default"].settings_dict
    return make_conninfo(dbname=database["NAME"], user=database["USER"] or None,
                         password=database["PASSWORD"] or None,
                         host=database["HOST"] or None, port=database["PORT"] or None,
                         application_name=application_name())


def application_name() -> str:
    """How the pool's connections show in pg_stat_activity: the name of Django's own
    connection (DATABASE_URL's ``application_name``), with ``-actions``."""
    name = connections["default"].settings_dict.get("OPTIONS", {}).get("application_name")
    return f"{name or 'shuangkou'}-actions"
