"""Who may see a table and its games: the one policy behind every read of them (the
table page and socket, the private table's API and panel, the game API and its log,
the replay page and its download, the analysis), so no reader decides it alone.

- A public table, and a private table (好友房) whose host allows spectators, is open to
  anyone signed in; its games are public as any game is (no hand while one runs, the
  whole log once it has ended).
- A private table whose host turned spectators off is its **insiders'**: whoever is
  seated there and its host. A game dealt there is read, while it runs, by its players
  and the table's insiders only; once it has ended, by its players, the host and staff
  (a fair-play review reads finished games; nobody, staff included, watches such a
  game live: the players were promised no spectators).
- A private table's invite code is its insiders' only, whatever its spectators say.

Anonymous users are never insiders. A user is told apart by ``user.pk``, and never
when it is None: an anonymous user's missing id must not match an empty seat's.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext

from accounts.models import User
from games.hooks.visibility import guards_let_read, watch_guard_refusal
from games.models import GameRecord, PrivateTable, Seat, Table

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
    return watch_refusal(user, table_id) is None


def watch_refusal(user: Viewer, table_id: int) -> str | None:
    """Why ``user`` may not open the table, in words for them; None if they may."""
    refused = watch_guard_refusal(user, table_id)  # the apps' own rules
    if refused is not None:
        return refused
    private = closed_private(table_id)
    if private is not None and not private_insider(user, private):
        return gettext("这张好友房不允许旁观")
    return None


def may_read_game(user: Viewer, record: GameRecord) -> bool:
    """Whether ``user`` may read the game at all (what of it, hands and log, is the
    reader's to filter): see the module's docstring."""
    if not guards_let_read(user, record):  # the apps' own rules (games.hooks.visibility)
        return False
    private = closed_private(record.table_id)
    if private is None:
        return True
    user_id = viewer_id(user)
    if user_id is None:
        return False
    if user_id in (record.players or []) or user_id == private.host_id:
        return True
    if record.status == GameRecord.Status.ENDED:
        return bool(user.is_staff)
    return private_insider(user, private)


def socket_refusal(user: Viewer, table_id: int, *, seated: bool = False) -> int | None:
    """The close code for a table socket that may not open ``table_id``: 4404 no such
    table, 4403 a private table whose host turned spectators off
    (games.live.private_tables). None: it may open. A player ``seated`` at the table
    may always open it, at no query: they are an insider of a private table, and the
    apps' watch guards let a seated player watch their own table
    (games.hooks.visibility)."""
    if seated:
        return None
    if not Table.objects.filter(pk=table_id).exists():
        return 4404
    if not may_watch(user, table_id):
        return 4403
    return None
