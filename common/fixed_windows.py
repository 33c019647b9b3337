"""Counts in fixed windows, kept in Django's cache: the one counter behind the
failed-login, sign-up and invite-code limits (accounts.login_limits,
accounts.signup_limits, games.web.invite_limits).

A key's window opens with its first count and closes ``seconds`` later, when the cache
expires it. Each step is one atomic cache operation (``add`` writes a key only where it
is missing, with its expiry; ``incr`` adds one and answers the new count), and the
cache is Redis in test and production, so racing requests on any number of processes
each get a count of their own. Cache errors (``redis.RedisError``) are the caller's.
"""

from __future__ import annotations

import math
import time

from django.core.cache import cache


def count(key: str, seconds: int) -> int:
    """Add one to the key's count, opening its window if none is open; the new count."""
    cache.add(f"{key}:t", time.time(), timeout=seconds)
    cache.add(f"{key}:n", 0, timeout=seconds)
    try:
        return cache.incr(f"{key}:n")
    except ValueError:  # the window closed between add and incr
        cache.set(f"{key}:n", 1, timeout=seconds)
        return 1


def give_back(key: str) -> None:
    """Take one off the key's count (a slot ``reserve`` took that was not used up)."""
    try:
        cache.decr(f"{key}:n")
    except ValueError:  # the window has closed meanwhile: nothing to give back
        pass


def reserve(key: str, allowed: int, seconds: int) -> int:
    """Take one of the window's ``allowed`` slots: 0 when taken, otherwise nothing is
    taken and the answer is the seconds until the window closes. Counting before the
    guarded action (rather than checking, then counting after it) keeps racing requests
    from slipping past the limit."""
    if count(key, seconds) <= allowed:
        return 0
    give_back(key)
    return seconds_left(key, seconds)


def blocked_for(key: str, allowed: int, seconds: int) -> int:
    """Seconds until the key may count again: 0 while its count is under ``allowed``."""
    counts = cache.get_many([f"{key}:n", f"{key}:t"])
    if counts.get(f"{key}:n", 0) < allowed:
        return 0
    return _left(counts.get(f"{key}:t"), seconds)


def seconds_left(key: str, seconds: int) -> int:
    """Seconds until the key's window closes (at least 1)."""
    return _left(cache.get(f"{key}:t"), seconds)


def clear(key: str) -> None:
    cache.delete_many([f"{key}:n", f"{key}:t"])


def _left(started: float | None, seconds: int) -> int:
    elapsed = time.time() - started if started is not None else 0
    return max(1, math.ceil(seconds - elapsed))
