"""Who may see a table: the one policy behind every read of it (the table page and
socket, the private table's API and panel), so no reader decides it alone.

- A public table, and a private table (好友房) whose host allows spectators, is open to
  anyone signed in.
- A private table whose host turned spectators off is its **insiders'**: whoever is
  seated there and its host.
- A private table's invite code is its insiders' only, whatever its spectators say.

Anonymous users are never insiders. A user is told apart by ``user.pk``, and never
when it is None: an anonymous user's missing id must not match an empty seat's.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from games.models import PrivateTable, Seat

Viewer = User | AnonymousUser | None


def viewer_id(user: Viewer) -> int | None:
    """The id of a signed-in user; None for anyone else."""
    if user is None or not user.is_authenticated:
        return None
    return user.pk


def private_insider(user: Viewer, private: PrivateTable) -> bool:
    """Whether ``user`` is seated at the private table or is its host."""
    user_id = viewer_id(user)
    if user_id is None:
        return False
    return user_id == private.host_id or Seat.objects.filter(
        table_id=private.table_id, user_id=user_id).exists()


def closed_private(table_id: int) -> PrivateTable | None:
    """The table's private row when its host turned spectators off; None otherwise."""
    return PrivateTable.objects.filter(table_id=table_id, spectators=False).first()


def may_watch(user: Viewer, table_id: int) -> bool:
    """Whether ``user`` may open the table (its page, its socket) without a seat there:
    any table but a private one without spectators, which only its insiders may."""
    private = closed_private(table_id)
    return private is None or private_insider(user, private)

