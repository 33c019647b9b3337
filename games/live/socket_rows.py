"""The open table sockets as rows (``TableSocket``), each moved on by its process's
heartbeat: which of them a live process still holds. Models only, so that whoever
needs to know who is at a table (games.live.presence, fair_play) can ask without
importing the game's lifecycle.

A row goes stale slowly (:func:`stale_after`, 30 s): rows are many, and each beat
writes them all. Whether the process holding a socket still lives is known sooner:
each process writes one row of its own (``SocketProcess``) every
GAMES_PROCESS_BEAT_SECONDS, and one silent for three of those is dead or hung."""

from __future__ import annotations

import os
import socket
import uuid
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.utils import timezone

from games.live import action_pool
from games.models import SocketProcess, TableSocket


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


def this_process() -> str:
    """This server process's name, its own among all (host, pid and a random part: a
    pid is reused after a restart). Written on each socket row it opens."""
    global _process
    if _process is None or _process[0] != os.getpid():
        _process = (os.getpid(), f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}")
    return _process[1]


_process: tuple[int, str] | None = None


def process_silent_after() -> timedelta | None:
    """How long a process may go without a beat before it counts as dead: three
    periods. None when processes do not beat (GAMES_PROCESS_BEAT_SECONDS 0)."""
    period = float(settings.GAMES_PROCESS_BEAT_SECONDS)
    return timedelta(seconds=3 * period) if period > 0 else None


async def process_beat() -> None:
    """This process is alive: its row is written or moved on, in one statement on the
    loop's own connection. Not once it is stopping (games.live.process_stop)."""
    if _stopping:
        return
    await action_pool.execute(_BEAT_SQL, {"name": this_process(), "now": timezone.now()})


_stopping = False


def mark_stopping() -> None:
    """This process is stopping: no more beats, and its sockets' closes keep their rows."""
    global _stopping
    _stopping = True


def stopping() -> bool:
    return _stopping


async def process_stopped() -> None:
    """This process's row says it has been silent since long ago, so the turns of players
    whose sockets it held are not timed out (lost_with_its_process)."""
    mark_stopping()
    await action_pool.execute(_BEAT_SQL, {"name": this_process(), "now": _LONG_AGO})


def forget_stopping_for_tests() -> None:
    global _stopping
    _stopping = False


def lost_with_its_process(user_id: int, table_id: int) -> bool:
    """Whether a socket of the player at the table is held by a process that stopped
    beating (killed with its sockets open: their rows linger until stale). The player
    lost it through the server's fault, not theirs (GUIDE). A process that never beat
    counts as alive: it may have just started."""
    silent = process_silent_after()
    if silent is None:
        return False
    processes = TableSocket.objects.filter(user_id=user_id, table_id=table_id) \
        .values_list("process", flat=True)
    return SocketProcess.objects.filter(
        name__in=processes, seen_at__lt=timezone.now() - silent).exists()


def forget_gone_processes() -> int:
    """Rows of processes silent for an hour, with no socket row left: each process
    start adds one."""
    long_ago = timezone.now() - timedelta(hours=1)
    gone = [name for name in SocketProcess.objects.filter(seen_at__lt=long_ago)
            .values_list("name", flat=True)[:200]
            if not TableSocket.objects.filter(process=name).exists()]
    return SocketProcess.objects.filter(name__in=gone).delete()[0] if gone else 0


_LONG_AGO = datetime(2000, 1, 1, tzinfo=UTC)
_BEAT_SQL = (f"INSERT INTO {SocketProcess._meta.db_table} (name, seen_at) "
             "VALUES (%(name)s, %(now)s) "
             "ON CONFLICT (name) DO UPDATE SET seen_at = EXCLUDED.seen_at")
