"""Account pages: sign up, log in, change password, profiles. Thin: parse, call, render."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from ledger.selectors import recent_games, user_entries

from .forms import LoginForm, SignUpForm
from .models import User
from .selectors import player_standing
from .services import player_sign_up

RECENT_GAMES = 10
RECENT_ENTRIES = 10


@require_http_methods(["GET", "POST"])
def sign_up(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("my-profile")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player_sign_up(request=request, username=form.cleaned_data["username"],
                           nickname=form.cleaned_data["nickname"],
                           password=form.cleaned_data["password1"])
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("注册成功，已赠送 %(coins)d 游戏币。")
                             % {"coins": settings.LEDGER_STARTING_COINS})
            return redirect(_safe_next(request) or "my-profile")
    return render(request, "registration/signup.html", {
        "form": form, "next": _safe_next(request) or "",
        "starting_coins": settings.LEDGER_STARTING_COINS})


def _safe_next(request: HttpRequest) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return None


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
