"""One value per running event loop, for process-wide state of the async code.

A semaphore, a task or a future belongs to the loop that made it, and tests run many
loops in one process: state kept per process is kept per loop, and the entries of
loops that have closed are dropped when a new one is made.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Generic, TypeVar

Value = TypeVar("Value")


class PerLoop(Generic[Value]):
    """A value for each event loop, made on first use."""

    __slots__ = ("_values",)

    def __init__(self) -> None:
        self._values: dict[asyncio.AbstractEventLoop, Value] = {}

    def get(self, loop: asyncio.AbstractEventLoop | None = None) -> Value | None:
        """``loop``'s value (the running loop's by default), or None. Outside a
        running loop, with no ``loop``: None."""
        if loop is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return None
        return self._values.get(loop)

    def get_or_make(self, make: Callable[[], Value]) -> Value:
        """The running loop's value, made by ``make()`` if it has none. Call on the loop."""
        loop = asyncio.get_running_loop()
        value = self._values.get(loop)
        if value is None:
            for closed in [old for old in self._values if old.is_closed()]:
                del self._values[closed]
            value = self._values[loop] = make()
        return value

    def forget(self, value: Value, loop: asyncio.AbstractEventLoop | None = None) -> None:
        """Drop ``loop``'s entry (the running loop's by default) if it is still
        ``value``: a newer one made meanwhile stays."""
        loop = asyncio.get_running_loop() if loop is None else loop
        if self._values.get(loop) is value:
            del self._values[loop]

    def pop(self) -> Value | None:
        """Remove and answer the running loop's value, if it has one."""
        return self._values.pop(asyncio.get_running_loop(), None)

    def values(self) -> list[Value]:
        """Every loop's value (a snapshot: safe to read from another thread)."""
        return list(self._values.values())

    def __len__(self) -> int:
        return len(self._values)
