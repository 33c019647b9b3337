"""The work of an analysis, without Django: which moves of a game's log to analyse,
the engine's verdict on each within the time budget, the marks and the summary.

The engine is ``games.engine.ai`` (its contract: ``position_from_events(events, seat)``
sees only that seat's hand and the public events; ``analyse(position, played, *, seed,
budget_ms)`` answers ``best``, ``best_value``, ``played_value``, ``loss`` ≥ 0 and
``forced``). Values and losses are in score units (RULES §6).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine.cards import FULL_DECK, CardError, contains, counts_of, format_cards, parse_cards
from games.engine.game import Game
from games.engine.patterns import best_beating
from games.engine.records import reading_to_dict

_CARD_BY_CODE = {card.code: card for card in FULL_DECK}
PASS = "pass"
OK, DOUBTFUL, BAD = "ok", "?", "??"
# However little of the game's budget is left, a move gets this much: a search
# needs a few milliseconds to say anything (and a forced move costs nothing).
MIN_MOVE_BUDGET_MS = 10
TOP_MISTAKES = 3


@dataclass(frozen=True)
class Budget:
    move_ms: int  # the most one move gets
    game_seconds: float  # the most the whole game gets
    # A cap on the search's samples per move (None: the time alone bounds it). With a
    # time budget that never binds, an analysis is the seed's alone (tests).
    move_samples: int | None = None


@dataclass(frozen=True)
class Thresholds:
    doubtful: float
    bad: float

    def mark(self, loss: float) -> str:
        if loss >= self.bad:
            return BAD
        if loss >= self.doubtful:
            return DOUBTFUL
        return OK


@dataclass
class Outcome:
    moves: list[dict] = field(default_factory=list)
    forced: dict[int, int] = field(default_factory=dict)  # forced moves by seat
    seconds: float = 0.0
    budget_used_ms: int = 0


def played_text(event: dict) -> str:
    """A play or pass event's move as the engine names it: canonical rank text
    (``"7 7"``, RULES §1) or ``"pass"``."""
    if event["type"] == "pass":
        return PASS
    return format_cards(counts_of(_CARD_BY_CODE[code] for code in event["cards"]))


def decisions(events: Sequence[dict], seats: Collection[int]) -> list[int]:
    """Indexes in ``events`` of the moves a person chose at ``seats``: plays and passes
    made ``by`` the player. The 托管 bot's moves, timeouts and automatic passes (no play
    could beat) were nobody's decision."""
    return [index for index, event in enumerate(events)
            if event["type"] in ("play", "pass") and event.get("by") == "player"
            and event.get("seat") in seats]


def analyse_log(events: Sequence[dict], seats: Collection[int], *, budget: Budget,
                thresholds: Thresholds, seed: int = 0,
                engine: Any = None, clock: Callable[[], float] = time.process_time) -> Outcome:
    """Every decision of ``seats`` in the game ``events`` (the full log of an ended
    game), each from its seat's view of the log cut just before it. The budget of a
    move is the game's time left shared among the moves left, at most ``move_ms``: a
    long game gets less per move, never more than the game's total.

    Time is the process's CPU time, as the engine counts its own budget: a worker
    sharing its cores with other work takes longer by the wall clock but analyses
    as well, and a worker of its own takes about as long by either clock.
    ``outcome.seconds`` is that CPU time."""
    if engine is None:
        from games.engine import ai as engine
    events = list(events)
    indexes = decisions(events, seats)
    outcome = Outcome()
    game = Game()  # the state before the move analysed, folded along (as frames.fold)
    folded = 0
    start = clock()
    for done, index in enumerate(indexes):
        for earlier in events[folded:index]:
            game.apply(earlier)
        folded = index
        event = events[index]
        seat = event["seat"]
        left_ms = (budget.game_seconds - (clock() - start)) * 1000
        share = left_ms / (len(indexes) - done)
        move_ms = max(MIN_MOVE_BUDGET_MS, min(budget.move_ms, int(share)))
        position = engine.position_from_events(events[:index], seat)
        played = played_text(event)
        verdict = engine.analyse(position, played, seed=seed + event["seq"],
                                 budget_ms=move_ms, max_samples=budget.move_samples)
        outcome.budget_used_ms += move_ms
        if verdict.get("forced"):
            outcome.forced[seat] = outcome.forced.get(seat, 0) + 1
            continue
        loss = max(0.0, float(verdict["loss"]))
        best = verdict["best"]
        if best == played:
            loss = 0.0  # the engine's own choice loses nothing, whatever its noise says
        outcome.moves.append({
            "seq": event["seq"], "seat": seat, "played": played, "best": best,
            "played_reading": event.get("reading"),
            "best_reading": suggested_reading(game, seat, best),
            "played_value": round(float(verdict["played_value"]), 3),
            "best_value": round(float(verdict["best_value"]), 3),
            "loss": round(loss, 3), "mark": thresholds.mark(loss),
        })
    outcome.seconds = clock() - start
    return outcome


def suggested_reading(game: Game, seat: int, best: str) -> dict | None:
    """The reading the rules record for ``best`` played by ``seat`` in ``game`` (the
    state before the move), as a play event records it; None for a pass, or for a
    suggestion that is not a legal play there (it is then shown as bare cards)."""
    if best == PASS:
        return None
    try:
        cards = parse_cards(best)
    except CardError:
        return None
    if not contains(game.counts[seat], cards):
        return None
    found = best_beating(cards, game.current_reading, game.rules)
    return reading_to_dict(found, cards, game.rules) if found is not None else None


def summarise(moves: Sequence[dict], seats: Sequence[int], forced: dict[int, int]) -> list[dict]:
    """Per seat: moves analysed (forced ones left out), how many were marked, the
    accuracy (the share of analysed moves marked ok, in percent: what a player reads
    as "how often did I play as well as the bot, give or take the ? threshold"), the
    mean loss and the biggest mistakes (the marked moves of largest loss, at most 3)."""
    rows = []
    for seat in seats:
        own = [move for move in moves if move["seat"] == seat]
        marked = sorted((move for move in own if move["mark"] != OK),
                        key=lambda move: (-move["loss"], move["seq"]))
        count = len(own)
        ok = sum(move["mark"] == OK for move in own)
        rows.append({
            "seat": seat, "moves": count, "forced": forced.get(seat, 0),
            "ok": ok, "doubtful": sum(move["mark"] == DOUBTFUL for move in own),
            "bad": sum(move["mark"] == BAD for move in own),
            "accuracy": round(100 * ok / count, 1) if count else None,
            "mean_loss": round(math.fsum(move["loss"] for move in own) / count, 3)
            if count else None,
            "mistakes": [move["seq"] for move in marked[:TOP_MISTAKES]],
        })
    return rows
