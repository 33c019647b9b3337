"""The analysis of a log by itself (analysis.compute), no database: with a cap on the
samples and budgets that never bind, the same log gives the same verdicts."""

from analysis.compute import OK, Budget, Thresholds, analyse_log
from games.engine.sample_games import sample_log

THRESHOLDS = Thresholds(doubtful=1.0, bad=3.0)


def log(seed: int) -> list[dict]:
    return [event for event in sample_log("qq", seed) if event["type"] != "settled"]


def test_a_sample_cap_makes_the_analysis_the_seeds_alone_whatever_the_clock_says():
    events = log(1)
    capped = Budget(move_ms=100_000, game_seconds=10_000, move_samples=12)
    slow_clock = iter(range(0, 10**6, 7)).__next__  # every reading 7 s later: no time binds
    first = analyse_log(events, [0, 1, 2], budget=capped, thresholds=THRESHOLDS, seed=1)
    second = analyse_log(events, [0, 1, 2], budget=capped, thresholds=THRESHOLDS, seed=1,
                         clock=slow_clock)
    assert first.moves == second.moves
    assert first.moves and any(move["mark"] != OK for move in first.moves)


def test_without_a_cap_a_tiny_time_budget_still_answers_every_decision():
    events = log(1)
    tiny = Budget(move_ms=10, game_seconds=0.5)
    outcome = analyse_log(events, [0, 1, 2], budget=tiny, thresholds=THRESHOLDS, seed=1)
    decided = sum(1 for event in events if event["type"] in ("play", "pass")
                  and event.get("by") == "player" and event.get("seat") in (0, 1, 2))
    assert len(outcome.moves) + sum(outcome.forced.values()) == decided
