"""Writes for the accounts app."""

from __future__ import annotations

import time

from django.contrib.auth import login
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils.translation import gettext as _

from .levels import level_for_points
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
    """Create a player and post the starting grant (settings.LEDGER_STARTING_COINS) in
    one transaction, then log the player in when a request is given. The caller has
    validated the input (SignUpForm); a username taken meanwhile by a racing sign-up
    raises ValidationError and writes nothing."""
    # ledger.services imports this module, so import it when called.
    from ledger.services import grant_starting_coins

    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, password=password,
                                            nickname=nickname.strip())
            grant_starting_coins(user)
    except IntegrityError as error:
        if not User.objects.filter(username=username).exists():
            raise
        raise ValidationError({"username": _("该用户名已被注册。")}, code="unique") from error
    if request is not None:
        login(request, user)
    return user


def api_token_for(user: User):
    """The user's API token (rest_framework.authtoken), created on first use."""
    # Imported here: this module is imported by ledger.services, possibly while the
    # app registry is still loading.
    from rest_framework.authtoken.models import Token

    token, _created = Token.objects.get_or_create(user=user)
    return token


_LADDER_SECONDS = 30.0
_ladder: tuple[float, list[tuple[int, int]]] | None = None


def level_ladder() -> list[tuple[int, int]]:
    """(level, points needed), read at most every 30 s per process: every posting of
    points needs it. Edits in this process are seen at once (``ladder_changed``);
    other processes see them within the 30 s."""
    global _ladder
    now = time.monotonic()
    if _ladder is None or _ladder[0] < now:
        from .models import Level

        _ladder = (now + _LADDER_SECONDS,
                   list(Level.objects.values_list("number", "min_points")))
    return _ladder[1]


def ladder_changed(**kwargs) -> None:
    global _ladder
    _ladder = None


def levels_refresh(*, points_by_user: dict[int, int]) -> None:
    """Set these players' levels from their new point balances, in one statement; the
    ledger calls this whenever it posts points (inside its transaction)."""
    from ledger.sql import set_levels

    ladder = level_ladder()
    set_levels({user_id: level_for_points(points, ladder)
                for user_id, points in points_by_user.items()})


def levels_refresh_all() -> int:
    """Recompute every player's level after the ladder changed (admin edits of the Level
    table); returns how many players changed level.

    Takes no locks: a posting that commits while it runs may leave that player's stored
    level stale until their next posting. Pages and the API show the level computed from
    points (accounts.selectors), so they are right either way."""
    from ledger.models import Account, Currency

    ladder = level_ladder()
    points = dict(Account.objects.filter(user__isnull=False, currency=Currency.POINT)
                  .values_list("user_id", "balance"))
    changed = []
    for user in User.objects.only("pk", "level").order_by("pk").iterator(chunk_size=2000):
        level = level_for_points(points.get(user.pk, 0), ladder)
        if user.level != level:
            user.level = level
            changed.append(user)
    User.objects.bulk_update(changed, ["level"], batch_size=500)
    return len(changed)
