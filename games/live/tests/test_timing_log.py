"""The ``games.timing`` log lines (games/live/timing.py): action commits and refusals with
their time, the sweeper's lag behind a deadline, a settlement's lag behind the game's end."""

import gc
import logging
import re

import pytest

from games.errors import ActionError
from games.live import sweeps, timing
from games.live.lifecycle.act import game_act
from games.models import GameRecord
from games.testing import live_helpers
from games.testing.live_helpers import expire_turn
from games.testing.room_helpers import make_player, make_room, start_game_with_bots

private_channel_layer = live_helpers.private_channel_layer


def timing_lines(caplog, what: str) -> list[str]:
    return [record.getMessage() for record in caplog.records
            if record.name == "games.timing" and record.getMessage().startswith(what)]


@pytest.mark.django_db(transaction=True)
def test_actions_refusals_sweeps_and_settlements_log_their_timings(caplog, settings):
    caplog.set_level(logging.INFO, logger="games.timing")
    settings.GAMES_BOT_THINK_SECONDS = 30  # nobody moves before the deadline: the sweeper does
    alice = make_player("alice")
    record = start_game_with_bots(alice, make_room("积分场"))

    expire_turn(record.pk)  # a second ago
    assert sweeps.sweep_deadlines() == 1
    (sweep,) = timing_lines(caplog, "sweep-lag")
    lag = re.fullmatch(rf"sweep-lag game={record.pk} seq=\d+ ms=(\d+)", sweep)
    assert lag and int(lag[1]) >= 1000

    with pytest.raises(ActionError):
        game_act(user_id=alice.pk, game_id=record.pk, action="dance")
    (refused,) = timing_lines(caplog, "action-refused")
    assert re.fullmatch(rf"action-refused game={record.pk} action=dance code=- ms=[\d.]+",
                        refused)

    settings.GAMES_BOT_THINK_SECONDS = 0  # 托管 and the bots now play to the end at once
    events = game_act(user_id=alice.pk, game_id=record.pk, action="trustee", on=True)
    (commit,) = timing_lines(caplog, "action-commit")
    assert re.fullmatch(rf"action-commit game={record.pk} action=trustee "
                        rf"events={len(events)} seq={events[-1]['seq']} ms=[\d.]+", commit)

    record.refresh_from_db()
    assert record.status == GameRecord.Status.ENDED and record.settled_at is not None
    (settled,) = timing_lines(caplog, "settlement-lag")
    assert re.fullmatch(rf"settlement-lag game={record.pk} ms=\d+", settled)


def test_a_long_garbage_collection_is_logged_and_a_short_one_is_not(caplog, monkeypatch):
    caplog.set_level(logging.INFO, logger="games.timing")
    pause_log = timing.GcPauseLog()
    kept = list(gc.callbacks)
    # Only this test's log: the process's own (installed when shuangkou_site.asgi was
    # imported, by another test of this worker) would log each pause a second time.
    gc.callbacks[:] = [c for c in kept if not isinstance(c, timing.GcPauseLog)]
    gc.callbacks.append(pause_log)  # the list gc itself calls: not to be replaced
    try:
        monkeypatch.setattr(timing, "GC_PAUSE_LOG_MS", 10_000)
        gc.collect()
        assert timing_lines(caplog, "gc-pause") == []

        monkeypatch.setattr(timing, "GC_PAUSE_LOG_MS", 0)
        gc.collect()
    finally:
        gc.callbacks[:] = kept
    (line,) = timing_lines(caplog, "gc-pause")
    assert re.fullmatch(r"gc-pause generation=2 ms=\d+", line)


def test_the_pause_log_is_installed_once():
    kept = list(gc.callbacks)
    try:
        gc.callbacks[:] = [c for c in kept if not isinstance(c, timing.GcPauseLog)]
        timing.log_gc_pauses()
        timing.log_gc_pauses()
        assert sum(isinstance(c, timing.GcPauseLog) for c in gc.callbacks) == 1
    finally:
        gc.callbacks[:] = kept
