"""The strong bot's search: determinized Monte-Carlo over candidate actions, with
racing (see docs/engine.md, "Strong bot")."""

from __future__ import annotations

import gc
import random
from time import thread_time

from . import endgame
from .cards import Counts, format_cards, unpack
from .deals import Dealer
from .expert import expert_move
from .moves import legal_moves
from .patterns import best_beating
from .planner import plan, plan_cost
from .playout import Sim, rollout
from .position import PASS, Position

DEFAULT_MAX_SAMPLES = 400
# CPU time of one strong decision. The search stops at the sample that would cross it,
# so the median decision is about this long; docs/engine.md has its match figures.
BUDGET_MS = 150


def _candidates(position: Position) -> list[Counts | None]:
    """Legal actions worth searching (None is a pass), the expert's choice first.

    Leading: the groups of the hand plan, loose ones lowest first, then control
    groups, then every bomb of the plan. Following: the pass, the plan's groups that
    beat the play, the two beats that cost the plan least, and the smallest bomb of
    every star level (big bombs pay contributions and lift the multiplier)."""
    rules = position.rules
    hand = position.hand
    current = position.current
    options: list[Counts | None] = [expert_move(
        hand, current, position.current_seat, position.seat, position.hand_counts, rules)]

    def add(cards: Counts | None) -> None:
        if cards not in options:
            options.append(cards)

    hand_plan = plan(hand, rules)
    if current is None:
        plain = sorted(hand_plan.plain,
                       key=lambda group: (group.control >= 0.75, group.rank, -group.size))
        for group in plain[:_LEAD_WIDTH]:
            add(group.cards)
        for group in hand_plan.bombs:
            add(group.cards)
        return options
    add(None)
    for group in hand_plan.groups:
        if best_beating(group.cards, current, rules) is not None:
            add(group.cards)
    breaks = []
    bombs: dict[int, tuple] = {}
    for move in legal_moves(hand, current, rules):
        cards = unpack(move)
        reading = best_beating(cards, current, rules)
        if reading.is_bomb:
            if reading.stars not in bombs or reading.power < bombs[reading.stars][0]:
                bombs[reading.stars] = (reading.power, cards)
            continue
        rest = tuple(h - c for h, c in zip(hand, cards))
        breaks.append((plan_cost(rest, rules), format_cards(cards), cards))
    breaks.sort()
    for _, _, cards in breaks[:_FOLLOW_WIDTH]:
        add(cards)
    for stars in sorted(bombs):
        add(bombs[stars][1])
    return options


_LEAD_WIDTH = 7
_FOLLOW_WIDTH = 2


