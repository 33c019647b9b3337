"""Reads for a new player's first steps: the room a beginner is sent to, and whether a
player has played yet (the home page offers the "play now" path until they have)."""

from __future__ import annotations

from django.db.models import Case, IntegerField, Value, When

from games.engine.presets import DEFAULT_RULESET
from games.models import GameRecord, Room


def beginner_room() -> Room | None:
    """The open points room a beginner starts in: no coins needed (a new player has
    none until their first game, RULES §7), bots allowed so the table fills; the default
    rule set's first, then the smallest stake, then the operators' order."""
    return (Room.objects.filter(is_open=True, kind=Room.Kind.POINTS, bots_allowed=True)
            .select_related("rule_set")
            .annotate(default_first=Case(When(rule_set__name=DEFAULT_RULESET, then=Value(0)),
                                         default=Value(1), output_field=IntegerField()))
            .order_by("default_first", "stake_unit", "position", "pk").first())


def has_played(user_id: int) -> bool:
    """Whether the player has sat in a game that was dealt (whatever its end)."""
    return GameRecord.objects.filter(players__contains=[user_id]).exists()
