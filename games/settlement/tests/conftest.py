"""The settlement's postings run under the ledger tests' checks: deferred triggers made
to fire after each rolled-back test, refusals read in the source language."""

from ledger.tests.conftest import (  # noqa: F401 (fixtures, autouse)
    deferred_ledger_triggers_fire,
    refusals_in_the_source_language,
)
