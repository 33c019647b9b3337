"""How many table sockets a web process opens at a time.

Opening a socket is two jobs on the process's one database thread: its row and seat
(games.live.presence.open_socket), then, once it has joined its groups, its first
snapshot. When hundreds arrive at once (a restart's sockets failing over, a cold
start), every socket's first job was queued before any second one, so no socket got
its snapshot until all had their rows, and every table of the herd moved again only at
the end. Through this gate at most GAMES_OPENINGS_AT_ONCE sockets are between those
jobs: the first are back at once and the rest follow in their order of arrival, for the
same total work.
"""

from __future__ import annotations

import asyncio

from django.conf import settings

from common.per_loop import PerLoop

_gates: PerLoop[asyncio.Semaphore] = PerLoop()


def opening_turn() -> asyncio.Semaphore:
    """The running loop's gate (``async with opening_turn(): …``), of
    GAMES_OPENINGS_AT_ONCE places, read when the loop's first socket opens."""
    return _gates.get_or_make(lambda: asyncio.Semaphore(settings.GAMES_OPENINGS_AT_ONCE))
