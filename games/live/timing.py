"""Timing log lines, logger ``games.timing`` (README, "Production and scale-out"): how long
each action took to commit or be refused, how late the sweeper claimed an expired turn,
how long an ended game waited for its settlement, and the web process's long garbage
collections (every table of the process waits for them).

Kept cheap for the hot path: two ``perf_counter`` calls per action, and ``logging``
formats a line only when the logger is enabled (GAMES_TIMING_LOG_LEVEL=WARNING silences
them all). Each line is ``<what> key=value …`` with times in milliseconds, for grep and
log pipelines alike."""

from __future__ import annotations

import functools
import gc
import logging
import time

from django.utils import timezone

from games.errors import ActionError

logger = logging.getLogger("games.timing")


def timed_action(function):
    """Log the time of each call of ``function`` (the action coroutine of
    games.live.lifecycle, called with keywords only, on either path of
    games.live.step_io): ``action-commit`` with the events it committed, or
    ``action-refused`` with the refusal's code."""
    @functools.wraps(function)
    async def timed(**kwargs) -> list[dict]:
        started = time.perf_counter()
        try:
            events = await function(**kwargs)
        except ActionError as error:
            _log_refused(kwargs, error, started)
            raise
        _log_committed(kwargs, events, started)
        return events

    return timed


def _log_refused(kwargs: dict, error: ActionError, started: float) -> None:
    logger.info("action-refused game=%s action=%s code=%s ms=%.2f",
                kwargs.get("game_id"), kwargs.get("action"), error.code or "-",
                (time.perf_counter() - started) * 1000)


def _log_committed(kwargs: dict, events: list[dict], started: float) -> None:
    logger.info("action-commit game=%s action=%s events=%d seq=%s ms=%.2f",
                kwargs.get("game_id"), kwargs.get("action"), len(events),
                events[-1]["seq"] if events else "-",
                (time.perf_counter() - started) * 1000)


def log_sweep_lag(record) -> None:
    """The sweeper claimed the expired turn of ``record``: how long after its deadline."""
    if record.deadline is not None:
        logger.info("sweep-lag game=%s seq=%s ms=%.0f", record.pk, record.seq,
                    (timezone.now() - record.deadline).total_seconds() * 1000)


def log_strong_move(game_id: int, seq: int, started: float, moved: bool) -> None:
    """A strong bot's task (games.live.strong_bots) thought from ``started`` and wrote
    its move, or found the game moved on meanwhile: its wall time, search included."""
    logger.info("strong-move game=%s seq=%s moved=%s ms=%.0f", game_id, seq,
                "yes" if moved else "no", (time.perf_counter() - started) * 1000)


def log_strong_backstop(game_id: int, seq: int) -> None:
    """A strong bot's deadline passed before its move came: the sweeper played the table
    bot's move for it (a worker too slow or missing, a task lost)."""
    logger.info("strong-backstop game=%s seq=%s", game_id, seq)


def log_settlement_lag(record) -> None:
    """``record`` was just settled: how long after its end."""
    if record.ended_at is not None and record.settled_at is not None:
        logger.info("settlement-lag game=%s ms=%.0f", record.pk,
                    (record.settled_at - record.ended_at).total_seconds() * 1000)


GC_PAUSE_LOG_MS = 20  # shorter collections are not worth a line


class GcPauseLog:
    """Log each garbage collection of this process longer than ``GC_PAUSE_LOG_MS``:
    ``gc-pause generation=… ms=…``. Installed once by the web process (asgi.py)."""

    def __init__(self) -> None:
        self._began = 0.0

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._began = time.perf_counter()
            return
        ms = (time.perf_counter() - self._began) * 1000
        if ms >= GC_PAUSE_LOG_MS:
            logger.info("gc-pause generation=%s ms=%.0f", info.get("generation"), ms)


def log_gc_pauses() -> None:
    if not any(isinstance(callback, GcPauseLog) for callback in gc.callbacks):
        gc.callbacks.append(GcPauseLog())
