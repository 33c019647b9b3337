"""Timing log lines, logger ``games.timing`` (docs/operations.md): how long
each action took to commit or be refused, how late the sweeper claimed an expired turn,
how long an ended game waited for its settlement, and the web process's long garbage
collections and event-loop stalls (every table of the process waits for them).

Kept cheap for the hot path: two ``perf_counter`` calls per action, and a line is made
only when the logger is enabled (GAMES_TIMING_LOG_LEVEL=WARNING silences them all). Each
line is ``<what> key=value …`` with times in milliseconds, for grep; the same values are
the record's attributes (``what``, ``game``, ``seq``, ``ms``, …), which production's JSON
log lines carry as fields (settings/prod.py).

The same moments feed the metrics (shuangkou_site.metrics): refusals, sweeps and
settlements are observed whatever the log level."""

from __future__ import annotations

import functools
import gc
import logging
import time

from django.utils import timezone

from common.metrics.action_clock import action_refused
from common.metrics.instruments import SETTLEMENT_LAG_SECONDS, SWEEPER_LAG_SECONDS
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
    action_refused(error.code or "-")
    _line("action-refused", game=kwargs.get("game_id"), action=kwargs.get("action"),
          code=error.code or "-", ms=round((time.perf_counter() - started) * 1000, 2))


def _log_committed(kwargs: dict, events: list[dict], started: float) -> None:
    _line("action-commit", game=kwargs.get("game_id"), action=kwargs.get("action"),
          events=len(events), seq=events[-1]["seq"] if events else "-",
          ms=round((time.perf_counter() - started) * 1000, 2))


def log_sweep_lag(record) -> None:
    """The sweeper claimed the expired turn of ``record``: how long after its deadline."""
    if record.deadline is not None:
        seconds = (timezone.now() - record.deadline).total_seconds()
        SWEEPER_LAG_SECONDS.observe(max(0.0, seconds))
        _line("sweep-lag", game=record.pk, seq=record.seq, ms=round(seconds * 1000))


def log_strong_move(game_id: int, seq: int, started: float, moved: bool) -> None:
    """A strong bot's task (games.live.strong_bots) thought from ``started`` and wrote
    its move, or found the game moved on meanwhile: its wall time, search included."""
    _line("strong-move", game=game_id, seq=seq, moved="yes" if moved else "no",
          ms=round((time.perf_counter() - started) * 1000))


def log_strong_backstop(game_id: int, seq: int) -> None:
    """A strong bot's deadline passed before its move came: the sweeper played the table
    bot's move for it (a worker too slow or missing, a task lost)."""
    _line("strong-backstop", game=game_id, seq=seq)


def log_turn_kept(game_id: int, seat: int) -> None:
    """A person's turn deadline passed while a socket of theirs was held by a dead
    process: the turn got its time again instead of a timeout."""
    _line("turn-kept", game=game_id, seat=seat, why="socket lost with its process")


def log_settlement_lag(record) -> None:
    """``record`` was just settled: how long after its end."""
    if record.ended_at is not None and record.settled_at is not None:
        seconds = (record.settled_at - record.ended_at).total_seconds()
        SETTLEMENT_LAG_SECONDS.observe(max(0.0, seconds))
        _line("settlement-lag", game=record.pk, ms=round(seconds * 1000))


def _line(what: str, **fields) -> None:
    """One timing line, ``<what> key=value …``, its values also the record's attributes.
    Nothing is made when the logger is off."""
    if logger.isEnabledFor(logging.INFO):
        text = " ".join([what, *(f"{name}={value}" for name, value in fields.items())])
        logger.info(text, extra={"what": what, **fields})


LOOP_LAG_LOG_MS = 50  # a late probe worth a line: every table of the process waited


def log_loop_lag(seconds: float) -> None:
    """The loop-lag probe (shuangkou_site.metrics.process_watch) woke ``seconds`` late:
    something held this process's event loop. Beside the ``action-commit`` lines it
    tells a stall of the process from a slow database (whose statements are late
    while the loop is on time)."""
    if seconds * 1000 >= LOOP_LAG_LOG_MS:
        _line("loop-lag", ms=round(seconds * 1000))


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
            _line("gc-pause", generation=info.get("generation"), ms=round(ms))


def log_gc_pauses() -> None:
    if not any(isinstance(callback, GcPauseLog) for callback in gc.callbacks):
        gc.callbacks.append(GcPauseLog())
