"""The deal of a table's next game, asked of the apps that run tables of their own
(tournaments' duplicate boards): games.live.lifecycle.game_start deals from a planned
seed when a planner gives one, from its own random (or test-derived) seed otherwise.

A planner takes the table (locked by the caller) and returns a :class:`DealPlan` for a
table it runs, None for any other; it may raise games.errors.ActionError to refuse a
deal there (a tournament's table is dealt only by the tournament, never by a player's
ready). A caller that knows the plan passes it to ``game_start`` and no planner is
asked."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.hooks.registry import Registry


@dataclass(frozen=True)
class DealPlan:
    """The seed to shuffle with, and the previous game the first lead looks at (None:
    dealt as a table's first game, the same at every table given the same seed)."""

    seed: int
    previous: dict | None = None


DealPlanner = Callable[[Any], "DealPlan | None"]

deal_planners: Registry[DealPlanner] = Registry()


def planned_deal(table: Any) -> DealPlan | None:
    """The first plan a registered planner gives for ``table``, or None."""
    for planner in deal_planners:
        plan = planner(table)
        if plan is not None:
            return plan
    return None
