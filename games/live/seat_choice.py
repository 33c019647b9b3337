"""Choosing a seat at a private table (好友房): before a game a player seated there
moves to an empty seat, and so chooses a partner (the seat opposite); an invited
player may name the seat they sit down in. Public tables seat in order, as before."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.errors import ActionError
from games.live import seating
from games.live.broadcast import announce_seats
from games.live.message_fields import is_whole_number
from games.live.private_tables import usable_invite
from games.models import BotPlayer, Seat, Table


def seat_move(*, user: User, seat_index: object) -> Seat:
    """Move ``user`` from their seat at a waiting private table to the empty seat
    ``seat_index`` (not ready there: the table's players see the change first)."""
    if not is_whole_number(seat_index):
        raise ActionError(_("座位必须是从 0 数起的整数"), code="bad_seat")
    with transaction.atomic():
        mine = Seat.objects.filter(user=user).first()
        if mine is None:
            raise ActionError(_("你没有就座"))
        table = seating.locked_table(mine.table_id)
        if not hasattr(table, "private") or table.private.closed_at is not None:
            raise ActionError(_("只有好友房可以换座位"), code="not_private")
        if table.status != Table.Status.WAITING:
            raise ActionError(_("对局进行中：请等这一局结束"))
        seats = list(table.seats.order_by("index"))
        if not 0 <= seat_index < len(seats):
            raise ActionError(_("这张牌桌没有座位 %(seat)s"), {"seat": seat_index},
                              code="bad_seat")
        target = seats[seat_index]
        if target.pk == mine.pk:
            return mine
        if target.user_id is not None:
            raise ActionError(_("这个座位已经有人了"), code="seat_taken")
        Seat.objects.filter(pk=mine.pk).update(user=None, is_ready=False, ready_deadline=None,
                                               connected=False)
        Seat.objects.filter(pk=target.pk).update(user=user, is_ready=False, ready_deadline=None,
                                                 connected=mine.connected)
        announce_seats(table.pk, table.room_id)
        target.refresh_from_db()
        return target


def private_table_join_at(*, user: User, code: str, seat_index: int | None = None) -> Seat:
    """Sit at the private table of invite ``code``, in seat ``seat_index`` if given
    (else the first empty one)."""
    private = usable_invite(code)
    return seating.table_sit(user=user, table_id=private.table_id, seat_index=seat_index,
                             invited=True)


def seat_bot_at(*, table_id: int, seat_index: int, bot_id: int) -> bool:
    """A rematch (friends.rematch) seats the same bot where it sat: ``bot_id`` in the
    empty seat ``seat_index`` of the waiting private table, ready, leaving a waiting
    table it still sits at. False (nothing changed) when the bot is playing elsewhere,
    is no bot, the seat is taken, or the room allows no bots."""
    with transaction.atomic():
        if not BotPlayer.objects.filter(user_id=bot_id).exists():
            return False
        table = seating.locked_table(table_id)
        if not table.room.bots_allowed or table.status != Table.Status.WAITING:
            return False
        seat = table.seats.filter(index=seat_index, user__isnull=True).first()
        if seat is None:
            return False
        elsewhere = Seat.objects.filter(user_id=bot_id).first()
        if elsewhere is not None:
            old = seating.locked_table(elsewhere.table_id)
            if old.status != Table.Status.WAITING:
                return False
            Seat.objects.filter(pk=elsewhere.pk).update(user=None, is_ready=False,
                                                        ready_deadline=None)
            announce_seats(old.pk, old.room_id)
        Seat.objects.filter(pk=seat.pk).update(user_id=bot_id, is_ready=True,
                                               ready_deadline=None, connected=False)
        announce_seats(table.pk, table.room_id)
    return True
