"""Who may see a table or a game, asked of the apps that know more (tournaments: the
same deals are played at every table of a round, so an entrant may not watch another
table, nor anyone read a board's game before every table has finished that board).
games.live.visibility asks these after its own policy: a guard returns False to
refuse, anything else to leave the decision to the others."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.hooks.registry import Registry

WatchGuard = Callable[[Any, int], "bool | None"]
ReadGuard = Callable[[Any, Any], "bool | None"]

watch_guards: Registry[WatchGuard] = Registry()
read_guards: Registry[ReadGuard] = Registry()


def guards_let_watch(user: Any, table_id: int) -> bool:
    return all(guard(user, table_id) is not False for guard in watch_guards)


def guards_let_read(user: Any, record: Any) -> bool:
    return all(guard(user, record) is not False for guard in read_guards)
