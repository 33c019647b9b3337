"""One action at a time per game on an event loop (games.live.lifecycle.act.game_act_on_loop).

A process's warm engine of a game is taken out while a step is computed and written
(games.live.warm_engines). On the database thread actions ran one after another; on
the event loop two of them for one game (a player's move and another seat's stale
retry, say) would overlap, and the second, finding no engine, would load one from the
database on the busy database thread and might put back an engine older than the
first's. Queued here, the second waits for the first (a step is one statement, about a
millisecond) and finds the engine in memory. Other processes are still held apart by
the seq check of each write (games.live.append).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

# (loop, game id) → [its lock, the actions holding or waiting for it]; an entry goes
# with its last action, so nothing is kept for games no longer played here.
_queues: dict[tuple[asyncio.AbstractEventLoop, int], list] = {}


@asynccontextmanager
async def one_at_a_time(game_id: int) -> AsyncIterator[None]:
    key = (asyncio.get_running_loop(), game_id)
    entry = _queues.get(key)
    if entry is None:
        entry = _queues[key] = [asyncio.Lock(), 0]
    entry[1] += 1
    try:
        async with entry[0]:
            yield
    finally:
        entry[1] -= 1
        if entry[1] == 0:
            del _queues[key]


def queued_games() -> int:
    """How many games have actions running or waiting on this process (for tests)."""
    return len(_queues)
