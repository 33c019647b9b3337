"""How many table sockets one user, and one client address, may hold open on this
process (docs/protocol.md, "Connecting").

All of a process's sockets share its event loop and its one database thread: 200
sockets of one account asking for snapshots took another table's round trip from
19 ms to 13.7 s. The counts are per process, like that thread; a socket
over a cap is accepted and closed with 4429.
"""

from __future__ import annotations

import threading
from collections import Counter

from django.conf import settings

from accounts import login_limits

CLOSE_TOO_MANY = 4429

_lock = threading.Lock()
_per_user: Counter[int] = Counter()
_per_address: Counter[str] = Counter()


def client_address(scope: dict) -> str | None:
    """The socket's client address, by the site's one rule for it (behind trusted
    proxies, from X-Forwarded-For: accounts.login_limits.client_address); otherwise the
    peer, which behind a proxy would put every player in one address's cap."""
    client = scope.get("client")
    headers = dict(scope.get("headers") or ())
    return login_limits.client_address(str(client[0]) if client else None,
                                       headers.get(b"x-forwarded-for", b"").decode("latin-1"))


def admit(user_id: int, address: str | None) -> bool:
    """Count one more socket for ``user_id`` and ``address``, unless that passes a cap;
    a True answer must be matched by one ``release``."""
    with _lock:
        if _per_user[user_id] >= settings.GAMES_SOCKETS_PER_USER:
            return False
        if address is not None and _per_address[address] >= settings.GAMES_SOCKETS_PER_ADDRESS:
            return False
        _per_user[user_id] += 1
        if address is not None:
            _per_address[address] += 1
        return True


def release(user_id: int, address: str | None) -> None:
    with _lock:
        _per_user[user_id] -= 1
        if _per_user[user_id] <= 0:
            del _per_user[user_id]
        if address is not None:
            _per_address[address] -= 1
            if _per_address[address] <= 0:
                del _per_address[address]


def open_sockets(user_id: int) -> int:
    with _lock:
        return _per_user[user_id]
