"""A tournament game's settlement (games.hooks.signals): in the settlement's
transaction the board's players and scores are copied from the game's result and a
leaver is marked (托管 plays their seat in every later board); when the table reopens,
the tournament is moved on once it has all committed (tournaments.flow.advance, by task
name), after the players have been sent the board's result. With a pause between
boards (TOURNAMENTS_BOARD_PAUSE_SECONDS) the task waits that long, and the beat's sweep
deals no sooner."""

from __future__ import annotations

import logging

from celery import current_app as celery_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from tournaments.models import Board, Entry

ADVANCE_TASK = "tournaments.tasks.advance_tournament_task"

logger = logging.getLogger(__name__)


def record_board(sender, *, record, events, **kwargs) -> None:
    board = Board.objects.filter(game_id=record.pk).first()
    if board is None or board.settled_at is not None:
        return
    board.players = list(record.players)
    board.scores = list(record.result["scores"])
    board.settled_at = timezone.now()
    board.save(update_fields=["players", "scores", "settled_at"])
    leavers = {record.players[event["seat"]] for event in events if event["type"] == "escape"}
    if leavers:
        Entry.objects.filter(tournament_id=board.tournament_id, user_id__in=leavers,
                             left_at__isnull=True).update(left_at=timezone.now())


def move_on(sender, *, record, **kwargs) -> None:
    tournament_id = Board.objects.filter(game_id=record.pk) \
        .values_list("tournament_id", flat=True).first()
    if tournament_id is not None:
        transaction.on_commit(lambda: enqueue_advance(tournament_id))


def enqueue_advance(tournament_id: int) -> None:
    try:
        celery_app.signature(ADVANCE_TASK, args=(tournament_id,)).apply_async(
            countdown=settings.TOURNAMENTS_BOARD_PAUSE_SECONDS or None)
    except Exception:  # the beat's sweep advances it anyway
        logger.exception("could not enqueue tournament %s", tournament_id)