def search(position: Position, *, seed: int = 0, budget_ms: int = BUDGET_MS,
           max_samples: int | None = None, include: Counts | None = None,
           must_include: bool = False, started: float | None = None) -> dict:
    """:func:`_search` with the cyclic garbage collector paused: the planner's caches
    hold hundreds of thousands of objects, and a full collection in the middle of a
    decision cost up to half a second. What the search allocates is acyclic, and is
    frozen (``gc.freeze``) when it ends."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _search(position, seed=seed, budget_ms=budget_ms, max_samples=max_samples,
                       include=include, must_include=must_include, started=started)
    finally:
        if enabled:
            # What the caches now hold lives on: moved out of the collector's sight, it
            # is not scanned again by a full collection in the middle of a later
            # decision (or of its position's rebuild).
            gc.freeze()
            gc.enable()


def _search(position: Position, *, seed: int, budget_ms: int, max_samples: int | None,
            include: Counts | None, must_include: bool, started: float | None) -> dict:
    """Determinized Monte-Carlo over the candidate actions, with racing: every
    sample deals the unseen cards once and plays every candidate still in the race
    out to the end on that deal (common random numbers); every few samples a
    candidate clearly behind the leader (paired difference beyond
    :data:`_DROP_Z` standard errors) leaves the race. Stops at ``max_samples``
    samples, when one candidate is left, or at the time budget."""
    deadline = (thread_time() if started is None else started) + budget_ms / 1000
    samples_cap = DEFAULT_MAX_SAMPLES if max_samples is None else max(1, max_samples)
    candidates = _candidates(position)
    if must_include:
        if include is None and position.current is None:
            raise ValueError("a pass on lead is not legal")
        if include is not None and (
                any(c > h for c, h in zip(include, position.hand))
                or best_beating(include, position.current, position.rules) is None):
            raise ValueError(f"{format_cards(include)} is not a legal play here")
        if include not in candidates:
            candidates.append(include)
    if len(candidates) == 1 and (not must_include or _legal_count(position) == 1):
        only = text_of(candidates[0])
        return {"best": only, "best_value": 0.0, "values": {only: 0.0}, "forced": True,
                "samples": 0}
    exact = _exact_answer(position, candidates, candidates.index(include) if must_include
                          else None, deadline)
    if exact is not None:
        return exact
    rng = random.Random(f"ai:{seed}")
    dealer = Dealer(position)
    cache: dict = {}
    values: list[list[float]] = [[] for _ in candidates]
    active = list(range(len(candidates)))
    keep_index = candidates.index(include) if must_include else None
    done = 0
    # A sample is begun only if one more, at the last one's cost, ends within the
    # budget: checking the clock alone let a decision overrun by up to a sample.
    sample_cost = 0.0
    while done < samples_cap and (done == 0 or thread_time() + sample_cost <= deadline):
        began = thread_time()
        hands = dealer.deal(rng)
        # Analysis (must_include) waits for its first sample whatever the clock says.
        finished = _sample(position, hands, [candidates[i] for i in active], cache,
                           None if must_include and not done else deadline)
        if finished is None:
            break  # overtaken by the deadline: dropped whole, the candidates stay paired
        for index, value in zip(active, finished):
            values[index].append(value)
        done += 1
        sample_cost = thread_time() - began
        if done >= _RACE_START and done % _RACE_EVERY == 0 and len(active) > 1:
            active = _race(active, values, done, keep_index)
            if len(active) == 1:
                break
    if not done:  # not one whole sample in the budget: the expert's choice
        first = text_of(candidates[0])
        return {"best": first, "best_value": 0.0, "values": {first: 0.0}, "forced": False,
                "samples": 0, "clearly_better": False}
    means = {index: sum(values[index]) / len(values[index]) for index in range(len(candidates))
             if values[index]}
    best_index = max(active, key=lambda i: (means[i], -i))
    if best_index != 0 and 0 in active and not must_include \
            and not _clearly_better(values[best_index], values[0]):
        best_index = 0  # the expert's choice stands unless the samples clearly say otherwise
    clear = (keep_index is not None and best_index != keep_index
             and _clearly_better(values[best_index], values[keep_index], _ANALYSIS_Z))
    return {"best": text_of(candidates[best_index]), "best_value": means[best_index],
            "values": {text_of(candidates[i]): mean for i, mean in means.items()},
            "forced": False, "samples": done, "clearly_better": clear}


def _exact_answer(position: Position, candidates: list[Counts | None], keep: int | None,
                  deadline: float) -> dict | None:
    """The answer of the exact endgame (:mod:`.endgame`) when nothing is hidden and it
    finishes within half the time left: every legal action valued with both seats
    playing their best, the best taken (the expert's choice on a tie); ``keep`` is the
    index among ``candidates`` of the action an analysis weighs. None otherwise, and
    the sampling search decides in the time left."""
    now = thread_time()
    solved = endgame.solve(position, candidates, deadline=now + (deadline - now) / 2)
    if solved is None:
        return None
    actions, values = solved
    best = max(range(len(actions)), key=lambda index: (values[index], -index))
    clear = keep is not None and values[best] > values[keep]
    return {"best": text_of(actions[best]), "best_value": values[best],
            "values": {text_of(action): value for action, value in zip(actions, values)},
            "forced": False, "samples": 0, "exact": True, "clearly_better": clear}


def candidate_actions(position: Position) -> list[str]:
    """The actions the search weighs in ``position``, the expert's choice first."""
    return [text_of(cards) for cards in _candidates(position)]


def candidate_values(position: Position, samples: int, *, seed: str = "reference") -> dict:
    """Every candidate of the search valued on the same ``samples`` deals, no racing and
    no clock: ``{action: mean team value}``, the expert's choice first. The reference
    of ``search_regret``; the same position and seed give the same values."""
    if samples < 1:
        raise ValueError("a reference needs one sample at least")
    candidates = _candidates(position)
    rng = random.Random(f"values:{seed}")
    dealer = Dealer(position)
    cache: dict = {}
    totals = [0.0] * len(candidates)
    for _ in range(samples):
        hands = dealer.deal(rng)
        for index, value in enumerate(_sample(position, hands, candidates, cache, None)):
            totals[index] += value
    return {text_of(cards): total / samples for cards, total in zip(candidates, totals)}


def _sample(position: Position, hands: list[Counts], candidates: list[Counts | None],
            cache: dict, deadline: float | None) -> list[float] | None:
    """Each candidate played out on one deal: the seat's team value for each, or None
    when ``deadline`` overtakes a playout (a partial sample would unpair them)."""
    finished = []
    for cards in candidates:
        sim = Sim(position.rules, list(hands), position, cache)
        sim.step(cards)
        if not rollout(sim, deadline=deadline):
            return None
        finished.append(sim.team_value(position.seat))
    return finished


_RACE_START = 6
_RACE_EVERY = 2
_DROP_Z = 2.0
# The expert's choice gives way to a candidate ahead of it by more than this many
# standard errors of the paired difference. On the league's 300 deals against the
# expert, 1.5 gave +1.80 a game and 2 gave +1.04; 1 scored below both on the one
# 60-deal seed it was tried on (docs/engine.md, "Tuning tried").
_SWITCH_Z = 1.5
# The analysis calls a played move worse only past two standard errors: it compares
# the played move with the best of several candidates, so one would often pass a
# single standard error by chance alone.
_ANALYSIS_Z = 2.0


def _clearly_better(better: list[float], base: list[float], z: float = _SWITCH_Z) -> bool:
    diffs = [a - b for a, b in zip(better, base)]
    n = len(diffs)
    if n < 2:
        return False
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > 0 and mean * mean * n > z * z * var


def _race(active: list[int], values: list[list[float]], done: int,
          keep: int | None) -> list[int]:
    """Drop the candidates clearly behind the leader on the samples they share."""
    leader = max(active, key=lambda i: (sum(values[i][:done]) / done, -i))
    kept = []
    for index in active:
        if index == leader or index == keep:
            kept.append(index)
            continue
        diffs = [a - b for a, b in zip(values[leader], values[index])]
        n = len(diffs)
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean <= 0 or mean * mean * n <= _DROP_Z * _DROP_Z * var:
            kept.append(index)
    return kept


def _legal_count(position: Position) -> int:
    count = len(legal_moves(position.hand, position.current, position.rules))
    return count + (position.current is not None)


def text_of(cards: Counts | None) -> str:
    return PASS if cards is None else format_cards(cards)


