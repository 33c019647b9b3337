"""The pool's check before it lends a connection (shuangkou_site.pool_check), against the
real PostgreSQL: a quiet idle connection is lent with no query; one the server has
closed is found and replaced."""

import os
import resource
import select

import psycopg
import pytest
from psycopg_pool import ConnectionPool

from common.testing.server_helpers import this_database_url
from shuangkou_site import pool_check

pytestmark = pytest.mark.django_db  # for the test database's name

GOODBYE_SECONDS = 10  # an upper bound on the wait for the server's goodbye, not a sleep


def _connect() -> psycopg.Connection:
    return psycopg.connect(this_database_url(), autocommit=True)


def _terminate(victim_pid: int) -> None:
    with _connect() as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [victim_pid])


def _full_checks(monkeypatch) -> list:
    """Record the full checks (a query each) rather than run them."""
    called = []
    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(called.append))
    return called


def test_a_quiet_idle_connection_is_lent_without_a_query(monkeypatch):
    with _connect() as connection:
        connection.execute("SELECT 1")
        full = _full_checks(monkeypatch)
        pool_check.check_idle_connection(connection)
    assert full == []


def test_a_connection_left_in_a_transaction_gets_the_full_check(monkeypatch):
    with _connect() as connection:
        connection.autocommit = False
        connection.execute("SELECT 1")
        full = _full_checks(monkeypatch)
        pool_check.check_idle_connection(connection)
    assert full == [connection]


def test_a_connection_the_server_closed_is_refused():
    with _connect() as victim:
        _terminate(victim.info.backend_pid)
        _wait_readable(victim.fileno())
        with pytest.raises(psycopg.OperationalError):
            pool_check.check_idle_connection(victim)


def test_a_connection_on_a_descriptor_above_1024_is_checked_too(monkeypatch):
    """A web process with a thousand sockets open gets its database connections on
    descriptors select() cannot watch; the check must still look, not fail."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 1200
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(wanted)]
    try:
        with _connect() as victim:
            assert victim.fileno() > 1024
            full = _full_checks(monkeypatch)
            pool_check.check_idle_connection(victim)  # quiet: lent with no query
            assert full == []
            monkeypatch.undo()
            _terminate(victim.info.backend_pid)
            _wait_readable(victim.fileno())
            with pytest.raises(psycopg.OperationalError):
                pool_check.check_idle_connection(victim)
    finally:
        for descriptor in held:
            os.close(descriptor)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def _wait_readable(fileno: int) -> None:
    poller = select.poll()
    poller.register(fileno, select.POLLIN)
    poller.poll(GOODBYE_SECONDS * 1000)  # the server's goodbye arrived (or the bound)


def test_a_closed_connection_is_refused():
    connection = _connect()
    connection.close()
    with pytest.raises(psycopg.OperationalError):
        pool_check.check_idle_connection(connection)


def test_the_pool_replaces_a_connection_the_server_closed_while_it_was_idle():
    with ConnectionPool(this_database_url(), min_size=1, max_size=1, open=True,
                        check=pool_check.check_idle_connection,
                        kwargs={"autocommit": True}) as pool:
        with pool.connection() as connection:
            first_pid = connection.info.backend_pid
            idle = connection
        _terminate(first_pid)
        _wait_readable(idle.fileno())
        with pool.connection() as connection:
            second_pid = connection.info.backend_pid
            assert connection.execute("SELECT 1").fetchone() == (1,)
    assert second_pid != first_pid


def test_djangos_pool_lends_with_this_check():
    """The site's backend (shuangkou_site.postgres) gives Django's pool this check;
    CONN_HEALTH_CHECKS is off, so without it the pool would check nothing."""
    from django.db import connection

    assert connection.settings_dict["ENGINE"] == "shuangkou_site.postgres"
    assert connection.pool._check is pool_check.check_idle_connection
