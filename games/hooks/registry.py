"""A named list of callables that apps above games fill in their AppConfig.ready() and
games calls (the seat guards, the replay page's panels, the history's columns): games
offers the place and never imports who fills it (README, "Layout")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, TypeVar

Item = TypeVar("Item")


class Registry(Generic[Item]):
    """Items by name, in the order first registered. Registering a name again replaces
    its item in place, so a ready() that runs twice adds nothing."""

    def __init__(self) -> None:
        self._items: dict[str, Item] = {}

    def register(self, name: str, item: Item) -> None:
        self._items[name] = item

    def unregister(self, name: str) -> None:
        self._items.pop(name, None)

    def __iter__(self) -> Iterator[Item]:
        return iter(list(self._items.values()))

    def names(self) -> list[str]:
        return list(self._items)

    def items(self) -> list[tuple[str, Item]]:
        return list(self._items.items())
