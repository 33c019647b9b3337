"""Pages and forms of private tables (好友房): open one from the lobby, join
by code or by the invite link, and the host's buttons at the table. Thin: each calls
one service of games.live.private_tables and goes back with a message. Every code
looked up (the code box, the invite page and its button) counts against the invite
limits (games.web.invite_limits): past them, or while they cannot be checked, the
invite page says so with a 429 or 503 and Retry-After."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.errors import ActionError
from games.live import private_tables
from games.live.snapshots import table_state
from games.models import Table
from games.web import invite_limits
from games.web.invite_limits import InviteLimitsUnavailable, InviteTriesExceeded
from games.web.private_panel import panel_context
from games.web.views import _go


@require_POST
@login_required
def private_table_open(request: HttpRequest) -> HttpResponse:
    room = request.POST.get("room", "")
    if not room.isdigit():
        messages.error(request, _("请选择一个房间"))
        return _go(request, reverse("lobby"))
    try:
        private = private_tables.private_table_open(
            host=request.user, room_id=int(room), spectators=request.POST.get("spectators") == "1")
    except ActionError as error:
        messages.error(request, _("无法开好友房：%(reason)s") % {"reason": error})
        return _go(request, reverse("lobby"))
    messages.success(request, _("好友房已开好，邀请码 %(code)s：把邀请链接发给朋友吧。")
                     % {"code": private.code})
    return _go(request, reverse("table", args=[private.table_id]))


@require_POST
@login_required
def private_table_join(request: HttpRequest) -> HttpResponse:
    return _join(request, request.POST.get("code", ""))


@require_http_methods(["GET", "POST"])
def invite(request: HttpRequest, code: str) -> HttpResponse:
    """The invite link: a page that says whose table it is, and a button to sit down
    (a GET never seats anyone); to a visitor, that an invitation waits and the ways to
    log in or sign up that come back here, naming nobody. A code that opens no table
    (unknown, closed, expired) gets a 404 that names nobody and says why."""
    here = request.get_full_path()
    if not request.user.is_authenticated:
        if request.method == "POST":
            return redirect_to_login(here)
        # A visitor learns that this is an invitation and the ways in that come back
        # here; the code is not looked up (whose table it is stays for the signed-in).
        return render(request, "games/invite.html", {
            "visitor": True, "login_url": f"{reverse('login')}?{urlencode({'next': here})}",
            "signup_url": f"{reverse('signup')}?{urlencode({'next': here})}"})
    if request.method == "POST":
        return _join(request, code)
    try:
        with invite_limits.code_lookup(request):
            private = private_tables.usable_invite(code)
    except (InviteTriesExceeded, InviteLimitsUnavailable) as refused:
        return _lookup_refused(request, refused)
    except ActionError as error:
        return render(request, "games/invite.html", {"miss": error, "miss_code": error.code},
                      status=404)
    return render(request, "games/invite.html", {"private": private})


@require_GET
@login_required
def private_panel(request: HttpRequest, table_id: int) -> HttpResponse:
    """The table page's private-table panel alone, for its script to put in place when
    the seats or the series change (a friend sits, the host removes one, a game is
    settled, the table is closed): what the panel of a fresh page would show."""
    table = get_object_or_404(Table.objects.select_related("room"), pk=table_id)
    context = panel_context(table, request.user)
    if context["private"] is None:
        raise Http404
    state = table_state(table)
    seats = [{**seat, "mine": seat["user"] == request.user.pk} for seat in state["seats"]]
    return render(request, "games/_private_table_panel.html",
                  {**context, "table": table, "seats": seats})


@require_POST
@login_required
def private_table_host_action(request: HttpRequest, table_id: int, action: str) -> HttpResponse:
    """The host's remove, fill-bots and close buttons on the table page."""
    try:
        if action == "remove":
            user = request.POST.get("user", "")
            if not user.isdigit():
                raise ActionError(_("请选择要移除的玩家"))
            private_tables.private_table_remove(host=request.user, table_id=table_id,
                                                user_id=int(user))
        elif action == "fill-bots":
            private_tables.private_table_fill_bots(host=request.user, table_id=table_id)
        elif action == "close":
            private_tables.private_table_close(host=request.user, table_id=table_id)
            messages.success(request, _("好友房已关闭。"))
            return _go(request, reverse("lobby"))
        else:
            raise ActionError(_("未知的操作 %(action)s") % {"action": action})
    except ActionError as error:
        messages.error(request, str(error))
    return _go(request, reverse("table", args=[table_id]))


def _join(request: HttpRequest, code: str) -> HttpResponse:
    try:
        with invite_limits.code_lookup(request):
            seat = private_tables.private_table_join(user=request.user, code=code)
    except (InviteTriesExceeded, InviteLimitsUnavailable) as refused:
        return _lookup_refused(request, refused)
    except ActionError as error:
        messages.error(request, _("无法加入好友房：%(reason)s") % {"reason": error})
        return _go(request, reverse("lobby"))
    return _go(request, reverse("table", args=[seat.table_id]))


def _lookup_refused(request: HttpRequest,
                    refused: InviteTriesExceeded | InviteLimitsUnavailable) -> HttpResponse:
    """The invite page saying why no code was looked up: 429 past the limits, 503 while
    they cannot be checked, each with Retry-After."""
    status = 429 if isinstance(refused, InviteTriesExceeded) else 503
    response = render(request, "games/invite.html", {"refusal": refused.message},
                      status=status)
    response["Retry-After"] = str(refused.retry_after_seconds)
    return response
