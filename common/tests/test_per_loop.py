"""common.per_loop: one value per event loop, closed loops forgotten."""

from __future__ import annotations

import asyncio

from common.per_loop import PerLoop


def test_each_loop_gets_its_own_value_made_once():
    values: PerLoop[list] = PerLoop()

    async def twice() -> tuple[list, list]:
        return values.get_or_make(list), values.get_or_make(list)

    first, again = asyncio.run(twice())
    assert first is again
    other, _ = asyncio.run(twice())
    assert other is not first


def test_a_closed_loops_entry_is_dropped_when_a_new_one_is_made():
    values: PerLoop[object] = PerLoop()
    for _ in range(3):
        asyncio.run(_make(values))
    # Each run's loop closed before the next made its value: only the last is kept.
    assert len(values) == 1 and len(values.values()) == 1


async def _make(values: PerLoop[object]) -> object:
    return values.get_or_make(object)


def test_forget_drops_only_the_value_it_names():
    values: PerLoop[object] = PerLoop()

    async def scenario() -> tuple[bool, bool]:
        old = values.get_or_make(object)
        values.forget(old)
        new = values.get_or_make(object)
        values.forget(old)  # a stale owner's forget leaves the newer value alone
        kept = values.get()
        return kept is new, values.pop() is new and values.get() is None

    assert asyncio.run(scenario()) == (True, True)


def test_get_outside_a_running_loop_is_none():
    assert PerLoop().get() is None
