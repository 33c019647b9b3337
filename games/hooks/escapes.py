"""One story of a player's escapes, told the same on every page (the history, the stats,
the lobby's warning). Which games count as a player's escape is fair play's to say (its
records: an ``escape`` event, or in ``end_game`` rooms a seat in 托管 for a disconnect
whose player had not come back by the settlement, RULES §10); the pages of games and
stats read it through the readers registered here, never importing fair play."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.utils.translation import gettext_lazy as _

from games.hooks.registry import Registry

# user id, game ids (None: all of them) → game id → kind ("escape", "disconnect").
EscapeReader = Callable[[int, Iterable[int] | None], dict[int, str]]

escape_readers: Registry[EscapeReader] = Registry()

# The rule that made a game an escape, by kind (RULES §10).
ESCAPE_RULES = {
    "escape": _("离开了进行中的对局"),
    "disconnect": _("断线后直到结算都没回到牌桌（本房间逃跑即结束，托管代打不免逃跑）"),
}


def escapes_of(user_id: int, game_ids: Iterable[int] | None = None) -> dict[int, str]:
    """The games (of ``game_ids``, or all) that count as ``user_id``'s escapes, with
    their kind; a game of an ``escape`` event counts without any reader too."""
    found: dict[int, str] = {}
    ids = None if game_ids is None else list(game_ids)
    for reader in escape_readers:
        found.update(reader(user_id, ids))
    return found


def escape_rule(kind: str) -> str:
    """Why a game of this kind counts as an escape, in the reader's words."""
    rule = ESCAPE_RULES.get(kind)
    return str(rule) if rule is not None else ""
