"""Who may see a table or a game, asked of the apps that know more (tournaments: the
same deals are played at every table of a round, so an entrant may not watch another
table, nor anyone read a board's game before every table has finished that board).
games.live.visibility asks these after its own policy: a guard returns False to
refuse (a watch guard may return the refusal's message instead, for the viewer), None
or True to leave the decision to the others."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.hooks.registry import Registry

WatchGuard = Callable[[Any, int], "bool | str | None"]
ReadGuard = Callable[[Any, Any], "bool | None"]

watch_guards: Registry[WatchGuard] = Registry()
read_guards: Registry[ReadGuard] = Registry()


def watch_guard_refusal(user: Any, table_id: int) -> str | bool | None:
    """The first refusal of the watch guards: its message, or False for one without;
    None when every guard lets ``user`` watch."""
    for guard in watch_guards:
        answer = guard(user, table_id)
        if answer is False or isinstance(answer, str):
            return answer
    return None


def guards_let_read(user: Any, record: Any) -> bool:
    return all(guard(user, record) is not False for guard in read_guards)
