"""Who is at a table, and the grace before an absent player's seat goes to 托管
(RULES §10, docs/protocol.md "Disconnects").

Every open table socket has a row (``TableSocket``), written by whichever server
process holds it, so a player with two tabs on two processes is present while either
is open. When a player's last socket at the table closes during a game, the seat gets
an ``away_deadline`` (``GAMES_DISCONNECT_GRACE_SECONDS`` on): a socket of theirs
coming back clears it (:func:`seat_here`), and the sweeper
(:func:`sweep_away`, beat or the in-process sweeper) claims expired ones with a
conditional update and puts those seats in 托管 with reason ``disconnect``. The
deadline is a column, not a timer: it holds across processes and restarts. A server
restart drops every socket at once; the players' pages reconnect within the grace, so
the server's fault does not count against them (GUIDE).

A process killed without closing its sockets leaves their rows behind. Each process's
heartbeat (games.live.heartbeat) moves its rows' ``seen_at`` on every period, so a row
not seen for :func:`stale_after` is a dead process's: it no longer makes its player
present, and the sweeper drops it as if its socket had closed (the grace then starts).
With no heartbeat (``GAMES_HEARTBEAT_SECONDS`` 0) rows never go stale.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from accounts.models import User
from games.live.broadcast import announce_table
from games.live.lifecycle.deadlines import game_disconnected
from games.live.socket_rows import (
    forget_gone_processes,
    live_sockets,
    stale_after,
    this_process,
)
from games.live.visibility import socket_refusal
from games.models import Seat, Table, TableSocket

BATCH = 200


@dataclass(frozen=True)
class Refusal:
    """A socket that may not open its table, with the code it closes with."""

    code: int


def open_socket(user: User, table_id: int, channel: str) -> Refusal | int | None:
    """A socket opening ``table_id``, in one trip to the database thread: its refusal
    (games.live.visibility.socket_refusal: none for a player seated there, which costs
    no query), or its presence row written and the seat its user holds here (None:
    watching). Three queries for a seated player (its seat, its row, the seat marked
    present): at a cold start every socket opens at once."""
    seat = _seat_of(user.pk, table_id)
    refusal = socket_refusal(user, table_id, seated=seat is not None)
    if refusal is not None:
        return Refusal(refusal)
    socket_opened(user_id=user.pk, table_id=table_id, channel=channel)
    if seat is None:
        return None
    # After the row is written: a close of this player's other socket from now on
    # sees this one, and one before has set what the update below clears.
    _mark_present(seat_id=seat[0], user_id=user.pk, table_id=table_id)
    return seat[1]


def seat_here(user_id: int, table_id: int) -> int | None:
    """The seat ``user_id`` holds at ``table_id`` (None: watching), as one of their
    sockets there follows it: back within the grace, the seat is not handed to 托管,
    and a seat shown offline is marked connected (and the table told, once per
    connection: the next call finds the flag set)."""
    seat = _seat_of(user_id, table_id)
    if seat is None:
        return None
    _mark_present(seat_id=seat[0], user_id=user_id, table_id=table_id)
    return seat[1]


def _seat_of(user_id: int, table_id: int) -> tuple[int, int] | None:
    """The id and index of the seat ``user_id`` holds at ``table_id``."""
    return Seat.objects.filter(user_id=user_id, table_id=table_id).order_by() \
        .values_list("pk", "index").first()


def _mark_present(*, seat_id: int, user_id: int, table_id: int) -> None:
    """The seat connected and its grace cleared, in one conditional update that
    writes nothing when both are so already; the table is told when it changed."""
    if Seat.objects.filter(Q(connected=False) | Q(away_deadline__isnull=False),
                           pk=seat_id, user_id=user_id) \
            .update(connected=True, away_deadline=None):
        announce_table(table_id, shared=True)


def socket_opened(*, user_id: int, table_id: int, channel: str) -> None:
    # One INSERT: a channel name is the layer's own and never opens twice.
    TableSocket.objects.create(channel=channel, user_id=user_id, table_id=table_id,
                               process=this_process())


def socket_closed(*, user_id: int, table_id: int, channel: str) -> None:
    """A socket of ``user_id`` at ``table_id`` closed. If it was their last one there
    and they hold a seat: the seat is offline, and during a game it goes to 托管 after
    the grace (at once with a grace of 0)."""
    TableSocket.objects.filter(channel=channel).delete()
    if live_sockets().filter(user_id=user_id, table_id=table_id).exists():
        return  # another tab of this player still holds the seat
    seat = Seat.objects.filter(user_id=user_id, table_id=table_id).first()
    if seat is None:
        return
    if Seat.objects.filter(pk=seat.pk, user_id=user_id, connected=True).update(connected=False):
        announce_table(table_id, shared=True)
    game_id = Table.objects.filter(pk=table_id).values_list("current_game_id", flat=True) \
        .first()
    if game_id is None:
        return
    grace = float(settings.GAMES_DISCONNECT_GRACE_SECONDS)
    if grace <= 0:
        game_disconnected(user_id=user_id, game_id=game_id)
        return
    # The first absence's deadline stands: closing again does not push it back.
    Seat.objects.filter(pk=seat.pk, user_id=user_id, away_deadline__isnull=True) \
        .update(away_deadline=timezone.now() + timedelta(seconds=grace))


def sweep_away() -> int:
    """Put in 托管 the seats whose player did not come back within the grace. Each
    seat is claimed with a conditional update (its deadline unchanged, still passed,
    and no socket of the player at the table), so two sweepers never act twice and a
    player who came back meanwhile is left alone. Returns the seats put in 托管."""
    _drop_stale_sockets()
    now = timezone.now()
    done = 0
    due = Seat.objects.filter(away_deadline__lte=now, user__isnull=False) \
        .values_list("pk", "user_id", "table_id", "away_deadline")[:BATCH]
    for seat_id, user_id, table_id, deadline in due:
        with transaction.atomic():
            present = live_sockets().filter(user_id=OuterRef("user_id"),
                                            table_id=OuterRef("table_id"))
            claimed = Seat.objects.filter(pk=seat_id, user_id=user_id, away_deadline=deadline) \
                .exclude(Exists(present)).update(away_deadline=None)
            if not claimed:
                continue
            game_id = Table.objects.filter(pk=table_id) \
                .values_list("current_game_id", flat=True).first()
            if game_id is not None and game_disconnected(user_id=user_id,
                                                                   game_id=game_id):
                done += 1
    return done


def _drop_stale_sockets() -> None:
    """The rows of a process that died with its sockets open: each is closed as its
    socket would have been, so its player's grace starts now if no other socket of
    theirs is at the table."""
    stale = stale_after()
    if stale is None:
        return
    rows = TableSocket.objects.filter(seen_at__lt=timezone.now() - stale) \
        .values_list("user_id", "table_id", "channel")[:BATCH]
    for user_id, table_id, channel in rows:
        socket_closed(user_id=user_id, table_id=table_id, channel=channel)
    forget_gone_processes()
