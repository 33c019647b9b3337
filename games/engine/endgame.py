"""The strong bot's exact endgame (docs/engine.md, "The strong bot").

Once only the seat to decide and one opponent still hold cards (their partners are
out, so whoever of the two goes out first ends the game: RULES §3), every card the
seat cannot see is in the opponent's hand. The deal is known, and what is left is a
small game of perfect information: it is searched to its end over every legal play
of both seats, the seat's team maximising its final score (places and bombs, the
real scoring) and the opponent minimising it, instead of sampled and played out by
the expert's policy.
"""

from __future__ import annotations

from time import thread_time

from .cards import EMPTY, Counts, unpack
from .moves import legal_moves
from .playout import Sim
from .position import Position

# Positions searched at most: past it (or past the deadline) the search gives up and
# the sampling search decides. A position costs about 18 µs (the duels of 40 seeded
# games): 4,000 is about half a strong decision's budget, and bounds the search where
# the budget does not (search_bench, an analysis with a long budget).
NODE_LIMIT = 4000
_CLOCK_EVERY = 64
_INF = float("inf")
_EXACT, _AT_LEAST, _AT_MOST = 0, 1, 2  # what a kept value is: exact, or a bound


class _GaveUp(Exception):
    """Too many positions, or past the deadline."""


def known_hands(position: Position) -> list[Counts] | None:
    """Every seat's hand, when ``position`` leaves nothing hidden: four seats, and one
    other seat holding cards, which are then every card the seat has not seen.
    Otherwise None."""
    if position.seats != 4:
        return None
    others = [seat for seat, count in enumerate(position.hand_counts)
              if count and seat != position.seat]
    if len(others) != 1:
        return None
    unseen = position.unseen()
    if sum(unseen) != position.hand_counts[others[0]]:
        return None
    hands = [EMPTY] * position.seats
    hands[position.seat] = position.hand
    hands[others[0]] = unseen
    return hands


def solve(position: Position, first: list[Counts | None], *,
          deadline: float) -> tuple[list[Counts | None], list[float]] | None:
    """Every legal action of the seat (``first`` first, then the others) and its
    :func:`exact_values`, or None when the hands are not known or the search gives up."""
    hands = known_hands(position)
    if hands is None:
        return None
    actions = first + [action for action in all_actions(position) if action not in first]
    values = exact_values(position, actions, deadline=deadline, hands=hands)
    return None if values is None else (actions, values)


def exact_values(position: Position, actions: list[Counts | None], *, deadline: float,
                 node_limit: int | None = None,
                 hands: list[Counts] | None = None) -> list[float] | None:
    """The final score of the seat's team after each of ``actions`` (None: a pass),
    both seats playing their best from then on; None when the hands are not known
    (:func:`known_hands`, unless given as ``hands``) or the search gives up
    (``node_limit`` positions, by default :data:`NODE_LIMIT`, or ``deadline``, a
    ``thread_time()``)."""
    if hands is None:
        hands = known_hands(position)
        if hands is None:
            return None
    solver = _Solver(position.seat, deadline,
                     NODE_LIMIT if node_limit is None else node_limit)
    try:
        values = []
        for cards in actions:
            sim = Sim(position.rules, list(hands), position, solver.readings)
            sim.step(cards)
            values.append(solver.value(sim))
        return values
    except _GaveUp:
        return None


def all_actions(position: Position) -> list[Counts | None]:
    """Every legal action of the seat to decide (None: a pass, when it may)."""
    plays = [unpack(move) for move in legal_moves(position.hand, position.current,
                                                  position.rules)]
    return plays if position.current is None else [None, *plays]


class _Solver:
    """Minimax with alpha-beta pruning over :class:`Sim` positions; each position's
    value (or the bound a cut left of it) is kept for when it comes again."""

    def __init__(self, seat: int, deadline: float, node_limit: int) -> None:
        self.team = seat % 2
        self.seat = seat
        self.deadline = deadline
        self.node_limit = node_limit
        self.nodes = 0
        self.readings: dict = {}  # Sim's cache of readings, shared
        self.known: dict = {}  # position -> (value, _EXACT | _AT_LEAST | _AT_MOST)

    def value(self, sim: Sim, alpha: float = -_INF, beta: float = _INF) -> float:
        if sim.over:
            return sim.team_value(self.seat)
        key = (tuple(sim.hands), sim.turn, sim.current, sim.current_seat, sim.passes,
               tuple(sim.bombs))
        found = self.known.get(key)
        if found is not None:
            kept, bound = found
            if bound == _EXACT or (bound == _AT_LEAST and kept >= beta) \
                    or (bound == _AT_MOST and kept <= alpha):
                return kept
        self.nodes += 1
        if self.nodes > self.node_limit or (
                not self.nodes % _CLOCK_EVERY and thread_time() > self.deadline):
            raise _GaveUp
        maximising = sim.turn % 2 == self.team
        low, high = alpha, beta
        best = -_INF if maximising else _INF
        for cards in _ordered_actions(sim):
            outcome = self.value(sim.after(cards), low, high)
            if maximising:
                best = max(best, outcome)
                low = max(low, outcome)
            else:
                best = min(best, outcome)
                high = min(high, outcome)
            if low >= high:
                break
        bound = _AT_MOST if best <= alpha else _AT_LEAST if best >= beta else _EXACT
        self.known[key] = (best, bound)
        return best


def _ordered_actions(sim: Sim) -> list[Counts | None]:
    """The legal actions of the seat to act, the largest plays first (going out ends
    the game, so they cut the search soonest), a pass last."""
    plays = sorted((unpack(move) for move in legal_moves(sim.hands[sim.turn], sim.current,
                                                         sim.rules)),
                   key=sum, reverse=True)
    return plays if sim.current is None else [*plays, None]
