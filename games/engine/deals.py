"""The hidden hands a search samples: the cards a seat has not seen, dealt to the other
seats by their card counts, shaped by what sound play leaves in a hand and by the
passes seen (docs/engine.md, "The strong bot").
"""

from __future__ import annotations

import random
from operator import add

from .bot import trustee_move
from .cards import NATURAL_RANKS, RANK_COUNT, Counts
from .game import HAND_SIZE
from .moves import has_beating_play
from .planner import reading_of
from .position import Position
from .rulesets import RuleSet

_DEAL_TRIES = 3
_HINTS_PER_SEAT = 4
# How often the unseen cards of a rank are dealt to one seat as a bomb, before the rest
# are dealt at random, by how many of the rank are unseen; times the share of the other
# seats' cards already played. Sound players keep their bombs and play their loose
# cards first, so the later in a game, the likelier that the unseen cards of a rank are
# one seat's bomb. Fitted on positions of self-play of the expert, table and trustee
# bots (docs/engine.md): random deals held about two thirds of the bombs the true hands
# held, these about as many.
_BOMB_FACTOR = {4: 0.38, 5: 0.42, 6: 0.8, 7: 1.4, 8: 1.4}


class Dealer:
    """Deals the hidden hands of one position again and again (a sample each): what
    the position says of them (the unseen cards, each seat's room, the ranks each seat
    broke, the passes' hints) is read once."""

    def __init__(self, position: Position, *, bombs: bool = True) -> None:
        """``bombs=False``: no rank dealt as a bomb on purpose (a plain shuffle, the
        reference of ``deal_check``)."""
        self.position = position
        self.unseen = position.unseen()
        self.hints = pass_hints(position)
        self.room = [0 if seat == position.seat else count
                     for seat, count in enumerate(position.hand_counts)]
        # Where some unseen cards were never dealt (two players), no rank is dealt as a
        # bomb on purpose: they may all be out of play.
        shaped = bombs and sum(self.room) == sum(self.unseen)
        self.played = 1 - sum(self.room) / (HAND_SIZE * (position.seats - 1))
        self.bomb_ranks = [rank for rank in NATURAL_RANKS
                           if self.unseen[rank] >= 4] if shaped else []
        self.broken = _broken_ranks(position) if self.bomb_ranks else []

    def deal(self, rng: random.Random) -> list[Counts]:
        """Every seat's hand: the seat's own, and the unseen cards dealt to the others
        (:meth:`deal_once`); with hints from the passes, the best of a few deals by how
        well they agree with them."""
        best = None
        for _ in range(_DEAL_TRIES if self.hints else 1):
            hands = self.deal_once(rng)
            if not self.hints:
                return hands
            misfit = _misfit(hands, self.hints, self.position.rules)
            if best is None or misfit < best[0]:
                best = (misfit, hands)
                if not misfit:
                    break
        return best[1]

    def deal_once(self, rng: random.Random) -> list[Counts]:
        """One deal: first, rank by rank in random order, a rank with four or more
        unseen cards goes to one seat as a bomb with the chance of
        :data:`_BOMB_FACTOR` (never to a seat that broke the rank); then the rest at
        random, by the seats' card counts."""
        position = self.position
        left = list(self.unseen)
        room = list(self.room)
        hands = [[0] * RANK_COUNT for _ in range(position.seats)]
        ranks = list(self.bomb_ranks)
        rng.shuffle(ranks)
        for rank in ranks:
            if rng.random() < self.played * _BOMB_FACTOR[left[rank]]:
                able = [seat for seat, free in enumerate(room)
                        if free >= 4 and rank not in self.broken[seat]]
                if able:
                    _deal_bomb(rank, able, left, room, hands, rng)
        pool = [rank for rank, count in enumerate(left) for _ in range(count)]
        rng.shuffle(pool)
        at = 0
        for seat, free in enumerate(room):
            for rank in pool[at:at + free]:
                hands[seat][rank] += 1
            at += free
        hands[position.seat] = position.hand
        return [tuple(hand) for hand in hands]


def _broken_ranks(position: Position) -> list[set[int]]:
    """The ranks each seat has played outside a bomb: a sound player does not break a
    bomb, so it probably holds no bomb of them."""
    broken: list[set[int]] = [set() for _ in range(position.seats)]
    for seat, cards in position.history:
        if cards is not None and not reading_of(cards, position.rules).is_bomb:
            broken[seat].update(rank for rank, count in enumerate(cards) if count)
    return broken


def _deal_bomb(rank: int, able: list[int], left: list[int], room: list[int],
               hands: list[list[int]], rng: random.Random) -> None:
    """Four or more of ``rank`` to one of the ``able`` seats, chosen by its room;
    each card of the rank beyond four joins it with that seat's share of the room."""
    pick = rng.random() * sum(room[seat] for seat in able)
    seat = able[-1]
    for candidate in able:
        pick -= room[candidate]
        if pick < 0:
            seat = candidate
            break
    total = sum(room)
    size = min(room[seat], 4 + sum(rng.random() * total < room[seat]
                                   for _ in range(left[rank] - 4)))
    hands[seat][rank] += size
    room[seat] -= size
    left[rank] -= size


def pass_hints(position: Position) -> list:
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
        then = tuple(map(add, hands[seat], played_since))
        if weight > 1:
            if has_beating_play(then, reading, rules):
                total += weight
        elif trustee_move(then, reading, False, rules) is not None:
            total += weight
    return total
