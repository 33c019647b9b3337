"""A strong bot's move, thought out on a worker off the live path (games.live.strong_bots)
and written as one step from the seq it was asked at."""

from __future__ import annotations

import logging
import time

from games.engine.game import GameError
from games.live import warm_engines
from games.live.append import row_seq
from games.live.lifecycle.automatic import bot_move
from games.live.lifecycle.steps import write_and_follow_up
from games.live.step_io import ON_THREAD, run_now
from games.live.strong_bots import is_strong_turn, strong_move
from games.live.timing import log_strong_move

logger = logging.getLogger("games.live.lifecycle")


def game_strong_move(*, game_id: int, seq: int) -> bool:
    """The strong bot to act at ``seq`` of ``game_id`` thinks and moves:
    the body of games.tasks.strong_bot_move_task, on a worker, never on the live path.
    Reads the committed game without a lock, decides as that seat only
    (games.live.strong_bots.strong_move), and writes the move as one step from ``seq``
    (games.live.append), followed by the 托管 and bot moves after it as any step is.
    Does nothing, and returns False, if the game is no longer at ``seq`` waiting for a
    strong bot (someone else moved: the deadline's backstop, an escape, this task run
    twice) or moves on meanwhile. Returns whether it moved."""
    # One cheap read before the search: a stale task costs no thinking.
    if run_now(row_seq(game_id, ON_THREAD.execute)) != seq:
        return False
    warm = warm_engines.take(game_id)
    if warm is None or warm.seq > seq:
        warm = warm_engines.load(game_id)  # the committed game: read-only
    else:
        # The web processes may have moved the game since this worker's last step in
        # it: only their events are read (without the lock, unlike engine_for).
        warm_engines.catch_up(warm.game, game_id, seq)
    if warm is None:
        return False
    if warm.seq != seq or not is_strong_turn(warm.facts, warm.game):
        return False  # moved on meanwhile: the engine is not kept (it may be behind)
    game, seat = warm.game, warm.game.turn
    started = time.perf_counter()
    move = strong_move(game, seat)
    try:
        if move == "pass":
            game.pass_turn(seat, by="bot")
        else:
            game.play(seat, move, by="bot")
    except GameError:
        # The engine's contract is a legal action; should it fail, the seat still moves
        # (the table bot's move) rather than wait for its deadline.
        logger.error("strong bot's move %r refused in game %s at %s", move, game_id, seq)
        bot_move(game)
    written = run_now(write_and_follow_up(warm, seq, ON_THREAD))
    moved = written is not None and written.step is not None
    log_strong_move(game_id, seq, started, moved)
    return moved
