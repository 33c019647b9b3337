"""Periodic sweeps (Celery beat in production; a thread under ``make run``)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from games.errors import ActionError
from games.live.delivery import sweep_undelivered as _sweep_undelivered
from games.live.lifecycle.deadlines import game_deadline
from games.live.lifecycle.end import game_settle
from games.live.presence import sweep_away as _sweep_away
from games.live.seating import table_fill_bots, table_unseat_unready
from games.live.sweep_clock import note_sweep
from games.models import GameRecord, Seat, Table

BATCH = 200


def sweep_deadlines() -> int:
    """Act on every expired turn: bots and 托管 seats move, people time out."""
    done = 0
    now = timezone.now()
    expired = list(GameRecord.objects.filter(status=GameRecord.Status.PLAYING,
                                             deadline__lte=now)
                   .order_by("deadline").values_list("pk", "seq", "deadline")[:BATCH])
    note_sweep(now, expired[0][2] if expired else None)
    for game_id, seq, _ in expired:
        if game_deadline(game_id=game_id, seq=seq):
            done += 1
    return done


def sweep_away() -> int:
    """Put in 托管 the seats whose player left and did not come back within
    GAMES_DISCONNECT_GRACE_SECONDS (games.live.presence)."""
    return _sweep_away()


def sweep_undelivered() -> int:
    """Re-announce games whose events the channel layer failed to send."""
    return _sweep_undelivered()


def sweep_tables() -> int:
    """Unseat people who did not get ready in time; fill waiting tables with bots
    once a person has waited long enough (GAMES_BOT_FILL_SECONDS, in a rated room
    GAMES_RATED_BOT_FILL_SECONDS)."""
    now = timezone.now()
    done = 0
    late_tables = Seat.objects.filter(user__isnull=False, is_ready=False,
                                      ready_deadline__lte=now,
                                      table__status=Table.Status.WAITING) \
        .values_list("table_id", flat=True).distinct()[:BATCH]
    for table_id in late_tables:
        done += table_unseat_unready(table_id=table_id)
    # A rated room waits longer: its matchmaking first looks for people (ratings).
    waited = Q(room__rated=False,
               waiting_since__lte=now - timedelta(seconds=settings.GAMES_BOT_FILL_SECONDS)) | \
        Q(room__rated=True,
          waiting_since__lte=now - timedelta(seconds=settings.GAMES_RATED_BOT_FILL_SECONDS))
    for table_id in Table.objects.filter(
            waited, status=Table.Status.WAITING, room__bots_allowed=True,
            # At a private table bots sit only when the host asks (games.live.private_tables).
            seats__user__isnull=True, private__isnull=True) \
            .values_list("pk", flat=True).distinct()[:BATCH]:
        try:
            done += table_fill_bots(table_id=table_id)
        except ActionError:
            continue
    return done


def sweep_unsettled() -> int:
    """Settle any ended game whose settlement task was lost."""
    stale = timezone.now() - timedelta(seconds=settings.GAMES_SETTLE_GRACE_SECONDS)
    count = 0
    for game_id in GameRecord.objects.filter(
            Q(status=GameRecord.Status.ENDED), settled_at__isnull=True,
            ended_at__lte=stale).values_list("pk", flat=True)[:BATCH]:
        count += game_settle(game_id=game_id)
    return count
