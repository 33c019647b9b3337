"""Playouts for the search: a lean game over full hands (:class:`Sim`, the turn rules
of :mod:`.turns`, the real scoring) played to the end by the expert's policy."""

from __future__ import annotations

from operator import sub
from time import thread_time

from .cards import Counts
from .expert import expert_move
from .patterns import best_reading
from .planner import Plan, plan, readings_of
from .position import Position
from .rulesets import RuleSet
from .scoring import bomb_record, score_places, score_tcy
from .turns import decided, next_seat, places, trick_leader, trick_over


class Sim:
    """A lean copy of the game flow over full hands, for rollouts. ``cache`` is
    shared by the rollouts of one search: the reading of each play, keyed by cards and
    ``id`` of the reading to beat (every reading in play is kept alive by the cache or
    the position, so ids are not reused)."""

    __slots__ = ("rules", "cache", "hands", "sizes", "alive", "turn", "current",
                 "current_seat", "passes", "finish", "bombs", "over", "plans")

    def __init__(self, rules: RuleSet, hands: list[Counts], position: Position,
                 cache: dict | None = None) -> None:
        self.rules = rules
        self.cache = {} if cache is None else cache
        self.hands = hands
        self.sizes = list(position.hand_counts)
        self.alive = sum(1 for n in self.sizes if n)
        self.turn = position.seat
        self.current = position.current
        self.current_seat = position.current_seat
        self.passes = position.passes
        self.finish = list(position.finish)
        self.bombs = list(position.bombs)
        self.over = False
        # Each seat's plan as the rollout carries it (None: plan the hand afresh).
        self.plans: list[Plan | None] = [None] * len(hands)

    def after(self, cards: Counts | None) -> Sim:
        """A copy of this game with ``cards`` played (None: a pass) by the seat to act;
        the plans are not carried (the exact endgame plays every action, not plans)."""
        child = Sim.__new__(Sim)
        child.rules, child.cache = self.rules, self.cache
        child.hands, child.sizes = list(self.hands), list(self.sizes)
        child.alive, child.turn, child.current = self.alive, self.turn, self.current
        child.current_seat, child.passes = self.current_seat, self.passes
        child.finish, child.bombs, child.over = list(self.finish), list(self.bombs), self.over
        child.plans = [None] * len(self.hands)
        child.step(cards)
        return child

    def step(self, cards: Counts | None) -> None:
        who = self.turn
        if cards is None:
            self.passes += 1
            self._advance(who)
            return
        key = (cards, id(self.current))
        reading = self.cache.get(key)
        if reading is None:
            reading = self.cache[key] = best_reading(readings_of(cards, self.rules),
                                                     self.current, self.rules)
        hands = self.hands
        hands[who] = tuple(map(sub, hands[who], cards))
        self.plans[who] = None  # a play from outside the policy: plan the rest afresh
        sizes = self.sizes
        sizes[who] -= reading.size
        self.current, self.current_seat, self.passes = reading, who, 0
        if reading.is_bomb:
            self.bombs.append(bomb_record(who, reading))
        if not sizes[who]:
            self.alive -= 1
            self.finish.append(who)
            if decided(self.finish, self.rules.players):
                self.over = True
                return
        self._advance(who)

    def expert_step(self) -> None:
        """The seat to act plays the expert's move (:func:`expert_move` without move
        generation). Each seat's plan is carried from move to move: what is left after
        a group of the plan is the rest of the plan (:func:`_plan_left`), so only a
        hand broken off-plan is planned afresh — a fresh plan was the playouts'
        largest cost."""
        seat = self.turn
        hand = self.hands[seat]
        rules = self.rules
        plans = self.plans
        hand_plan = plans[seat] or plan(hand, rules)
        cards = expert_move(hand, self.current, self.current_seat, seat, self.sizes,
                            rules, False, hand_plan)
        left = _plan_left(hand_plan, cards)
        self.step(cards)
        plans[seat] = left

    def _advance(self, who: int) -> None:
        winner = self.current_seat
        sizes = self.sizes
        if trick_over(self.passes, winner, sizes):
            self.turn = trick_leader(winner, sizes)
            self.current = self.current_seat = None
            self.passes = 0
            return
        self.turn = next_seat(sizes, who)

    def team_value(self, seat: int) -> float:
        """The final score of ``seat``'s team (mean of its members)."""
        players = self.rules.players
        if players == 2:
            winner = self.finish[0]
            result = score_tcy(self.rules, winner, self.sizes[1 - winner], self.bombs, 1, False)
            return float(result.scores[seat])
        finish = places(self.finish, 4, self.finish[-1])
        scores = score_places(self.rules, finish, self.bombs).scores
        return (scores[seat] + scores[(seat + 2) % 4]) / 2

    def partner_winning(self, seat: int) -> bool:
        return (self.current_seat is not None and self.rules.players == 4
                and self.current_seat % 2 == seat % 2 and self.current_seat != seat)

    def opponent_cards(self, seat: int) -> int:
        players = self.rules.players
        sizes = [n for s, n in enumerate(self.sizes)
                 if n and (s % 2 != seat % 2 if players == 4 else s != seat)]
        return min(sizes) if sizes else 0


def rollout(sim: Sim, limit: int = 400, deadline: float | None = None) -> bool:
    """Play to the end with the expert's policy for every seat (:meth:`Sim.expert_step`).
    With ``deadline`` (a ``thread_time()``), give up once past it and answer False: a
    rollout from a full hand runs a hundred moves, too long to wait for at the end of a
    budget. The clock is read every :data:`CLOCK_EVERY` moves, not at each: a reading
    costs about a microsecond, a sizeable share of a move (several microseconds)."""
    expert_step = sim.expert_step
    for move in range(limit):
        if sim.over:
            return True
        if deadline is not None and not move % CLOCK_EVERY and thread_time() > deadline:
            return False
        expert_step()
    raise RuntimeError("a rollout did not end")


CLOCK_EVERY = 4


def _plan_left(hand_plan: Plan, cards: Counts | None) -> Plan | None:
    """What is left of ``hand_plan`` after ``cards``: the same plan after a pass, the
    other groups after one of its groups, None (plan afresh) after anything else. The
    rest of a plan may cost a little more than the best plan of the cards left; the
    playouts take it for the speed (docs/engine.md, "Strong bot")."""
    if cards is None:
        return hand_plan
    groups = hand_plan.groups
    for index, group in enumerate(groups):
        if group.cards == cards:
            return hand_plan.without(index) if len(groups) > 1 else None
    return None
