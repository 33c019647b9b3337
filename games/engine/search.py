"""The strong bot's search: determinized Monte-Carlo over candidate actions, with
racing (see docs/engine.md, "Strong bot")."""

from __future__ import annotations

import random
from time import thread_time

from .bot import trustee_move
from .cards import BIG_JOKER, RANK_COUNT, SMALL_JOKER, TWO, Counts, format_cards, unpack
from .moves import has_beating_play, legal_moves
from .patterns import Reading, best_beating
from .playout import Sim, rollout
from .position import PASS, Position
from .rulesets import RuleSet

DEFAULT_MAX_SAMPLES = 400
# CPU time of one strong decision. The search stops at the sample that would cross it,
# so the median decision is about this long; docs/engine.md has its match figures.
BUDGET_MS = 150


def _candidates(position: Position) -> list[Counts | None]:
    """Legal actions worth searching, best-looking first (None is a pass).

    Every legal action is scored by :func:`_move_cost`; the search looks at a few
    of each sort so that pruning never hides a whole idea: the pass, the cheapest
    plays of each type and size, and the smallest bombs."""
    rules = position.rules
    hand = position.hand
    current = position.current
    plays = []
    bombs = []
    for move in legal_moves(hand, current, rules):
        cards = unpack(move)
        reading = best_beating(cards, current, rules)
        if reading.is_bomb:
            bombs.append((reading.power, _move_cost(hand, cards, reading, rules),
                          format_cards(cards), cards))
        else:
            plays.append((_move_cost(hand, cards, reading, rules), format_cards(cards), cards,
                          (reading.kind, reading.size)))
    plays.sort()
    bombs.sort()
    options: list[Counts | None] = [] if current is None else [None]
    if current is None:
        per_kind: dict = {}
        for _, _, cards, kind in plays:
            per_kind.setdefault(kind, []).append(cards)
        firsts = [group[0] for group in per_kind.values()]
        seconds = [group[1] for group in per_kind.values() if len(group) > 1]
        order = sorted(firsts, key=lambda c: [p[2] for p in plays].index(c))
        options += order[:_LEAD_WIDTH]
        for cards in seconds:
            if len(options) >= _LEAD_WIDTH:
                break
            options.append(cards)
        for _, _, cards, _ in plays:
            if len(options) >= _LEAD_WIDTH:
                break
            if cards not in options:
                options.append(cards)
        if not options:
            options += [bomb[3] for bomb in bombs[:1]]
        elif bombs and len(plays) <= 3:
            options.append(bombs[0][3])
    else:
        options += [cards for _, _, cards, _ in plays[:_FOLLOW_WIDTH]]
        options += [bomb[3] for bomb in bombs[:_BOMB_WIDTH]]
    return options


_LEAD_WIDTH = 8
_FOLLOW_WIDTH = 4
_BOMB_WIDTH = 3


def _move_cost(hand: Counts, cards: Counts, reading: Reading, rules: RuleSet) -> tuple:
    """Lower looks better: keep bombs whole, spend wildcards late, leave few lone
    cards, shed low cards and many at once."""
    wild = ((cards[BIG_JOKER] if rules.big_joker_wild else 0)
            + (cards[SMALL_JOKER] if rules.small_joker_wild else 0))
    breaks = 0
    singles = 0
    for rank in range(TWO + 1):
        have = hand[rank]
        used = cards[rank]
        if used:
            if have >= 4 and not reading.is_bomb:
                breaks += 1
            if have - used == 1:
                singles += 1
    return (breaks + wild, singles, reading.rank * 2 - sum(cards))



