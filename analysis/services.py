"""Asking for a game's analysis (the task's own work is analysis.running).

Stored once, never recomputed: the one-to-one row is created by the
first request (a second request, a concurrent one or the automatic one finds it); the
task (analysis.running) claims the row before it works.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from analysis.models import GameAnalysis
from analysis.selectors import auto_coin_games, human_seats
from analysis.tasks import analyse_game_task
from games.models import GameRecord

logger = logging.getLogger(__name__)


class AnalysisRefused(Exception):
    """A request the rules refuse: ``code`` (``game_not_ended``, ``not_allowed``,
    ``no_human_seat``) says why; the views turn it into their own answer."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def may_request(record: GameRecord, user: User | None) -> bool:
    """Who may ask for an analysis: the players of the game and staff. (Anyone who may
    see the replay, everyone for an ended game, sees the analysis once it is done.)"""
    if user is None or not user.is_authenticated:
        return False
    return user.is_staff or user.pk in (record.players or [])


@dataclass(frozen=True)
class Requested:
    analysis: GameAnalysis
    created: bool  # this call queued it (a new row, or a failed one queued again)


def analysis_request(*, record: GameRecord, user: User | None, auto: bool = False) -> Requested:
    """The game's analysis, queued if there is none yet (``auto``: the operator's
    automatic analysis of coin games, for which ``user`` is None). Refuses a running
    game, a requester who is neither a player of it nor staff, and a game without a
    human seat. A failed analysis is queued again; any other is returned as it is."""
    if record.status != GameRecord.Status.ENDED:
        raise AnalysisRefused("game_not_ended")
    if not auto and not may_request(record, user):
        raise AnalysisRefused("not_allowed")
    if not human_seats(record):
        raise AnalysisRefused("no_human_seat")
    requested_by = None if auto else user
    try:
        with transaction.atomic():
            analysis, created = GameAnalysis.objects.get_or_create(
                game=record, defaults={"requested_by": requested_by})
    except IntegrityError:  # a concurrent request created it between the get and the create
        analysis, created = GameAnalysis.objects.get(game=record), False
    if not created and analysis.status == GameAnalysis.Status.FAILED:
        created = bool(GameAnalysis.objects.filter(
            pk=analysis.pk, status=GameAnalysis.Status.FAILED).update(
            status=GameAnalysis.Status.QUEUED, error="", requested_by=requested_by))
        analysis.refresh_from_db()
    if created or is_lost(analysis):
        transaction.on_commit(lambda: _enqueue_robustly(record.pk))
    return Requested(analysis, created)


def is_lost(analysis: GameAnalysis) -> bool:
    """Queued, or claimed by a worker, so long ago that its task must have been lost
    (a broker that refused it, a purged queue, a worker killed after its redelivery
    was spent): asking again sends it again. Two tasks for one analysis are harmless,
    only one claims it (analysis.running)."""
    since = timezone.now() - timedelta(seconds=settings.ANALYSIS_STALE_SECONDS)
    if analysis.status == GameAnalysis.Status.QUEUED:
        return analysis.created_at < since
    return analysis.status == GameAnalysis.Status.RUNNING and analysis.started_at is not None \
        and analysis.started_at < since


def _enqueue(game_id: int) -> None:
    # The task object, not its name: a name the app has not registered yet (Celery
    # discovers tasks lazily) would go to the broker even where tasks run eagerly.
    analyse_game_task.delay(game_id)


def _enqueue_robustly(game_id: int) -> None:
    """After the commit: a broker that refuses the task is logged, not raised (the
    request, or the settlement that queued it, has succeeded); asking again after
    ANALYSIS_STALE_SECONDS sends it again."""
    try:
        _enqueue(game_id)
    except Exception:
        logger.exception("could not enqueue the analysis of game %s", game_id)


def schedule_auto_analysis_of_settled_game(*, record: GameRecord, **_signal) -> None:
    """games.hooks.signals.game_settled: the auto-analysis of a coin game, queued once the
    settlement commits."""
    schedule_auto_analysis(record)


def schedule_auto_analysis(record: GameRecord) -> None:
    """At a settlement (call inside its transaction): once it commits, queue the
    analysis of a coin game if the operator wants coin games analysed (admin's
    分析设置, else settings.ANALYSIS_AUTO_COIN_GAMES). Nothing here can fail the
    settlement: the work happens after the commit, and its errors are logged, not
    raised."""
    if not (record.terms or {}).get("coins"):
        return
    game_id = record.pk

    def queue() -> None:
        try:
            if auto_coin_games():
                analysis_request(record=GameRecord.objects.get(pk=game_id), user=None,
                                 auto=True)
        except AnalysisRefused:
            pass  # bots only: nothing to analyse
        except Exception:
            logger.exception("could not queue the analysis of game %s", game_id)

    transaction.on_commit(queue)
