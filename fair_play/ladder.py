"""The ban ladder: how long the n-th escape within the window keeps a player from
the tables. Settings (docs/fair_play.md): FAIR_PLAY_WINDOW_HOURS, FAIR_PLAY_BAN_LADDER."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings


def window() -> timedelta:
    return timedelta(hours=float(settings.FAIR_PLAY_WINDOW_HOURS))


def ban_for(count_in_window: int) -> timedelta | None:
    """None for the first escape in the window (a warning); then the ladder's steps,
    the last one repeating."""
    ladder = [int(seconds) for seconds in settings.FAIR_PLAY_BAN_LADDER]
    if count_in_window <= 1 or not ladder:
        return None
    return timedelta(seconds=ladder[min(count_in_window - 2, len(ladder) - 1)])
