"""Private tables (好友房): a player opens a table in a room and invites
friends with a short code or a link. The table is not in the lobby and quick join
never seats anyone there; only the code does. Bots sit only when the host asks. The
host may remove a player while no game is running, and close the table. The games
played by the same players in a row form a series (games.live.series).

Every function checks everything before it writes and runs in one transaction with
the table locked: a refusal changes nothing.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.errors import ActionError
from games.live import seating
from games.live.broadcast import announce_seats
from games.live.series import end_series
from games.models import PrivateTable, Room, Seat, Series, Table

# No 0/O, 1/I/L: a code read aloud or copied by hand is not mistaken.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


def private_table_open(*, host: User, room_id: int, spectators: bool = True) -> PrivateTable:
    """Open a private table in the room, with the host in its first seat."""
    room = Room.objects.filter(pk=room_id, is_open=True).first()
    if room is None:
        raise ActionError(_("这个房间已关闭或不存在"))
    if Seat.objects.filter(user=host).exists():
        raise ActionError(_("你已在另一张牌桌就座，请先离座"), code="already_seated")
    with transaction.atomic():  # a refused sit (coins, …) takes the new table back with it
        table = seating.table_create(room)
        private = _create_with_fresh_code(table, host, spectators)
        seating.table_sit(user=host, table_id=table.pk, invited=True)
    return private


def private_table_join(*, user: User, code: str) -> Seat:
    """Sit at the private table whose invite code is ``code``."""
    private = usable_invite(code)
    return seating.table_sit(user=user, table_id=private.table_id, invited=True)


def private_table_remove(*, host: User, table_id: int, user_id: int) -> None:
    """The host removes a player before a game (between games of a series too): the
    series ends, as when a player leaves."""
    with transaction.atomic():
        table, private = _hosts_table(host, table_id)
        if user_id == host.pk:
            raise ActionError(_("房主不能移除自己：请关闭牌桌"))
        seat = Seat.objects.filter(table=table, user_id=user_id).first()
        if seat is None:
            raise ActionError(_("这位玩家不在这张牌桌"))
        Seat.objects.filter(pk=seat.pk).update(user=None, is_ready=False, ready_deadline=None,
                                               connected=False)
        end_series(table, Series.End.LEFT)
        announce_seats(table.pk, table.room_id)


def private_table_fill_bots(*, host: User, table_id: int) -> bool:
    """The host asks for bots in the empty seats (if the room allows bots)."""
    with transaction.atomic():
        table, _private = _hosts_table(host, table_id)
        if not table.room.bots_allowed:
            raise ActionError(_("这个房间不允许机器人"))
        if not table.seats.filter(user__isnull=True).exists():
            raise ActionError(_("这张牌桌已经坐满了"))
        return seating.fill_bots_now(table)


def private_table_close(*, host: User, table_id: int) -> None:
    """Close the table: everyone stands, the invite stops working, the series ends."""
    with transaction.atomic():
        table, private = _hosts_table(host, table_id)
        Seat.objects.filter(table=table).update(user=None, is_ready=False, ready_deadline=None,
                                                connected=False)
        private.closed_at = timezone.now()
        private.save(update_fields=["closed_at"])
        end_series(table, Series.End.CLOSED)
        announce_seats(table.pk, table.room_id)


def private_of(table_id: int) -> PrivateTable | None:
    return PrivateTable.objects.filter(table_id=table_id).first()


def usable_invite(code: str) -> PrivateTable:
    """The open private table whose invite code is ``code`` (any case, spaces around);
    an ActionError (invite_unknown, invite_closed, invite_expired) otherwise. Every
    lookup of a code goes through here, behind its limits (games.web.invite_limits)."""
    if not isinstance(code, str) or not code.strip():
        raise ActionError(_("请输入邀请码"), code="invite_unknown")
    private = PrivateTable.objects.filter(code=code.strip().upper()).first()
    if private is None:
        raise ActionError(_("没有这个邀请码"), code="invite_unknown")
    if private.closed_at is not None:
        raise ActionError(_("这张好友房已经关闭"), code="invite_closed")
    if private.expires_at <= timezone.now():
        raise ActionError(_("这个邀请码已过期"), code="invite_expired")
    return private


# --- internals --------------------------------------------------------------------------

def _create_with_fresh_code(table: Table, host: User, spectators: bool) -> PrivateTable:
    expires = timezone.now() + timedelta(hours=settings.GAMES_INVITE_HOURS)
    for _attempt in range(5):
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        try:
            with transaction.atomic():
                return PrivateTable.objects.create(table=table, host=host, code=code,
                                                   expires_at=expires, spectators=spectators)
        except IntegrityError:
            continue  # the code is taken: 31^6 codes, so another draw all but surely is not
    raise ActionError(_("暂时无法生成邀请码，请重试"))


def _hosts_table(host: User, table_id: int) -> tuple[Table, PrivateTable]:
    """The host's private table, locked and waiting for a game."""
    table = seating.locked_table(table_id)
    private = PrivateTable.objects.filter(table=table).first()
    if private is None:
        raise ActionError(_("这不是好友房"))
    if private.host_id != host.pk:
        raise ActionError(_("只有房主可以这样做"), code="not_host")
    if private.closed_at is not None:
        raise ActionError(_("这张好友房已经关闭"), code="invite_closed")
    if table.status != Table.Status.WAITING:
        raise ActionError(_("对局进行中：请等这一局结束"))
    return table, private
