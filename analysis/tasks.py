"""Celery task of the analysis app: thin and idempotent (GUIDE), fetching by id."""

from __future__ import annotations

from celery import shared_task

from analysis.running import analysis_run

ANALYSE_TASK = "analysis.tasks.analyse_game_task"


@shared_task(name=ANALYSE_TASK, acks_late=True)
def analyse_game_task(game_id: int) -> bool:
    """Analyse game ``game_id`` once: a second enqueue, a redelivery after a crash or a
    retry finds the analysis claimed or done and does nothing."""
    return analysis_run(game_id=game_id)
