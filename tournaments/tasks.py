"""Celery tasks, thin: named, enqueued by name (tournaments.registration, .settled)."""

from celery import shared_task

from tournaments import flow


@shared_task(name="tournaments.tasks.start_tournament_task")
def start_tournament_task(tournament_id: int) -> bool:
    return flow.start(tournament_id)


@shared_task(name="tournaments.tasks.advance_tournament_task")
def advance_tournament_task(tournament_id: int) -> None:
    flow.advance(tournament_id)


@shared_task(name="tournaments.tasks.sweep_tournaments_task")
def sweep_tournaments_task() -> int:
    return flow.sweep()
