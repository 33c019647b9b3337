"""Celery tasks: thin, idempotent, fetching by id (GUIDE)."""

from __future__ import annotations

from celery import shared_task

from . import sweeper
from .settle import game_settle


@shared_task(acks_late=True)
def settle_game_task(game_id: int) -> bool:
    return game_settle(game_id=game_id)


@shared_task
def sweep_deadlines_task() -> int:
    return sweeper.sweep_deadlines()


@shared_task
def sweep_tables_task() -> int:
    return sweeper.sweep_tables()


@shared_task
def sweep_unsettled_task() -> int:
    return sweeper.sweep_unsettled()
