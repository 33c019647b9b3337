"""Writes for the accounts app."""

from __future__ import annotations

from django.contrib.auth import login
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from .models import User


def user_ensure(
    *, username: str, password: str, nickname: str = "", is_superuser: bool = False
) -> tuple[User, bool]:
    """Create the user unless one with that username exists; returns (user, created).

    An existing user is left exactly as it is, its password included.
    """
    user = User.objects.filter(username=username).first()
    if user is not None:
        return user, False
    create = User.objects.create_superuser if is_superuser else User.objects.create_user
    return create(username=username, password=password, nickname=nickname), True


def player_sign_up(*, username: str, nickname: str, password: str,
                   request: HttpRequest | None = None) -> User:
    """Create a player, then log the player in when a request is given. No coins yet:
    the starting grant is posted after the player's first settled game
    (ledger.services.grant_starting_coins_after_game; docs/ledger.md). The caller has
    validated the input (SignUpForm) and counted the sign-up against its address
    (signup_limits); a username taken meanwhile by a racing sign-up raises
    ValidationError and writes nothing."""
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, password=password,
                                            nickname=nickname.strip())
    except IntegrityError as error:
        if not User.objects.filter(username=username).exists():
            raise
        raise ValidationError({"username": _("该用户名已被注册。")}, code="unique") from error
    if request is not None:
        login(request, user)
    return user


def api_token_for(user: User):
    """The user's API token (rest_framework.authtoken), created on first use."""
    token, _created = Token.objects.get_or_create(user=user)
    return token
