"""The sync callers' path of a step (games.live.step_io.ON_THREAD): the same coroutines
as the event loop's, run to their end in the calling thread, inside its transaction."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from games.engine.game import Game
from games.live.append import Step, append_step, row_seq
from games.live.step_io import ON_THREAD, run_now
from games.models import GameRecord
from games.testing.turn_helpers import a_legal_move, event_log, game_at_alices_turn

pytestmark = pytest.mark.django_db(transaction=True)

def test_run_now_gives_a_coroutines_result_and_its_errors():
    async def answer() -> int:
        return 42

    async def refuse() -> None:
        raise ValueError("no")

    assert run_now(answer()) == 42
    with pytest.raises(ValueError, match="no"):
        run_now(refuse())


def test_run_now_refuses_a_coroutine_that_waits():
    async def waits() -> None:
        await asyncio.sleep(0)

    with pytest.raises(RuntimeError, match="waited"):
        run_now(waits())


def test_a_sync_callers_step_is_part_of_its_transaction(bots_wait):
    """The deal, the sweeper and a disconnect write their step inside the transaction
    that holds their lock: rolled back, it leaves nothing."""
    record, seat, _alice = game_at_alices_turn("rollback")
    game = Game.replay(event_log(record.pk))
    base = len(game.events)
    action, cards = a_legal_move(game, seat)
    game.pass_turn(seat) if action == "pass" else game.play(seat, cards)
    step = Step(game=record.pk, base=base, events=game.events[base:], turn=game.turn,
                deadline=timezone.now() + timedelta(seconds=30))

    with pytest.raises(RuntimeError, match="undone"), transaction.atomic():
        assert run_now(append_step(step, ON_THREAD.execute)) is True
        assert run_now(row_seq(record.pk, ON_THREAD.execute)) == step.seq
        raise RuntimeError("undone")

    assert GameRecord.objects.get(pk=record.pk).seq == base
    assert len(event_log(record.pk)) == base
