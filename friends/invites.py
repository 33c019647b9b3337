"""Inviting a friend to my private table (好友房) from the friend list: the friend
sees the invitation on whatever page they are on (the notices every page polls) and
sits down with one click, without the code passing hands. A blocked player's
invitations never arrive."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.errors import ActionError
from games.live.seat_choice import private_table_join_at
from games.live.seating import table_stand
from games.models import PrivateTable, Seat, Table

from .models import Block, TableInvite
from .services import are_friends, blocks_between


def invite_window() -> timedelta:
    return timedelta(minutes=settings.FRIENDS_INVITE_MINUTES)


def my_private_table(user: User) -> PrivateTable | None:
    """The open private table ``user`` is seated at, if any."""
    seat = Seat.objects.filter(user=user).first()
    if seat is None:
        return None
    return PrivateTable.objects.filter(table_id=seat.table_id, closed_at__isnull=True) \
        .select_related("table__room").first()


def invite_friend(*, sender: User, recipient_id: int, seat: int | None = None,
                  rematch: bool = False, friends_only: bool = True) -> TableInvite:
    """Invite ``recipient_id`` to the private table ``sender`` sits at (again: the
    invitation shows anew). ``friends_only`` off for a rematch's co-players."""
    private = my_private_table(sender)
    if private is None:
        raise ActionError(_("先开一张好友房并入座，才能邀请好友"), code="no_table")
    if recipient_id == sender.pk:
        raise ActionError(_("不能邀请自己"), code="self")
    if friends_only and not are_friends(sender.pk, recipient_id):
        raise ActionError(_("只能邀请好友"), code="not_friends")
    if blocks_between(sender.pk, recipient_id):
        raise ActionError(_("无法邀请这位玩家"), code="blocked")
    if Seat.objects.filter(table_id=private.table_id, user_id=recipient_id).exists():
        raise ActionError(_("这位玩家已经在你的牌桌"), code="already_here")
    now = timezone.now()
    invite, created = TableInvite.objects.get_or_create(
        sender=sender, recipient_id=recipient_id, table_id=private.table_id,
        defaults={"seat": seat, "rematch": rematch, "created_at": now})
    if not created:
        if invite.answer == "" and invite.created_at > now - timedelta(seconds=30):
            return invite  # asked a moment ago: the same invitation, not a new one
        TableInvite.objects.filter(pk=invite.pk).update(
            created_at=now, answer="", answered_at=None, seat=seat, rematch=rematch)
        invite.refresh_from_db()
    return invite


def pending_invites(user: User) -> list[TableInvite]:
    """The invitations ``user`` has not answered, recent, to tables still open, from
    players they have not blocked; newest first."""
    blocked = Block.objects.filter(blocker=user).values_list("blocked_id", flat=True)
    return list(TableInvite.objects.filter(
        recipient=user, answer="", created_at__gte=timezone.now() - invite_window(),
        table__private__closed_at__isnull=True)
        .exclude(sender_id__in=blocked)
        .select_related("sender", "table__room").order_by("-created_at")[:5])


def invite_accept(*, user: User, invite_id: int) -> Seat:
    """Sit down at the invitation's table (its kept seat, if any and still free). The
    same acceptance again returns the seat taken the first time."""
    with transaction.atomic():
        invite = _invite_for(user, invite_id)
        seated = Seat.objects.filter(user=user, table_id=invite.table_id).first()
        if seated is not None:
            _answer(invite, TableInvite.Answer.ACCEPTED)
            return seated
        if invite.answer:
            raise ActionError(_("这条邀请已经回复过了"), code="answered")
        if invite.created_at < timezone.now() - invite_window():
            raise ActionError(_("这条邀请已过期"), code="invite_expired")
        private = PrivateTable.objects.filter(table_id=invite.table_id).first()
        if private is None or private.closed_at is not None:
            raise ActionError(_("这张好友房已经关闭"), code="invite_closed")
        seat = invite.seat
        if seat is not None and Seat.objects.filter(table_id=invite.table_id, index=seat,
                                                    user__isnull=False).exists():
            seat = None  # the kept seat was taken: any free one
        _leave_waiting_table(user, invite.table_id)
        taken = private_table_join_at(user=user, code=private.code, seat_index=seat)
        _answer(invite, TableInvite.Answer.ACCEPTED)
        return taken


def invite_decline(*, user: User, invite_id: int) -> None:
    with transaction.atomic():
        invite = _invite_for(user, invite_id)
        if not invite.answer:
            _answer(invite, TableInvite.Answer.DECLINED)


def _invite_for(user: User, invite_id: object) -> TableInvite:
    try:
        invite_id = int(invite_id)
    except (TypeError, ValueError):
        raise ActionError(_("没有这条邀请"), code="no_invite") from None
    invite = TableInvite.objects.select_for_update().filter(pk=invite_id, recipient=user) \
        .first()
    if invite is None or Block.objects.filter(blocker=user, blocked_id=invite.sender_id) \
            .exists():
        raise ActionError(_("没有这条邀请"), code="no_invite")
    return invite


def _leave_waiting_table(user: User, table_id: int) -> None:
    """One click goes: a player waiting at another table stands up from it first (in
    the acceptance's transaction: refused, they stay); one in a running game is refused."""
    seat = Seat.objects.filter(user=user).exclude(table_id=table_id).select_related("table") \
        .first()
    if seat is None:
        return
    if seat.table.status != Table.Status.WAITING:
        raise ActionError(_("你正在另一张牌桌对局：请等这一局结束"), code="table_playing")
    table_stand(user=user)


def _answer(invite: TableInvite, answer: str) -> None:
    TableInvite.objects.filter(pk=invite.pk).update(answer=answer, answered_at=timezone.now())
