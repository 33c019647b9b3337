"""Ledger tests run on real PostgreSQL.

Most tests run inside a transaction that is rolled back (fast); the zero-sum and
"has legs" triggers of migration 0002 are DEFERRED to commit, which never comes there,
so after each such test they are made to fire with ``SET CONSTRAINTS ALL IMMEDIATE``:
a test that left an unbalanced transaction errors. Tests about commits, threads, or
refusals inside ``ledger_post``'s savepoint-less block use ``transaction=True``.
"""

import pytest
from django.db import connection
from django.utils import translation


@pytest.fixture(autouse=True)
def refusals_in_the_source_language():
    """LedgerError texts render in the active language (docs/i18n.md); these tests read
    them in the source language, whatever an earlier test's request left active."""
    with translation.override("zh-hans"):
        yield


@pytest.fixture(autouse=True)
def deferred_ledger_triggers_fire(request):
    marker = request.node.get_closest_marker("django_db")
    wrapped = marker is not None and not marker.kwargs.get("transaction", False)
    if wrapped:
        request.getfixturevalue("db")  # set up first, so torn down after the check below
    yield
    if wrapped:
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
