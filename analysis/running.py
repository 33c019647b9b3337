"""The analysis task's work: claim a queued analysis, run the engine over the game,
store the result once.

Stored once, never recomputed: the task claims the row with a conditional
update before it works and stores its result only while its claim holds, so a second
enqueue, a redelivered task or a retry of a finished one does nothing; a claim older
than ANALYSIS_STALE_SECONDS (a worker that died) may be taken over.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from analysis.compute import Budget, Thresholds, analyse_log, summarise
from analysis.models import GameAnalysis
from analysis.selectors import human_seats
from games.models import GameEvent

logger = logging.getLogger(__name__)


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
                    game_seconds=settings.ANALYSIS_GAME_SECONDS,
                    move_samples=settings.ANALYSIS_MOVE_SAMPLES)
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

