"""A web process's own background tasks (the loop-lag probe, the paced young
collections): one of each kind per running event loop, started by the first
connection the site's router sees (shuangkou_site.metrics.process_watch). Keyed by
loop: tests run many loops in one process, and a task of a closed loop is forgotten,
never taken for a running one."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine

_tasks: dict[tuple[asyncio.AbstractEventLoop, str], asyncio.Task] = {}


def start_once(name: str, work: Callable[[], Coroutine]) -> bool:
    """Run ``work()`` as the running loop's task ``name`` unless one is running;
    whether this call started it."""
    loop = asyncio.get_running_loop()
    running = _tasks.get((loop, name))
    if running is not None and not running.done():
        return False
    for closed in [key for key in _tasks if key[0].is_closed()]:
        del _tasks[closed]
    _tasks[(loop, name)] = loop.create_task(work(), name=name)
    return True
