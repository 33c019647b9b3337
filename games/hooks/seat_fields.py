"""What apps above games add to each seat of a table's public state (ratings: each
seat's rating in a rated room), in the one query that reads the seats
(games.live.snapshots.table_state): ``annotations()`` gives the Seat queryset's extra
annotations (subqueries: the read stays one query; the seat's table, room and rule set
are joined), ``value(seat)`` the seat's entry under the field's name, read from them
without a query."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.hooks.registry import Registry
from games.models import Seat


@dataclass(frozen=True)
class SeatField:
    annotations: Callable[[], dict[str, Any]]
    value: Callable[[Seat], Any]


seat_fields: Registry[SeatField] = Registry()
