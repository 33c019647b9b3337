"""The friends page, its live list, the notices every page polls, and the forms: thin,
each calls one service and comes back with a message (docs/friends.md)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.models import User
from common.next_url import local_next
from games.errors import ActionError
from games.live.seat_choice import seat_move
from games.models import GameRecord, Seat
from ledger.services import LedgerError
from stats.boards import total_points, weekly_points

from . import invites, presence, rematch, services
from .models import Block, FriendRequest


@require_GET
@login_required
def friends_page(request: HttpRequest) -> HttpResponse:
    me = request.user
    presence.mark_seen(me.pk)
    return render(request, "friends/friends.html", {
        **_list_context(me),
        "incoming": FriendRequest.objects.filter(recipient=me).select_related("sender")
        .order_by("-created_at"),
        "outgoing": FriendRequest.objects.filter(sender=me).select_related("recipient")
        .order_by("-created_at"),
        "blocked": Block.objects.filter(blocker=me).select_related("blocked"),
        "last_game": GameRecord.objects.filter(players__contains=[me.pk],
                                               status=GameRecord.Status.ENDED)
        .order_by("-ended_at").first(),
        "poll_seconds": settings.FRIENDS_POLL_SECONDS,
    })


@require_GET
@login_required
def friend_list(request: HttpRequest) -> HttpResponse:
    """The list alone: the page polls it (htmx) for live statuses."""
    presence.mark_seen(request.user.pk)
    return render(request, "friends/_list.html", _list_context(request.user))


@require_GET
@login_required
def notices(request: HttpRequest) -> HttpResponse:
    """What every page of a signed-in player polls (base.html): table invitations to
    accept with one click, and how many friend requests wait. Marks the player online."""
    presence.mark_seen(request.user.pk)
    return render(request, "friends/_notices.html", {
        "invites": invites.pending_invites(request.user),
        "requests": FriendRequest.objects.filter(recipient=request.user).count(),
        "poll_seconds": settings.FRIENDS_POLL_SECONDS,
    })


@require_POST
@login_required
def friend_request(request: HttpRequest) -> HttpResponse:
    def act():
        other = services.person(request.POST.get("username"))
        if services.friend_request(sender=request.user, recipient=other) == "friends":
            return _("你和 %(name)s 已经是好友了") % {"name": other}
        return _("已向 %(name)s 发送好友申请") % {"name": other}
    return _act(request, act)


@require_POST
@login_required
def friend_action(request: HttpRequest, user_id: int, action: str) -> HttpResponse:
    """accept, decline, remove, block, unblock, invite: one player, one button."""
    me = request.user

    def act():
        if action == "accept":
            services.friend_accept(user=me, sender_id=user_id)
            return _("已添加好友")
        if action == "decline":
            services.friend_decline(user=me, sender_id=user_id)
            return _("已拒绝好友申请")
        if action == "remove":
            services.friend_remove(user=me, other_id=user_id)
            return _("已删除好友")
        if action == "block":
            other = User.objects.filter(pk=user_id).first()
            if other is None:
                raise ActionError(_("没有这位玩家"))
            services.block(user=me, other=other)
            return _("已屏蔽：对方不能再邀请你，你也看不到对方的快捷聊天")
        if action == "unblock":
            services.unblock(user=me, other_id=user_id)
            return _("已取消屏蔽")
        if action == "invite":
            invites.invite_friend(sender=me, recipient_id=user_id)
            return _("邀请已发出：对方在任何页面都会看到")
        raise ActionError(_("没有这个操作"))
    return _act(request, act)


@require_POST
@login_required
def invite_answer(request: HttpRequest, invite_id: int, answer: str) -> HttpResponse:
    if answer == "accept":
        try:
            seat = invites.invite_accept(user=request.user, invite_id=invite_id)
        except ActionError as error:
            messages.error(request, str(error))
            return _go(request, reverse("friends"))
        return _go(request, reverse("table", args=[seat.table_id]))
    try:
        invites.invite_decline(user=request.user, invite_id=invite_id)
    except ActionError as error:
        messages.error(request, str(error))
    return _back(request)


@require_POST
@login_required
def choose_seat(request: HttpRequest) -> HttpResponse:
    def act():
        seat = request.POST.get("seat", "")
        seat_move(user=request.user, seat_index=int(seat) if seat.isdigit() else seat)
        return _("已换到座位 %(seat)s") % {"seat": int(seat) + 1}
    return _act(request, act)


@require_POST
@login_required
def rematch_view(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        private = rematch.rematch(user=request.user, game_id=game_id)
    except (ActionError, LedgerError) as error:
        messages.error(request, _("无法再来一局：%(reason)s") % {"reason": error})
        return _back(request)
    messages.success(request, _("新的好友房已开好，上一局的牌友都收到了邀请"))
    return _go(request, reverse("table", args=[private.table_id]))


@require_GET
@login_required
def friends_board(request: HttpRequest) -> HttpResponse:
    """Me and my friends, by points this week and all time (staff and bots never)."""
    ids = [request.user.pk, *services.friend_ids(request.user.pk)]
    return render(request, "friends/board.html", {
        "weekly": weekly_points(user_ids=ids), "total": total_points(user_ids=ids)})


# --- internals --------------------------------------------------------------------------

def _list_context(me: User) -> dict:
    friends = list(User.objects.filter(pk__in=services.friend_ids(me.pk)))
    table = invites.my_private_table(me)
    seats = list(Seat.objects.filter(table_id=table.table_id).select_related("user")
                 .order_by("index")) if table else []
    here = {seat.user_id for seat in seats}
    return {"friends": presence.statuses(me, friends), "my_table": table, "my_seats": seats,
            "seated_here": here, "poll_seconds": settings.FRIENDS_POLL_SECONDS}


def _act(request: HttpRequest, act) -> HttpResponse:
    try:
        messages.success(request, act())
    except (ActionError, LedgerError) as error:
        messages.error(request, str(error))
    return _back(request)


def _back(request: HttpRequest) -> HttpResponse:
    return _go(request, local_next(request, request.POST.get("next")) or reverse("friends"))


def _go(request: HttpRequest, url: str) -> HttpResponse:
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
