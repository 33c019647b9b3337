"""Links the table page shows beside 返回大厅, asked of the apps that know more
(tournaments: the way back to the tournament a table plays for). Each registered
callable returns ``(label, url)`` pairs for a table, or none."""

from __future__ import annotations

from collections.abc import Callable

from games.hooks.registry import Registry
from games.models import Table

TableLinks = Callable[[Table], list[tuple[str, str]]]

table_links: Registry[TableLinks] = Registry()


def links_for(table: Table) -> list[tuple[str, str]]:
    return [link for linker in table_links for link in linker(table)]
