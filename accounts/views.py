"""Account pages: sign up, log in, change password, profiles. Thin: parse, call, render."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from common.next_url import local_next
from ledger.selectors import recent_games, user_entries

from .forms import LoginForm, SignUpForm
from .models import User
from .selectors import ladder, level_progress_for_points, player_standing, point_balance
from .services import player_sign_up
from .signup_limits import SignUpBlocked, release_sign_up, reserve_sign_up

RECENT_GAMES = 10
RECENT_ENTRIES = 10
LEADERBOARD_PER_PAGE = 50


@require_http_methods(["GET", "POST"])
def sign_up(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("my-profile")
    form = SignUpForm(request.POST or None)
    retry_after = None
    if request.method == "POST" and form.is_valid():
        try:
            reserve_sign_up(request)
        except SignUpBlocked as blocked:
            form.add_error(None, _("此网络地址注册次数过多，请 %(minutes)d 分钟后再试。")
                           % {"minutes": blocked.minutes})
            retry_after = blocked.retry_after_seconds
        else:
            try:
                player_sign_up(request=request, username=form.cleaned_data["username"],
                               nickname=form.cleaned_data["nickname"],
                               password=form.cleaned_data["password1"])
            except ValidationError as error:
                release_sign_up(request)
                form.add_error(None, error)
            else:
                messages.success(request, _("注册成功。打完第一局后将赠送 %(coins)d 游戏币。")
                                 % {"coins": settings.LEDGER_STARTING_COINS})
                # A new player's next step is a first game (templates/games/play_now.html).
                return redirect(_safe_next(request) or "play-now")
    response = render(request, "registration/signup.html", {
        "form": form, "next": _safe_next(request) or "",
        "starting_coins": settings.LEDGER_STARTING_COINS},
        status=200 if retry_after is None else 429)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


def _safe_next(request: HttpRequest) -> str | None:
    return local_next(request, request.POST.get("next") or request.GET.get("next"))


class LoginView(auth_views.LoginView):
    form_class = LoginForm


class PasswordChangeView(auth_views.PasswordChangeView):
    success_url = reverse_lazy("password_change_done")


@require_GET
@login_required
def my_profile(request: HttpRequest) -> HttpResponse:
    return _profile(request, request.user)


@require_GET
def player_profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username, is_active=True)
    return _profile(request, player)


def _profile(request: HttpRequest, player: User) -> HttpResponse:
    own = request.user.is_authenticated and request.user.pk == player.pk
    context = {
        "player": player,
        "own": own,
        "standing": player_standing(player),
        "games": recent_games(player, limit=RECENT_GAMES),
        # A player's coins and ledger are theirs alone to see.
        "entries": list(user_entries(player)[:RECENT_ENTRIES]) if own else [],
    }
    return render(request, "accounts/profile.html", context)


@require_GET
def levels(request: HttpRequest) -> HttpResponse:
    """The title ladder (RULES §7, from the Level table); a signed-in player also sees
    their own level marked and their progress to the next one."""
    rungs = ladder()
    progress = None
    if request.user.is_authenticated:
        progress = player_standing(request.user).progress
    rows = []
    for index, rung in enumerate(rungs):
        following = rungs[index + 1] if index + 1 < len(rungs) else None
        rows.append({
            "rung": rung,
            # Level 1 also holds every negative balance: its range has no lower end.
            "below": following.min_points if following else None,
            "first": index == 0,
            "mine": progress is not None and progress.current.number == rung.number,
        })
    return render(request, "accounts/levels.html", {"rows": rows, "progress": progress})


def _ranked_players() -> QuerySet[User]:
    """Active players with their points (0 without a points account), bots (users with
    a games.BotPlayer row) and staff excluded, best first; ties by sign-up order."""
    return (User.objects.filter(is_active=True, is_staff=False, is_superuser=False,
                                bot_player__isnull=True)
            .annotate(points=point_balance()).order_by("-points", "pk"))


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    players = _ranked_players()
    page = Paginator(players, LEADERBOARD_PER_PAGE).get_page(request.GET.get("page"))
    rungs = ladder()
    rows = []
    previous = None
    for offset, player in enumerate(page.object_list):
        # Competition ranking (1, 2, 2, 4): equal points share a rank. The first row of
        # a page counts the players above it; the rest follow from their neighbour.
        if previous is None:
            rank = players.filter(points__gt=player.points).count() + 1
        elif player.points == previous["player"].points:
            rank = previous["rank"]
        else:
            rank = page.start_index() + offset
        previous = {
            "player": player, "rank": rank,
            "title": level_progress_for_points(player.points, rungs).current,
            "mine": request.user.is_authenticated and player.pk == request.user.pk,
        }
        rows.append(previous)
    return render(request, "accounts/leaderboard.html", {
        "page": page, "rows": rows, "me": _my_place(request, players)})


def _my_place(request: HttpRequest, players: QuerySet[User]) -> dict | None:
    """The signed-in player's rank and the page it is on; None for visitors and bots."""
    if not request.user.is_authenticated:
        return None
    mine = players.filter(pk=request.user.pk).first()
    if mine is None:
        return None
    above = players.filter(points__gt=mine.points).count()
    ahead_on_ties = players.filter(points=mine.points, pk__lt=mine.pk).count()
    position = above + ahead_on_ties + 1
    return {"rank": above + 1, "points": mine.points,
            "page": (position - 1) // LEADERBOARD_PER_PAGE + 1}
