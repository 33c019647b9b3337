"""How hard the property tests try, by hypothesis profile (the root conftest.py registers
``ci`` and ``dev``; docs/testing.md). Standard library and hypothesis only: the engine's
tests use it too.

``examples(n)``: a test's full count ``n`` under ``ci`` (what ``make test`` and CI run:
no check is dropped there), a quarter of it under ``dev`` for the inner loop.
``DERANDOMIZED``: under ``ci`` the stateful machines run derandomized, so a CI run never
fails by chance (their coverage checks depend on the paths a seed takes).
"""

from __future__ import annotations

from hypothesis import settings

CI = "ci"
SHARE = {CI: 1.0, "dev": 0.25}


def profile() -> str:
    return settings.get_current_profile_name()


def examples(full: int) -> int:
    """The number of examples to run of a test whose full count is ``full``."""
    return max(1, round(full * SHARE.get(profile(), 1.0)))


DERANDOMIZED = profile() == CI
