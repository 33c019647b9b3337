"""The open table sockets as rows (``TableSocket``), each moved on by its process's
heartbeat: which of them a live process still holds. Models only, so that whoever
needs to know who is at a table (games.live.presence, fair_play) can ask without
importing the game's lifecycle."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from games.live import action_pool
from games.models import TableSocket


def stale_after() -> timedelta | None:
    """How long a row may go unseen before it counts as a dead process's: three
    heartbeat periods, at least 30 s. None without a heartbeat."""
    period = float(settings.GAMES_HEARTBEAT_SECONDS)
    return timedelta(seconds=max(3 * period, 30)) if period > 0 else None


def live_sockets():
    """The rows of sockets still held by a live process."""
    stale = stale_after()
    rows = TableSocket.objects.all()
    return rows if stale is None else rows.filter(seen_at__gte=timezone.now() - stale)


async def sockets_seen(channels: list[str]) -> int:
    """The heartbeat of the process holding ``channels``: its rows are alive. From the
    event loop, through its own connections (games.live.action_pool): when the database
    thread was busy for longer than the rows' staleness, the sweeper took live sockets
    for a dead process's."""
    rowcount, _row = await action_pool.execute(_SEEN_SQL, {"channels": channels,
                                                           "now": timezone.now()})
    return rowcount


_SEEN_SQL = (f"UPDATE {TableSocket._meta.db_table} SET seen_at = %(now)s "
             f"WHERE channel = ANY(%(channels)s)")
