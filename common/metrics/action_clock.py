"""An action's latency along the live path: receive → commit → broadcast.

The table socket starts a clock when a frame arrives (:func:`action_received`); the
action's step committing (games.live.lifecycle) and the channel layer taking the
table's events (games.live.broadcast) read it. The clock travels in a context variable,
so nothing on the path in between passes it on: the action's coroutine, the database
thread (asgiref copies the context there), the send task and its done-callback all see
the one the socket started. Only actions that came through a socket are counted.

The broadcast is the first send of a table's events in the frame's context: nothing
sends one before an action commits, and what is sent after it (a settlement's) comes
later. It may end before the commit is noted (on the database thread, the send starts
on the loop as the step commits), so whichever of the two comes second counts the
broadcast; a frame that commits nothing (a deal's sends after ``ready``) counts none.

Cost per action: a small object, a context variable set, two histogram observations.
"""

from __future__ import annotations

import threading
from contextvars import ContextVar
from time import perf_counter

from .instruments import ACTION_BROADCAST, ACTION_COMMITTED, ACTIONS_REFUSED

_NOT_SENT = -1.0
_LOST = -2.0  # the first send failed: no broadcast to count


class _Clock:
    __slots__ = ("received", "committed", "broadcast")

    def __init__(self) -> None:
        self.received = perf_counter()
        self.committed = False
        self.broadcast = _NOT_SENT  # seconds from receipt, once the first send ended


_clock: ContextVar[_Clock | None] = ContextVar("action_clock", default=None)
# The commit may be noted on the database thread while the send ends on the loop.
_counting = threading.Lock()


def action_received() -> None:
    """A frame arrived at a table socket: what follows in this context is its work."""
    _clock.set(_Clock())


def action_committed() -> None:
    """The step of the action whose frame started this context's clock committed."""
    clock = _clock.get()
    if clock is None:
        return
    ACTION_COMMITTED.observe(perf_counter() - clock.received)
    with _counting:
        clock.committed = True
        sent = clock.broadcast
    if sent >= 0:
        ACTION_BROADCAST.observe(sent)


def action_refused(code: str) -> None:
    ACTIONS_REFUSED.labels(code=code).inc()


def events_sent(*, delivered: bool) -> None:
    """A send of a table's events ended, taken by the channel layer or not (a failed
    broadcast is not counted: the histogram's broadcasts are the ones made)."""
    clock = _clock.get()
    if clock is None:
        return
    seconds = perf_counter() - clock.received if delivered else _LOST
    with _counting:
        if clock.broadcast != _NOT_SENT:
            return  # not the first: a later send of the same frame's work
        clock.broadcast = seconds
        committed = clock.committed
    if committed and seconds >= 0:
        ACTION_BROADCAST.observe(seconds)
