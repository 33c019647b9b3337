"""A web process told to stop (SIGTERM from a deploy, or SIGINT) hands its sockets over
as a killed one does, so their players are not charged for the server's restart.

Stopping, the server closes every socket with 1012 (service restart), and each close
ran the socket's usual disconnect: its row deleted, its seat offline, the grace begun,
and a turn due before the player had reconnected to another process timed out (the
restart test at 200 tables charged one). Now the first stop signal marks the process
stopping: no more beats, and its beat row is written as long silent
(games.live.socket_rows), so a turn of a player whose socket it held gets its full
time again (games.live.lifecycle.deadlines); the sockets it closes keep their rows
(games.live.table_socket). Those rows go stale and are dropped like a killed
process's (games.live.presence): a player who does not come back goes to 托管 after
the grace, from then.

The handler is put in front of the server's own at the first table socket, on the main
thread (a server installs its handlers when it starts serving, after the application
is imported), and then calls the server's handler, which stops as before.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading

from games.live.socket_rows import mark_stopping, process_stopped, stopping

logger = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)

_watched: set[int] = set()


def watch_stop_signals(signals=STOP_SIGNALS) -> None:
    """Put this module's handler in front of the current handlers of ``signals``, once
    per signal. Call on the running loop's thread; off the main thread (where handlers
    cannot be set) it does nothing."""
    if threading.current_thread() is not threading.main_thread():
        return
    loop = asyncio.get_running_loop()
    for number in signals:
        if number in _watched:
            continue
        previous = signal.getsignal(number)

        def handler(signum, frame, previous=previous) -> None:
            _on_stop_signal(loop)
            if callable(previous):
                previous(signum, frame)
            elif previous == signal.SIG_DFL:  # nobody else handled it: stop as it would
                signal.signal(signum, signal.SIG_DFL)
                signal.raise_signal(signum)

        signal.signal(number, handler)
        _watched.add(number)


def _on_stop_signal(loop: asyncio.AbstractEventLoop) -> None:
    if stopping():
        return
    mark_stopping()  # now, before the server begins closing the sockets
    # The handler runs between two bytecodes of the main thread: the write is a task.
    loop.call_soon_threadsafe(lambda: asyncio.ensure_future(_write_stopped()))


async def _write_stopped() -> None:
    try:
        await process_stopped()
    except Exception:  # the database away: the beats have stopped, the row goes silent
        logger.exception("could not mark this process stopped")


__all__ = ["STOP_SIGNALS", "stopping", "watch_stop_signals"]
