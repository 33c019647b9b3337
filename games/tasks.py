"""Celery tasks: thin, idempotent, fetching by id (GUIDE).

Each task's ``name`` is spelled out: queued messages, beat's schedule
(settings.CELERY_BEAT_SCHEDULE) and games.live.lifecycle refer to the tasks by name,
so moving this code must not rename them.
"""

from __future__ import annotations

from celery import shared_task

from games.live import sweeps
from games.live.lifecycle.end import game_settle
from games.live.lifecycle.steps import SETTLE_TASK
from games.live.lifecycle.strong_moves import game_strong_move
from games.live.strong_bots import STRONG_MOVE_TASK


@shared_task(name=SETTLE_TASK, acks_late=True)
def settle_game_task(game_id: int) -> bool:
    return game_settle(game_id=game_id)


@shared_task(name=STRONG_MOVE_TASK)
def strong_bot_move_task(game_id: int, seq: int) -> bool:
    """A strong bot's move (games.live.strong_bots), on the GAMES_BOT_QUEUE queue."""
    return game_strong_move(game_id=game_id, seq=seq)


@shared_task(name="games.tasks.sweep_deadlines_task")
def sweep_deadlines_task() -> int:
    return sweeps.sweep_deadlines()


@shared_task(name="games.tasks.sweep_away_task")
def sweep_away_task() -> int:
    return sweeps.sweep_away()


@shared_task(name="games.tasks.sweep_undelivered_task")
def sweep_undelivered_task() -> int:
    return sweeps.sweep_undelivered()


@shared_task(name="games.tasks.sweep_tables_task")
def sweep_tables_task() -> int:
    return sweeps.sweep_tables()


@shared_task(name="games.tasks.sweep_unsettled_task")
def sweep_unsettled_task() -> int:
    return sweeps.sweep_unsettled()
