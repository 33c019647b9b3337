"""How ``make test`` hands tests to its pytest-xdist workers (the root conftest.py
installs it for ``--dist load``).

xdist's load scheduling sends each worker tests in collection order, which keeps
pytest-django's order on every worker (rolled-back tests before transactional ones,
whose flush empties the tables the data migrations filled). But it queues up to an
eighth of the remaining tests on a worker at a time: measured on this suite, one worker
was left with a queue of socket tests (29 s of work) while the other finished the
quick engine tests and idled for 26 s. Here a worker holds at most ``QUEUE`` tests
ahead: tests still go out in collection order, and whichever worker is free takes the
next. pytest-xdist is pinned (requirements-dev.txt); this leans on LoadScheduling's
``pending``, ``node2pending`` and ``_send_tests``.
"""

from __future__ import annotations

from xdist.scheduler import LoadScheduling

# Tests a worker holds ahead of the one it runs: enough that it never waits for the
# controller between two quick tests, few enough that no worker is left with a backlog.
QUEUE = 4


class ShortQueueLoadScheduling(LoadScheduling):
    def __init__(self, config, log=None) -> None:
        super().__init__(config, log)
        self.maxschedchunk = QUEUE  # the first batch each worker gets

    def check_schedule(self, node, duration: float = 0) -> None:
        if node.shutting_down:
            return
        if not self.pending:
            node.shutdown()
            return
        missing = QUEUE - len(self.node2pending[node])
        if missing > 0:
            self._send_tests(node, missing)
