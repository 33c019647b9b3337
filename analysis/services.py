"""Every write of the analysis app: asking for a game's analysis, and running it.

Stored once, never recomputed (issue #15): the one-to-one row is created by the
first request (a second request, a concurrent one or the automatic one finds it); the
task claims the row with a conditional update before it works and stores its result
only while its claim holds, so a second enqueue, a redelivered task or a retry of a
finished one does nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from accounts.models import User
from analysis.compute import Budget, Thresholds, analyse_log, summarise
from analysis.models import GameAnalysis
from games.models import BotPlayer, GameEvent, GameRecord

logger = logging.getLogger(__name__)

ANALYSE_TASK = "analysis.tasks.analyse_game_task"


class AnalysisRefused(Exception):
    """A request the rules refuse: ``code`` (``game_not_ended``, ``not_allowed``,
    ``no_human_seat``) says why; the views turn it into their own answer."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def human_seats(record: GameRecord) -> list[int]:
    """Seats a person played: not a server bot's seat, nor a bot account's."""
    bots = set(record.bot_seats or [])
    bot_users = set(BotPlayer.objects.filter(user_id__in=record.players)
                    .values_list("user_id", flat=True))
    return [seat for seat, user_id in enumerate(record.players)
            if seat not in bots and user_id not in bot_users]


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
    if created or _lost(analysis):
        transaction.on_commit(lambda: _enqueue_robustly(record.pk))
    return Requested(analysis, created)


def _lost(analysis: GameAnalysis) -> bool:
    """Queued so long ago that its task must have been lost (a broker that refused
    it, a purged queue): asking again sends it again. Two tasks for one analysis
    are harmless, only one claims it (analysis_run)."""
    age = timedelta(seconds=settings.ANALYSIS_STALE_SECONDS)
    return analysis.status == GameAnalysis.Status.QUEUED \
        and analysis.created_at < timezone.now() - age


def _enqueue(game_id: int) -> None:
    # The task object, not its name: a name the app has not registered yet (Celery
    # discovers tasks lazily) would go to the broker even where tasks run eagerly.
    from analysis.tasks import analyse_game_task

    analyse_game_task.delay(game_id)


def _enqueue_robustly(game_id: int) -> None:
    """After the commit: a broker that refuses the task is logged, not raised (the
    request, or the settlement that queued it, has succeeded); asking again after
    ANALYSIS_STALE_SECONDS sends it again."""
    try:
        _enqueue(game_id)
    except Exception:
        logger.exception("could not enqueue the analysis of game %s", game_id)


def schedule_auto_analysis(record: GameRecord) -> None:
    """At a settlement (call inside its transaction): once it commits, queue the
    analysis of a coin game if the operator wants coin games analysed
    (settings.ANALYSIS_AUTO_COIN_GAMES). Nothing here can fail the settlement: the
    work happens after the commit, and its errors are logged, not raised."""
    if not settings.ANALYSIS_AUTO_COIN_GAMES or not (record.terms or {}).get("coins"):
        return
    game_id = record.pk

    def queue() -> None:
        try:
            analysis_request(record=GameRecord.objects.get(pk=game_id), user=None, auto=True)
        except AnalysisRefused:
            pass  # bots only: nothing to analyse
        except Exception:
            logger.exception("could not queue the analysis of game %s", game_id)

    transaction.on_commit(queue)


def analysis_run(*, game_id: int) -> bool:
    """Run the queued analysis of game ``game_id``; returns whether this call stored
    it. A finished analysis, one another worker is running, or none at all is left
    alone. Runs the engine outside any transaction (up to a minute): only the claim
    and the result are written."""
    claim = timezone.now()
    stale = claim - timedelta(seconds=settings.ANALYSIS_STALE_SECONDS)
    claimable = Q(status=GameAnalysis.Status.QUEUED) | Q(
        status=GameAnalysis.Status.RUNNING, started_at__lt=stale)
    claimed = GameAnalysis.objects.filter(claimable, game_id=game_id).update(
        status=GameAnalysis.Status.RUNNING, started_at=claim, attempts=F("attempts") + 1)
    if not claimed:
        return False
    analysis = GameAnalysis.objects.select_related("game").get(game_id=game_id)
    record = analysis.game
    budget = Budget(move_ms=settings.ANALYSIS_MOVE_BUDGET_MS,
                    game_seconds=settings.ANALYSIS_GAME_SECONDS)
    thresholds = Thresholds(doubtful=settings.ANALYSIS_DOUBTFUL_LOSS,
                            bad=settings.ANALYSIS_BAD_LOSS)
    seats = human_seats(record)
    try:
        events = list(GameEvent.objects.filter(game=record).order_by("seq")
                      .values_list("data", flat=True))
        seed = events[0].get("seed") if events else 0
        wildcards = list(events[0]["rules"].get("wildcards", [])) if events else []
        outcome = analyse_log(events, seats, budget=budget, thresholds=thresholds,
                              seed=seed if isinstance(seed, int) else 0)
    except Exception as error:
        logger.exception("analysis of game %s failed", game_id)
        GameAnalysis.objects.filter(pk=analysis.pk, status=GameAnalysis.Status.RUNNING,
                                    started_at=claim).update(
            status=GameAnalysis.Status.FAILED, finished_at=timezone.now(),
            error=f"{type(error).__name__}: {error}"[:2000])
        return False
    stored = GameAnalysis.objects.filter(
        pk=analysis.pk, status=GameAnalysis.Status.RUNNING, started_at=claim).update(
        status=GameAnalysis.Status.DONE, finished_at=timezone.now(),
        seconds=round(outcome.seconds, 3), move_budget_ms=budget.move_ms,
        budget_used_ms=outcome.budget_used_ms, wildcards=wildcards,
        thresholds={"doubtful": thresholds.doubtful, "bad": thresholds.bad},
        moves=outcome.moves, summary=summarise(outcome.moves, seats, outcome.forced))
    return bool(stored)

