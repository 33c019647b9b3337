"""Invite-code lookups allowed per user and per client address: every way a code is
looked up (the join API, the lobby's code box, the invite page and its button) runs
its lookup inside ``code_lookup``. A code is six letters of 31 (≈ 8.9 × 10⁸ codes), so
without a limit a script could sweep for live tables.

What counts: only lookups that find no usable table (an unknown, closed or expired
code). A guesser misses nearly every time, while a friend's link works at its first
try and reloading its page costs nothing; the defaults (settings.base) are far above
what a person mistyping reaches. Each lookup takes a slot before it runs and gives it
back unless it missed, so racing requests on any number of processes never get more
misses than the allowance (common.fixed_windows.reserve). Once the user's or
the address's count is used up, every lookup is refused, right code or not, until the
window closes: a refusal that only wrong codes got would tell the guesser when it hit.

The address is ``accounts.login_limits.client_ip`` (TRUSTED_PROXY_COUNT), the one the
login and sign-up limits count.

When the cache cannot be reached, lookups fail closed (503 with Retry-After), as
logins do: a count per process instead would multiply the allowance by the processes
and forget it at each restart, i.e. let guessing through exactly while the limits are
down; and while Redis is down the tables cannot be played anyway (the channel layer is
Redis too), so refusing to seat anyone for the outage costs players little.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator

import redis
from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext as _

from accounts.login_limits import _digest, client_ip
from common import fixed_windows
from games.errors import ActionError

# The lookup's refusals that mean "no usable table has this code"
# (games.live.private_tables.usable_invite).
MISSES = frozenset({"invite_unknown", "invite_closed", "invite_expired"})


class InviteTriesExceeded(Exception):
    """Too many wrong codes from this user or address; nothing was looked up."""

    def __init__(self, retry_after_seconds: int) -> None:
        super().__init__(f"too many invite codes tried, retry in {retry_after_seconds} s")
        self.retry_after_seconds = retry_after_seconds

    @property
    def message(self) -> str:
        minutes = max(1, math.ceil(self.retry_after_seconds / 60))
        return _("邀请码尝试次数过多，请 %(minutes)d 分钟后再试。") % {"minutes": minutes}


class InviteLimitsUnavailable(Exception):
    """The counts cannot be read or written (the cache is down); nothing was looked
    up. Retry after ``RETRY_AFTER_SECONDS``."""

    RETRY_AFTER_SECONDS = 30

    @property
    def retry_after_seconds(self) -> int:
        return self.RETRY_AFTER_SECONDS

    @property
    def message(self) -> str:
        return _("暂时无法核对邀请码，请稍后再试。")


@contextlib.contextmanager
def code_lookup(request: HttpRequest) -> Iterator[None]:
    """Run the block's invite-code lookup within the limits of ``request``'s user and
    address. Raises InviteTriesExceeded or InviteLimitsUnavailable before the block
    runs; a block that raises an ActionError of ``MISSES`` keeps its slot, any other
    ending gives it back."""
    window = int(settings.GAMES_INVITE_TRIES_WINDOW_SECONDS)
    taken: list[str] = []
    try:
        for key, allowed in _keys(request):
            wait = fixed_windows.reserve(key, allowed, window)
            if wait:
                _give_back(taken)
                raise InviteTriesExceeded(wait)
            taken.append(key)
    except redis.RedisError as error:  # ConnectionError and TimeoutError among them
        raise InviteLimitsUnavailable(str(error)) from error
    missed = False
    try:
        yield
    except ActionError as error:
        missed = error.code in MISSES
        raise
    finally:
        if not missed:
            _give_back(taken)


def _keys(request: HttpRequest) -> list[tuple[str, int]]:
    """The cache key and allowance of each count: the user's, the address's."""
    return [(f"invite-try:user:{request.user.pk}", int(settings.GAMES_INVITE_TRIES_PER_USER)),
            (f"invite-try:ip:{_digest(client_ip(request))}",
             int(settings.GAMES_INVITE_TRIES_PER_ADDRESS))]


def _give_back(keys: list[str]) -> None:
    # A cache gone meanwhile keeps the slots: the lookup stays counted, never the reverse.
    with contextlib.suppress(redis.RedisError):
        for key in keys:
            fixed_windows.give_back(key)
