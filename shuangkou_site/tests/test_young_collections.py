"""A web process collects its young garbage from its event loop, every
WEB_YOUNG_GC_SECONDS (shuangkou_site.young_collections), started by the site's router
on the first connection it sees."""

import asyncio
import gc

from shuangkou_site import young_collections
from shuangkou_site.asgi import application

WAIT_SECONDS = 5.0


def tasks_named(name: str) -> list[asyncio.Task]:
    return [task for task in asyncio.all_tasks() if task.get_name() == name]


def run_counting_collections(scenario) -> tuple[object, list[int]]:
    """Run ``scenario`` on a loop of its own with Python's own trigger out of the way:
    what it returned, and the generations collected meanwhile."""
    collected: list[int] = []

    def note(phase: str, info: dict) -> None:
        if phase == "stop":
            collected.append(info["generation"])

    threshold = gc.get_threshold()
    gc.set_threshold(10**6, 10**6, 10**6)
    gc.callbacks.append(note)
    try:
        return asyncio.run(scenario(collected)), collected
    finally:
        gc.callbacks.remove(note)
        gc.set_threshold(*threshold)


def test_the_first_connection_starts_one_task_that_collects_the_young_generation(settings):
    settings.WEB_YOUNG_GC_SECONDS = 0.01

    async def scenario(collected: list[int]):
        async def receive():
            return {"type": "lifespan.startup"}

        # Any connection the router sees starts it (a lifespan scope has no route: refused).
        for _ in range(2):
            try:
                await application({"type": "lifespan"}, receive, None)
            except ValueError:
                pass
        waited = 0.0
        while len(collected) < 3 and waited < WAIT_SECONDS:
            await asyncio.sleep(0.01)
            waited += 0.01
        return len(tasks_named("young-collections"))

    tasks, collected = run_counting_collections(scenario)
    assert tasks == 1  # two connections, one task
    assert len(collected) >= 3 and set(collected[:3]) == {0}  # the young generation only


def test_nothing_is_collected_from_the_loop_when_the_period_is_zero(settings):
    settings.WEB_YOUNG_GC_SECONDS = 0

    async def scenario(collected: list[int]):
        young_collections.ensure_young_collections()
        await asyncio.sleep(0.1)
        return tasks_named("young-collections")

    tasks, collected = run_counting_collections(scenario)
    assert tasks == [] and collected == []
