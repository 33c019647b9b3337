"""Who may see a table or a game, asked of the apps that know more (tournaments: the
same deals are played at every table of a round, so an entrant may not watch another
table, nor anyone read a board's game before every table has finished that board).
games.live.visibility asks these after its own policy: a watch guard returns the
refusal's message for the viewer, a read guard False to refuse; None (or True) leaves
the decision to the others. A watch guard is not asked about a player seated at the
table: they may always open it (their socket opens without the guards' queries)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.hooks.registry import Registry

WatchGuard = Callable[[Any, int], "str | None"]
ReadGuard = Callable[[Any, Any], "bool | None"]

watch_guards: Registry[WatchGuard] = Registry()
read_guards: Registry[ReadGuard] = Registry()


def watch_guard_refusal(user: Any, table_id: int) -> str | None:
    """The first watch guard's refusal; None when every guard lets ``user`` watch."""
    return next((refusal for guard in watch_guards
                 if (refusal := guard(user, table_id)) is not None), None)


def guards_let_read(user: Any, record: Any) -> bool:
    return all(guard(user, record) is not False for guard in read_guards)
