"""The level rule of RULES §7: a player's level is computed from their point balance and
the Level table, never stored. The highest level whose points the player has reached;
below every level (an operator may start the ladder above 0) the lowest one.

Two forms of the same rule: ``level_for_points`` for points already in hand, and
``level_at`` for a query (sorting the admin's list, many players in one query). The
tests hold them to the same answers."""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import OuterRef, Subquery, Value
from django.db.models.functions import Coalesce

from .models import Level


def level_for_points(points: int, ladder: Sequence[tuple[int, int]]) -> int:
    """The level for ``points`` on ``ladder``, (level, points needed) pairs; 1 when the
    ladder is empty."""
    reached = [number for number, needed in ladder if points >= needed]
    return max(reached) if reached else min((number for number, _ in ladder), default=1)


# What level_at gives when the Level table is empty, like level_for_points.
_EMPTY_LADDER = {"number": 1, "title": ""}


def level_at(points: str, field: str = "number") -> Coalesce:
    """The level (or its ``field``: "number" or "title") for the points in the outer query's
    column or annotation ``points``, as one SQL expression: level 1 (title "") when the
    ladder is empty."""
    reached = Level.objects.filter(min_points__lte=OuterRef(points)).order_by("-number")
    lowest = Level.objects.order_by("number")
    return Coalesce(Subquery(reached.values(field)[:1]), Subquery(lowest.values(field)[:1]),
                    Value(_EMPTY_LADDER[field]),
                    output_field=Level._meta.get_field(field))
