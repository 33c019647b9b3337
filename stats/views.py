"""The player stats page and the owner's public/private switch. Thin: parse,
authorise, call, render."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from accounts.selectors import player_standing

from .boards import week_start, weekly_points
from .selectors import may_see_stats, player_stats
from .services import stats_visibility_set


@require_GET
def player_stats_page(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username, is_active=True)
    if may_see_stats(request.user, player):
        context = {"player": player, "stats": player_stats(player), "visible": True}
    else:
        # A private player's page: name and level only.
        context = {"player": player, "standing": player_standing(player), "visible": False}
    context["own"] = request.user.is_authenticated and request.user.pk == player.pk
    return render(request, "stats/player_stats.html", context)


@require_POST
@login_required
def stats_visibility(request: HttpRequest) -> HttpResponse:
    """The owner's switch on their profile page: a checkbox, absent when unticked."""
    public = request.POST.get("stats_public") == "on"
    stats_visibility_set(user=request.user, public=public)
    messages.success(request, _("统计已设为公开。") if public else _("统计已设为仅自己可见。"))
    return redirect("my-profile")


@require_GET
def weekly_board(request: HttpRequest) -> HttpResponse:
    """Points won this week (public, like the all-time board): stats.boards."""
    return render(request, "stats/weekly_board.html", {
        "rows": weekly_points(), "week_start": week_start()})
