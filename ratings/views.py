"""The ratings pages: the boards and a player's ratings with their history chart. Thin:
parse, read (ratings.selectors), render."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from accounts.models import User
from ledger.charts import points_chart

from .matchmaking import Terms
from .models import Family, Season
from .selectors import (
    all_time_board,
    history_series,
    may_see_history,
    player_ratings,
    rating_history,
    season_board,
)


@require_GET
def leaderboard_page(request: HttpRequest) -> HttpResponse:
    family = request.GET.get("family", Family.FOUR)
    if family not in Family.values:
        raise Http404("no such family")
    wanted = request.GET.get("season", "all")
    season = None
    if wanted == "current":
        season = Season.current()  # none running: an empty board that says so
    elif wanted != "all":
        season = Season.objects.filter(pk=int(wanted)).first() if wanted.isdigit() else None
        if season is None:
            raise Http404("no such season")
    if season is not None:
        rows = season_board(family, season)
    else:
        rows = [] if wanted == "current" else all_time_board(family)
    return render(request, "ratings/leaderboard.html", {
        "family": family, "families": Family.choices, "season": season,
        "wanted": wanted, "seasons": Season.objects.all()[:20], "current_season": Season.current(),
        "rows": rows, "terms": Terms.now()})


@require_GET
def player_ratings_page(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username, is_active=True)
    visible = may_see_history(request.user, player)
    charts = []
    if visible:
        for rating in player_ratings(player):
            changes = rating_history(player, rating.family)
            charts.append({"rating": rating, "changes": changes[::-1][:20],
                           "chart": points_chart(history_series(changes))})
    return render(request, "ratings/player_ratings.html", {
        "player": player, "ratings": player_ratings(player), "visible": visible,
        "charts": charts})
