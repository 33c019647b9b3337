"""Who of a player's friends is online, at a table, playing or watching, read from
what the live path keeps (games.live.socket_rows: the open table sockets; the seats)
and from the pages' notice polls (``Seen``). A few queries for the whole list."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from accounts.models import User
from games.live.socket_rows import live_sockets
from games.live.visibility import may_watch
from games.models import Seat, Table

from .models import Seen


class Status:
    OFFLINE = "offline"
    ONLINE = "online"  # on the site, at no table
    SEATED = "seated"  # seated at a table waiting for its game
    PLAYING = "playing"
    WATCHING = "watching"


@dataclass(frozen=True)
class FriendStatus:
    user: User
    status: str
    table_id: int | None  # the table they play at or watch
    watchable: bool  # the viewer may open that table's page


def online_window() -> timedelta:
    return timedelta(seconds=settings.FRIENDS_ONLINE_SECONDS)


def mark_seen(user_id: int) -> None:
    """A page of the user polled: they are online. At most one write per few seconds."""
    now = timezone.now()
    updated = Seen.objects.filter(user_id=user_id,
                                  seen_at__lt=now - timedelta(seconds=5)).update(seen_at=now)
    if not updated:
        Seen.objects.get_or_create(user_id=user_id, defaults={"seen_at": now})


def statuses(viewer: User, users: list[User]) -> list[FriendStatus]:
    """Each of ``users``' status as ``viewer`` sees it: playing and at-table first,
    then online, then offline; by name within each."""
    ids = [user.pk for user in users]
    seats = dict(Seat.objects.filter(user_id__in=ids)
                 .values_list("user_id", "table_id"))
    playing_tables = set(Table.objects.filter(pk__in=set(seats.values()),
                                              status=Table.Status.PLAYING)
                         .values_list("pk", flat=True))
    watching = dict(live_sockets().filter(user_id__in=ids).exclude(user_id__in=list(seats))
                    .values_list("user_id", "table_id"))
    recent = set(Seen.objects.filter(user_id__in=ids, seen_at__gte=timezone.now()
                                     - online_window()).values_list("user_id", flat=True))
    order = {Status.PLAYING: 0, Status.SEATED: 1, Status.WATCHING: 2, Status.ONLINE: 3,
             Status.OFFLINE: 4}
    rows = []
    for user in users:
        table_id = seats.get(user.pk) or watching.get(user.pk)
        if user.pk in seats:
            status = Status.PLAYING if seats[user.pk] in playing_tables else Status.SEATED
        elif user.pk in watching:
            status = Status.WATCHING
        elif user.pk in recent:
            status = Status.ONLINE
        else:
            status = Status.OFFLINE
        rows.append(FriendStatus(user=user, status=status, table_id=table_id,
                                 watchable=table_id is not None and may_watch(viewer, table_id)))
    return sorted(rows, key=lambda row: (order[row.status], str(row.user).lower()))
