"""Who may take a seat, asked of the apps that know (fair_play's escape bans): every
way to a seat (sit and quick join, over HTTP, the API and the socket, private tables)
goes through games.live.seating, which calls :func:`check_may_sit`. A guard takes the
user and raises games.errors.ActionError to refuse, with the reason the player sees."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.base_user import AbstractBaseUser

from games.hooks.registry import Registry

SeatGuard = Callable[[AbstractBaseUser], None]

seat_guards: Registry[SeatGuard] = Registry()


def check_may_sit(user: AbstractBaseUser) -> None:
    """Raise the first refusal of a registered guard; return if none refuses."""
    for guard in seat_guards:
        guard(user)
