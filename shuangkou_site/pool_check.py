"""The connection pool's check before it lends a connection (settings.base.pooled_postgres).

psycopg_pool's own check sends an empty query: a round trip at every borrow, and a web
process borrows at every job of its database thread and every request (CONN_MAX_AGE is
0 with the pool). At a cold start that was about a seventh of the database thread's
time (docs/performance.md). A connection that sits idle in the pool can only have gone
bad by the server closing it (a restart, an administrator, a crash), and a server that
closes a connection sends on it first — an error message, then end of file — so the
socket turns readable. This check looks at the socket without waiting: quiet, the
connection is lent as it is; anything to read, the full check runs and a connection that
no longer answers is replaced. A server that vanishes without a word (a cut network) is
found by the first query, as it would be a moment after any check."""

from __future__ import annotations

import select

import psycopg
from psycopg.pq import TransactionStatus
from psycopg_pool import ConnectionPool


def check_idle_connection(connection: psycopg.Connection) -> None:
    """Return if ``connection`` may be lent; raise if it is broken (psycopg_pool then
    discards it and tries another)."""
    if connection.closed or connection.broken:
        raise psycopg.OperationalError("the connection is closed")
    if connection.info.transaction_status != TransactionStatus.IDLE \
            or _has_input(connection.fileno()):
        ConnectionPool.check_connection(connection)


def _has_input(fileno: int) -> bool:
    """Whether the socket has something to read, or has hung up, without waiting.
    poll, not select: a process holding a thousand sockets opens its connections on
    descriptors above select's limit (1024), where select refuses."""
    poller = select.poll()
    poller.register(fileno, select.POLLIN)
    return bool(poller.poll(0))