def search(position: Position, *, seed: int = 0, budget_ms: int = BUDGET_MS,
           max_samples: int | None = None, include: Counts | None = None,
           must_include: bool = False) -> dict:
    """Determinized Monte-Carlo over the candidate actions, with racing: every
    sample deals the unseen cards once and plays every candidate still in the race
    out to the end on that deal (common random numbers); every few samples a
    candidate clearly behind the leader (paired difference beyond
    :data:`_DROP_Z` standard errors) leaves the race. Stops at ``max_samples``
    samples, when one candidate is left, or at the time budget."""
    deadline = thread_time() + budget_ms / 1000
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
    rng = random.Random(f"ai:{seed}")
    hints = _hints(position)
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
        hands = _determinize(position, rng, hints)
        roll_seed = rng.getrandbits(32)
        for index in active:
            sim = Sim(position.rules, list(hands), position, cache)
            sim.step(candidates[index])
            rollout(sim, random.Random(roll_seed))
            values[index].append(sim.team_value(position.seat))
        done += 1
        sample_cost = thread_time() - began
        if done >= _RACE_START and done % _RACE_EVERY == 0 and len(active) > 1:
            active = _race(active, values, done, keep_index)
            if len(active) == 1:
                break
    means = {index: sum(values[index]) / len(values[index]) for index in range(len(candidates))
             if values[index]}
    best_index = max(active, key=lambda i: (means[i], -i))
    return {"best": text_of(candidates[best_index]), "best_value": means[best_index],
            "values": {text_of(candidates[i]): mean for i, mean in means.items()},
            "forced": False, "samples": done}


_RACE_START = 12
_RACE_EVERY = 4
_DROP_Z = 2.0


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


def _determinize(position: Position, rng: random.Random,
                 hints: list | None = None) -> list[Counts]:
    """Deal the unseen cards to the other seats by their card counts; with
    ``hints`` (see :func:`_hints`), the best of a few deals by how well they agree
    with the passes seen."""
    pool = [rank for rank, count in enumerate(position.unseen()) for _ in range(count)]
    best = None
    for _ in range(_DEAL_TRIES if hints else 1):
        rng.shuffle(pool)
        hands = []
        at = 0
        for seat in range(position.seats):
            if seat == position.seat:
                hands.append(position.hand)
                continue
            counts = [0] * RANK_COUNT
            for rank in pool[at:at + position.hand_counts[seat]]:
                counts[rank] += 1
            at += position.hand_counts[seat]
            hands.append(tuple(counts))
        if not hints:
            return hands
        misfit = _misfit(hands, hints, position.rules)
        if best is None or misfit < best[0]:
            best = (misfit, hands)
            if not misfit:
                break
    return best[1]


_DEAL_TRIES = 6
_HINTS_PER_SEAT = 6


def _hints(position: Position) -> list:
    """What the other seats' passes say about their hands: an auto-pass means nothing
    in the hand beat the play (hard, weight 4); a pass over an opponent's non-bomb
    suggests nothing of the same type beat it (soft, weight 1). Each hint is
    (seat, cards played since, reading, weight); the latest few per seat."""
    later: list[list[int]] = [[0] * RANK_COUNT for _ in range(position.seats)]
    hints = []
    taken = [0] * position.seats
    by_index = {index: (reading, over_seat, auto)
                for index, reading, over_seat, auto in position.passes_over}
    for index in range(len(position.history) - 1, -1, -1):
        seat, cards = position.history[index]
        if cards is not None:
            row = later[seat]
            for rank, count in enumerate(cards):
                row[rank] += count
            continue
        if seat == position.seat or not position.hand_counts[seat] \
                or taken[seat] >= _HINTS_PER_SEAT or index not in by_index:
            continue
        reading, over_seat, auto = by_index[index]
        if auto:
            hints.append((seat, tuple(later[seat]), reading, 4))
        elif not reading.is_bomb and (position.seats == 2 or over_seat % 2 != seat % 2):
            hints.append((seat, tuple(later[seat]), reading, 1))
        else:
            continue
        taken[seat] += 1
    return hints


def _misfit(hands: list[Counts], hints: list, rules: RuleSet) -> int:
    total = 0
    for seat, played_since, reading, weight in hints:
        then = tuple(a + b for a, b in zip(hands[seat], played_since))
        if weight > 1:
            if has_beating_play(then, reading, rules):
                total += weight
        elif trustee_move(then, reading, False, rules) is not None:
            total += weight
    return total



def text_of(cards: Counts | None) -> str:
    return PASS if cards is None else format_cards(cards)


