"""Sign-ups allowed per client address, counted in Django's cache (43 of 50
sign-ups from one address in 34 s succeeded). The address is ``client_ip``'s, the same
one the login limits count; the count is a fixed window opened by the first sign-up of
the address (common.fixed_windows). The cache is Redis in test and production,
so the count holds across processes (``incr`` is atomic)."""

from __future__ import annotations

import math

from django.conf import settings
from django.http import HttpRequest

from common import fixed_windows

from .login_limits import _digest, client_ip


class SignUpBlocked(Exception):
    """This address has used up its sign-ups for the window; nothing was created."""

    def __init__(self, retry_after_seconds: int) -> None:
        super().__init__(f"too many sign-ups, retry in {retry_after_seconds} s")
        self.retry_after_seconds = retry_after_seconds

    @property
    def minutes(self) -> int:
        return max(1, math.ceil(self.retry_after_seconds / 60))


def _limit() -> tuple[int, int]:
    limit = settings.ACCOUNTS_SIGNUP_LIMIT
    return int(limit["signups"]), int(limit["window_seconds"])


def _key(request: HttpRequest | None) -> str:
    return f"signup:ip:{_digest(client_ip(request))}"


def reserve_sign_up(request: HttpRequest | None) -> None:
    """Count one sign-up for the request's address, or raise SignUpBlocked when the
    address has had its allowance in this window. Counting before creating (rather than
    checking, then counting after) keeps racing sign-ups from slipping past the limit;
    ``release_sign_up`` gives the slot back when the sign-up then fails."""
    allowed, window = _limit()
    wait = fixed_windows.reserve(_key(request), allowed, window)
    if wait:
        raise SignUpBlocked(wait)


def release_sign_up(request: HttpRequest | None) -> None:
    """Give back the slot of a sign-up that created nothing (a username taken by a race)."""
    fixed_windows.give_back(_key(request))
