"""The load client's collector is kept out of its measured phases."""

import gc

import pytest

from games.loadtest.client_gc import GcPauses, collector_off, collector_on


@pytest.fixture
def collector_restored():
    yield
    gc.callbacks[:] = [cb for cb in gc.callbacks
                       if not isinstance(getattr(cb, "__self__", None), GcPauses)]
    gc.unfreeze()
    gc.enable()


def test_a_measured_phase_runs_without_automatic_collections(collector_restored):
    collector_off()
    assert not gc.isenabled()
    assert gc.get_freeze_count() > 0  # what the client held before is out of sight
    collector_on()
    assert gc.isenabled()


def test_collections_that_run_all_the_same_are_counted(collector_restored):
    pauses = GcPauses()
    gc.collect()
    gc.collect()
    assert len(pauses.pauses) == 2
    assert all(pause >= 0 for pause in pauses.pauses)
