"""Test support shared by every app: running work in threads started together, each
with its own database connection (real concurrency against PostgreSQL, for the tests
of races: use them from a ``django_db(transaction=True)`` test)."""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable

from django.db import connection


def run_threads(count: int, work: Callable[[int], object]) -> list:
    """Run ``work(index)`` in ``count`` threads released together by a barrier; return
    each result (or the exception, with its traceback printed)."""
    barrier = threading.Barrier(count)
    results: list = [None] * count

    def target(index: int) -> None:
        try:
            barrier.wait()
            results[index] = work(index)
        except BaseException as error:  # noqa: BLE001 - reported to the test
            traceback.print_exc()
            results[index] = error
        finally:
            connection.close()  # each thread has its own connection

    threads = [threading.Thread(target=target, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a thread hung (deadlock?)"
    return results
