"""How a game's step reaches the database and the table: the one thing in which a
table socket's action (the event loop) and the sync callers (the deal, the sweeper,
a disconnect, the strong bots' tasks, tests) differ. The step itself, from the
engine to the written events (games.live.lifecycle), is written once, as coroutines
over a :class:`StepIO`:

- :data:`ON_LOOP`: from the server's event loop, each statement through the loop's own
  connections (games.live.action_pool) and committed by itself; a game not in memory
  is read on the database thread; what follows a step (the settlement's or a strong
  bot's task) is enqueued on a worker thread.
- :data:`ON_THREAD`: from sync code, on Django's connection in the caller's thread and
  transaction (the deal's, or the row lock's of the sweeper and a disconnect), what
  follows once it commits. Nothing there waits on anything asynchronous, so
  :func:`run_now` drives those coroutines to their end in the calling thread, with no
  event loop and no thread hop: the caller's transaction and locks hold throughout.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.db import connection, connections, transaction

from games.live import action_pool, warm_engines
from games.live.broadcast import send_after_commit, send_on_loop
from games.live.game_queue import one_at_a_time
from games.live.warm_engines import WarmGame

logger = logging.getLogger(__name__)
T = TypeVar("T")
# One statement in its own transaction (or the caller's): its row count and first row.
Execute = Callable[[str, dict], Awaitable[tuple[int, tuple | None]]]


@dataclass(frozen=True)
class StepIO:
    execute: Execute
    # The game as committed (None: no such game), for a process that has no warm engine.
    load: Callable[[int], Awaitable[WarmGame | None]]
    # Holds one game's actions apart while a step of it is computed and written.
    one_at_a_time: Callable[[int], contextlib.AbstractAsyncContextManager]
    # Runs a callback once the step has committed.
    after_commit: Callable[[Callable[[], None]], None]
    # Tells a group of the channel layer once the step has committed.
    send: Callable[[str, dict], None]
    # Runs ``func(*args)`` (a broker's round trip) after the commit, off the loop;
    # ``wait``: the caller waits for it to be done.
    enqueue: Callable[..., Awaitable[None]]


def run_now(coroutine: Coroutine[Any, Any, T]) -> T:
    """The result of a coroutine of the :data:`ON_THREAD` path, run to its end here:
    every await in it is of a sync call, so it finishes without ever suspending."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    raise RuntimeError(f"{coroutine.__qualname__} waited: only ON_THREAD's steps run here")


# --- the event loop's -------------------------------------------------------------------

async def _on_worker_thread(func, *args) -> None:
    """``func(*args)`` on one of the loop's worker threads, which then gives back any
    pooled connection it opened (an eager task settles right there). Channels'
    ``database_sync_to_async`` would too, but its test communicator turns that off, and
    each such thread then kept a connection until the pool ran dry."""
    def closing() -> None:
        try:
            func(*args)
        finally:
            connections.close_all()

    await sync_to_async(closing, thread_sensitive=False)()


_background: set[asyncio.Task] = set()  # strong references until each is done


def _in_background(work: Awaitable[None]) -> None:
    task = asyncio.ensure_future(work)
    _background.add(task)
    task.add_done_callback(_background_done)


def _background_done(task: asyncio.Task) -> None:
    _background.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.error("background work after a step failed", exc_info=task.exception())


async def _enqueue_from_loop(func, *args, wait: bool) -> None:
    if wait:
        await _on_worker_thread(func, *args)
    else:
        # Not awaited: until the action's handler returns, the acting player's own copy
        # of the step waits in its consumer.
        _in_background(_on_worker_thread(func, *args))


async def _load_on_loop(game_id: int) -> WarmGame | None:
    return await database_sync_to_async(warm_engines.load)(game_id)


ON_LOOP = StepIO(
    execute=action_pool.execute,
    load=_load_on_loop,
    one_at_a_time=one_at_a_time,
    after_commit=lambda callback: callback(),  # the statement committed by itself
    send=send_on_loop,
    enqueue=_enqueue_from_loop,
)


# --- sync code's ---------------------------------------------------------------------------

async def _execute_on_thread(sql: str, params: dict) -> tuple[int, tuple | None]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount, cursor.fetchone() if cursor.description else None


async def _load_on_thread(game_id: int) -> WarmGame | None:
    return warm_engines.load(game_id)


async def _enqueue_after_commit(func, *args, wait: bool) -> None:
    transaction.on_commit(functools.partial(func, *args))


ON_THREAD = StepIO(
    execute=_execute_on_thread,
    load=_load_on_thread,
    # The caller's thread acts for one game at a time already; the seq check of each
    # write (games.live.append) holds processes and threads apart.
    one_at_a_time=lambda game_id: contextlib.nullcontext(),
    after_commit=transaction.on_commit,
    send=send_after_commit,
    enqueue=_enqueue_after_commit,
)
