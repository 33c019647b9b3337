"""When a seated player must be ready by (RULES §10): the room's ready time from now,
except at a private table, where friends wait for one another and nobody is unseated
for it (games.live.private_tables; the host may remove a player instead)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone


def ready_deadline(*, ready_seconds: int, private: bool) -> datetime | None:
    """The deadline for a seat that is not ready, or None at a private table."""
    return None if private else timezone.now() + timedelta(seconds=ready_seconds)
