"""Sign-ups allowed per client address, counted in Django's cache (issue #11: 43 of 50
sign-ups from one address in 34 s succeeded). The address is ``client_ip``'s, the same
one the login limits count; the count is a fixed window opened by the first sign-up of
the address. The cache is Redis in test and production, so the count holds across
processes (``incr`` is atomic)."""

from __future__ import annotations

import math
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

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
    key = _key(request)
    cache.add(f"{key}:t", time.time(), timeout=window)
    cache.add(f"{key}:n", 0, timeout=window)
    try:
        count = cache.incr(f"{key}:n")
    except ValueError:  # the window closed between add and incr
        cache.set(f"{key}:n", 1, timeout=window)
        count = 1
    if count > allowed:
        cache.decr(f"{key}:n")
        started = cache.get(f"{key}:t")
        elapsed = time.time() - started if started is not None else 0
        raise SignUpBlocked(max(1, math.ceil(window - elapsed)))


def release_sign_up(request: HttpRequest | None) -> None:
    """Give back the slot of a sign-up that created nothing (a username taken by a race)."""
    try:
        cache.decr(f"{_key(request)}:n")
    except ValueError:  # the window has closed meanwhile: nothing to give back
        pass
