"""Strong bots: the bots of a room whose level is ``strong`` think off the
live path.

Their move is a search (games.engine.ai.decide, up to GAMES_STRONG_BOT_BUDGET_MS of CPU
time), far too long for the step that leaves them the turn: on the event loop it would
stall every table of the process, on the database thread every table's reads. So a
step never moves a strong bot inline. Once the step that left a strong bot the turn
has committed, a task on its own queue (GAMES_BOT_QUEUE, served by a worker of its own
so that settlements never wait behind a bot's thinking) carries ``(game, seq)``: the
task reads the committed game without a lock (its warm engine brought up to date from
the log), decides as that seat, and writes the move as one step from that
seq (games.live.lifecycle.strong_moves.game_strong_move). A stale seq means someone else moved
first (the deadline's backstop, an escape): the task does nothing.

The turn's deadline stays the backstop (games.live.lifecycle.automatic.turn_deadline): a strong
bot's turn lasts the bots' think time plus GAMES_STRONG_BOT_BACKSTOP_SECONDS, and when
it passes (a lost task, a stopped worker) the sweeper plays the table bot's move for
the seat, as for any bot: a bot never times out (no ``timeout`` event, RULES §10), so
nothing about the seat changes but who chose the cards.

Easy and table bots stay where bots always moved (in the step when the think time is 0,
else by the sweeper at their deadline): their move is a few microseconds of counting
(RULES §10's 托管 move, or bot.simple_player_move), cheaper than a task's round trip.

With eager tasks (``make run``, the tests' default) there is no worker: the task runs
on a thread of this module's own, still off the event loop and the database thread, and
never inside the step that enqueued it (it shares the process's GIL, though: fine for
one developer, not for production, which runs the bots worker).
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync
from celery import current_app as celery_app  # the site's app (shuangkou_site.celery)
from django.conf import settings
from django.db import connections

from games.live.broadcast import server_loop
from games.models import BotLevel

logger = logging.getLogger(__name__)

# games.tasks.strong_bot_move_task, named rather than imported (as SETTLE_TASK is).
STRONG_MOVE_TASK = "games.tasks.strong_bot_move_task"

_local: ThreadPoolExecutor | None = None
_local_lock = threading.Lock()


def is_strong_turn(facts, game) -> bool:
    """Whether ``game`` (an engine at its committed state) waits for a strong bot."""
    return (facts.bot_level == BotLevel.STRONG and game.status == "playing"
            and game.turn in facts.bot_seats)


def strong_seed(events: list[dict], seq: int) -> int:
    """The seed of the strong bot's search at ``seq``: from the deal's seed and the
    step, so the log alone says how the bot chose, and a test's seeded game plays out
    the same on every run (as games.live.lifecycle.automatic.bot_move's)."""
    digest = hashlib.sha256(f"strong:{events[0]['seed']}:{seq}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def strong_move(game, seat: int) -> str:
    """The strong bot's action for ``seat`` in ``game`` (an engine at its committed
    state): ``"7 7"`` or ``"pass"``. It sees only the public table and that seat's own
    hand (games.engine.ai.Position). Slow: never call it on the live path."""
    from games.engine import ai  # loaded only where bots think

    return _decide(ai.position_from_game(game, seat), game.events)


def strong_move_from_log(events: list[dict], seat: int) -> str:
    """:func:`strong_move` from the game's log so far (a replay, a test)."""
    from games.engine import ai

    return _decide(ai.position_from_events(events, seat), events)


def _decide(position, events: list[dict]) -> str:
    from games.engine import ai

    return ai.decide(position, bot="strong", seed=strong_seed(events, len(events)),
                     budget_ms=settings.GAMES_STRONG_BOT_BUDGET_MS,
                     max_samples=settings.GAMES_STRONG_BOT_MAX_SAMPLES)


def enqueue_strong_move(game_id: int, seq: int) -> None:
    """Ask for the strong bot's move at ``seq`` of ``game_id``; call after the step
    that left it the turn has committed. A broker that refuses the task is logged, not
    raised: the turn's deadline moves the seat all the same."""
    if celery_app.conf.task_always_eager:
        _local_executor().submit(_run_here, game_id, seq, server_loop())
        return
    try:
        # The think time counts from the end of the step; the search takes its share.
        countdown = max(0.0, settings.GAMES_BOT_THINK_SECONDS
                        - settings.GAMES_STRONG_BOT_BUDGET_MS / 1000)
        # Past the turn's deadline the sweeper has moved the seat: the task would
        # only find a stale seq, so it expires then.
        expires = settings.GAMES_BOT_THINK_SECONDS + settings.GAMES_STRONG_BOT_BACKSTOP_SECONDS
        celery_app.signature(STRONG_MOVE_TASK, args=(game_id, seq)).apply_async(
            queue=settings.GAMES_BOT_QUEUE, countdown=countdown or None, expires=expires)
    except Exception:
        logger.exception("could not enqueue the strong bot's move of game %s at %s",
                         game_id, seq)


def _local_executor() -> ThreadPoolExecutor:
    global _local
    with _local_lock:
        if _local is None:
            _local = ThreadPoolExecutor(max_workers=1, thread_name_prefix="strong-bot")
        return _local


def _run_here(game_id: int, seq: int, loop) -> None:

    # The step's notifications go out on the server's loop, as from its own threads
    # (games.live.broadcast.send_now): the in-memory channel layer of ``make run`` is
    # not thread-safe and only wakes its sockets from that loop.
    SyncToAsync.threadlocal.main_event_loop = loop
    SyncToAsync.threadlocal.main_event_loop_pid = os.getpid() if loop else None
    try:
        # The task run right here (games.tasks.strong_bot_move_task), by its name: this
        # module is imported by games.live.lifecycle, which the task calls.
        celery_app.signature(STRONG_MOVE_TASK, args=(game_id, seq)).apply(throw=True)
    except Exception:
        logger.exception("strong bot's move of game %s at %s failed", game_id, seq)
    finally:
        # Every task gives its connection back: the thread outlives tests' databases,
        # and no connection is left from one task to the next.
        connections.close_all()


def wait_local_idle(timeout: float = 30) -> None:
    """Wait until the local thread has run what was submitted before this call (tests)."""
    _local_executor().submit(lambda: None).result(timeout=timeout)
