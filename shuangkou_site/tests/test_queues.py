"""Work that must be on time never waits behind slow work: every sweep beat sends and
every settlement go to the default queue; replay analyses to the slow queue; and the
operators' units (deploy/) serve each queue with workers of its own."""

from __future__ import annotations

from django.conf import settings

from analysis.tasks import ANALYSE_TASK
from games.live.lifecycle.steps import SETTLE_TASK
from games.live.strong_bots import STRONG_MOVE_TASK
from shuangkou_site.celery import app as celery_app
from shuangkou_site.deploy_units import DEPLOY, unit_command

ON_TIME = "celery"


def queue_of(task_name: str, **options) -> str:
    return celery_app.amqp.router.route(options, task_name, (), {})["queue"].name


def served_queues() -> dict[str, set[str]]:
    """Each worker unit's queues (its --queues)."""
    served = {}
    for unit in sorted(DEPLOY.glob("shuangkou-worker-*.service")):
        argv = unit_command(unit.stem, bin_dir="/bin", env={})
        served[unit.stem] = set(argv[argv.index("--queues") + 1].split(","))
    return served


def test_sweeps_and_settlements_go_to_the_on_time_queue():
    assert settings.CELERY_TASK_DEFAULT_QUEUE == ON_TIME
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert queue_of(entry["task"], **entry.get("options", {})) == ON_TIME, entry["task"]
    assert queue_of(SETTLE_TASK) == ON_TIME


def test_analyses_and_strong_moves_go_to_queues_of_their_own():
    assert queue_of(ANALYSE_TASK) == settings.SLOW_TASK_QUEUE != ON_TIME
    assert queue_of(STRONG_MOVE_TASK, queue=settings.GAMES_BOT_QUEUE) \
        == settings.GAMES_BOT_QUEUE != ON_TIME


def test_each_queue_has_a_worker_unit_and_the_on_time_one_serves_nothing_else():
    served = served_queues()
    on_time = [unit for unit, queues in served.items() if ON_TIME in queues]
    assert on_time == ["shuangkou-worker-live"]
    assert served["shuangkou-worker-live"] == {ON_TIME}
    every = set().union(*served.values())
    assert {ON_TIME, settings.SLOW_TASK_QUEUE, settings.GAMES_BOT_QUEUE} <= every
