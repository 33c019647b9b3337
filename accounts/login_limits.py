"""Failed-login limits, per username and per client IP, kept in Django's cache.

Every way in that checks a password (the login page, the admin login, POST /api/token)
goes through ``authenticate_limited``. A key's failures are counted in a fixed window
that opens at its first failure (common.fixed_windows); once a key has had its
allowed number of failures, every attempt on it is refused, right password or not, until
the window closes. The cache is Redis in test and production, so the counts hold across
processes (``incr`` is atomic).

When the cache cannot be reached, logins fail closed: ``LoginUnavailable``, which the
pages and the API answer with 503 and Retry-After (accounts.middleware, accounts.api),
never a 500 and never a password check without the limits. A per-process count in memory
instead would multiply the allowance by the number of processes behind the load balancer
and forget it at every restart, i.e. let guessing through exactly while the limits are
down; and while Redis is down the tables cannot be played anyway (the channel layer is
Redis too), so refusing logins for the outage costs players little.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

import redis
from django.conf import settings
from django.contrib.auth import authenticate
from django.http import HttpRequest

from common import fixed_windows

from .models import User


@dataclass(frozen=True)
class Limit:
    failures: int
    window_seconds: int


class LoginBlocked(Exception):
    """Too many failed logins for this username or IP; nothing was checked."""

    def __init__(self, retry_after_seconds: int) -> None:
        super().__init__(f"too many failed logins, retry in {retry_after_seconds} s")
        self.retry_after_seconds = retry_after_seconds

    @property
    def minutes(self) -> int:
        return max(1, math.ceil(self.retry_after_seconds / 60))


class LoginUnavailable(Exception):
    """The failed-login counts cannot be read or written (the cache is down); nothing
    was checked. Retry after ``RETRY_AFTER_SECONDS``."""

    RETRY_AFTER_SECONDS = 30


def login_limits() -> dict[str, Limit]:
    return {scope: Limit(int(limit["failures"]), int(limit["window_seconds"]))
            for scope, limit in settings.ACCOUNTS_LOGIN_LIMITS.items()}


def client_ip(request: HttpRequest | None) -> str:
    """The client address of an HTTP request (``client_address``)."""
    if request is None:
        return "unknown"
    return client_address(request.META.get("REMOTE_ADDR"),
                          request.META.get("HTTP_X_FORWARDED_FOR", "")) or "unknown"


def client_address(peer: str | None, forwarded_for: str) -> str | None:
    """The one rule for a client's address, for pages and sockets alike: the socket's
    peer, or, behind ACCOUNTS_TRUSTED_PROXY_COUNT = N proxies, the N-th address from
    the right of X-Forwarded-For (the ones further left are whatever the client sent).
    The ASGI server trusts no proxy header itself (uvicorn --no-proxy-headers:
    docs/operations.md)."""
    proxies = settings.ACCOUNTS_TRUSTED_PROXY_COUNT
    if proxies > 0:
        forwarded = [part.strip() for part in forwarded_for.split(",") if part.strip()]
        if forwarded:
            return forwarded[-min(proxies, len(forwarded))]
    return peer or None


def authenticate_limited(request: HttpRequest | None, *, username: str,
                         password: str) -> User | None:
    """``authenticate`` behind the limits: raises LoginBlocked when the username or the
    IP is blocked (also right after the failure that used up the allowance),
    LoginUnavailable when the limits cannot be checked, returns the user or None for
    bad credentials."""
    try:
        return _authenticate_limited(request, username=username, password=password)
    except redis.RedisError as error:  # ConnectionError and TimeoutError among them
        raise LoginUnavailable(str(error)) from error


def _authenticate_limited(request: HttpRequest | None, *, username: str,
                          password: str) -> User | None:
    keys = _keys(username=username, ip=client_ip(request))
    _raise_if_blocked(keys)
    user = authenticate(request, username=username, password=password)
    if user is None:
        for key, limit in keys.values():
            fixed_windows.count(key, limit.window_seconds)
        _raise_if_blocked(keys)
        return None
    # A player who finally remembers the password starts afresh; the IP count stays, or
    # one good account would let an attacker reset it between guesses at others.
    if "username" in keys:
        username_key, _ = keys["username"]
        fixed_windows.clear(username_key)
    return user


def _keys(*, username: str, ip: str) -> dict[str, tuple[str, Limit]]:
    """The cache key and limit of each scope, by scope."""
    # Sign-up refuses usernames that differ only in case, so the variants of a name
    # share one count.
    values = {"username": username.strip().casefold(), "ip": ip}
    return {scope: (f"login-fail:{scope}:{_digest(values[scope])}", limit)
            for scope, limit in login_limits().items() if scope in values}


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()[:32]


def _raise_if_blocked(keys: dict[str, tuple[str, Limit]]) -> None:
    waits = [fixed_windows.blocked_for(key, limit.failures, limit.window_seconds)
             for key, limit in keys.values()]
    if max(waits, default=0) > 0:
        raise LoginBlocked(max(waits))
