"""The ``expert`` bot: a rule-based player that follows its hand plan (:mod:`.planner`).

- Leading: a 6★+ bomb at once (its contribution is paid when it is played, and is lost
  if the game ends first); else the lowest group that needs a trick of its own,
  chains before sets of the same rank; with one such group left, the control groups
  first so the last one goes out on a lead of its own; never a single into an
  opponent who holds one card (nor a pair into one who holds two) when it has
  something else.
- Following: never over its partner (unless the play takes it out); a group of the
  plan that beats the play, keeping control cards for when they matter; else the
  beat that hurts the plan least, if it is worth the lead; bombs when an opponent is
  close to going out, when its own hand is close, or to cash a 6★+ bomb.

The same policy plays the strong bot's playouts, with ``full=False``: breaking a
group is then tried with the smallest beat only (no move generation).
"""

from __future__ import annotations

from operator import itemgetter, sub

from .bot import trustee_move
from .cards import Counts, unpack
from .moves import legal_moves
from .patterns import Reading, beats, best_beating
from .planner import Group, Plan, plan, reading_of
from .rulesets import RuleSet

# An opponent this close to going out is worth a bomb (cards held).
URGENT_CARDS = 6
# What taking the lead is worth in plan cost, normally and when an opponent is close.
_LEAD_GAIN = 0.4
# Hands this small are tried as one pattern that takes the seat out on a lead.
_OUT_AT_ONCE = 16
_URGENT_LEAD_GAIN = 1.5


def expert_move(hand: Counts, current: Reading | None, current_seat: int | None, seat: int,
                sizes, rules: RuleSet, full: bool = True,
                hand_plan: Plan | None = None) -> Counts | None:
    """The expert's action: cards, or None to pass. ``sizes`` are every seat's card
    counts now; ``current_seat`` made the play to beat (None on lead). ``hand_plan``
    is the hand's plan when the caller has one (the playouts carry theirs)."""
    if hand_plan is None:
        hand_plan = plan(hand, rules)
    if current is None:
        if len(hand_plan.groups) > 1 and sum(hand) <= _OUT_AT_ONCE \
                and reading_of(hand, rules) is not None:
            return hand  # the whole hand is one pattern (a wild joker in a pair, say)
        group = _lead(hand_plan, seat, sizes)
        return _played(hand, hand_plan, group, rules)
    players = len(sizes)
    # Going out at once beats everything, even over the partner.
    if len(hand_plan.groups) == 1:
        whole = reading_of(hand, rules)
        if whole is not None and beats(whole, current, rules):
            return hand
    if players == 4 and current_seat % 2 == seat % 2:
        return None
    urgent = sizes[current_seat] <= URGENT_CARDS or _closest_opponent(sizes, seat) <= 3
    turns = hand_plan.turns
    if not current.is_bomb:
        group = _plan_beat(hand_plan, current, rules, urgent, turns)
        if group is not None:
            return _played(hand, hand_plan, group, rules)
        cards = _break_beat(hand, hand_plan, current, rules, urgent, full)
        if cards is not None:
            return cards
    if not hand_plan.bombs:
        return None
    beating = []  # (power, group) of the bombs that beat the play
    for group in hand_plan.bombs:
        reading = reading_of(group.cards, rules)
        if beats(reading, current, rules):
            beating.append((reading.power, group))
    if not beating:
        return None
    beating.sort(key=itemgetter(0))  # by power alone, in plan order on a tie
    bombs = [group for _, group in beating]
    big = [group for group in bombs if group.stars >= 6]
    if urgent or turns <= 2:
        return _played(hand, hand_plan, bombs[0], rules)
    if big and not current.is_bomb:
        return _played(hand, hand_plan, big[0], rules)
    return None


def _lead(hand_plan: Plan, seat: int, sizes) -> Group:
    groups = hand_plan.groups
    if len(groups) == 1:
        return groups[0]
    bombs = hand_plan.bombs
    if bombs:
        bombs = sorted(bombs, key=lambda group: (group.stars, group.size))
        if bombs[-1].stars >= 6:
            return bombs[-1]  # the biggest 6★+ bomb
    plain = hand_plan.plain
    if not plain:
        return bombs[0]
    # Chains first (they shed the most and are the hardest to follow), lowest first.
    loose = sorted((group for group in plain if group.control < 0.75),
                   key=lambda group: (group.length == 1, group.rank, -group.size))
    if len(loose) <= 1 and len(plain) > 1:
        controls = sorted((group for group in plain if group.control >= 0.75),
                          key=lambda group: -group.control)
        if controls:
            return controls[0]
    order = loose or sorted(plain, key=lambda group: (group.rank, -group.size))
    closest = _closest_opponent(sizes, seat)
    if closest <= 2:
        safe = [group for group in order if group.size > closest]
        if safe:
            return safe[0]
        return max(plain, key=lambda group: (group.rank, group.size))
    return order[0]


def _closest_opponent(sizes, seat: int) -> int:
    """The fewest cards an opponent still in the game holds (99 when none is)."""
    if len(sizes) == 4:  # the seats either side
        left, right = sizes[(seat + 1) % 4], sizes[(seat + 3) % 4]
        if left and right:
            return left if left < right else right
        return left or right or 99
    return sizes[1 - seat] or 99


def _plan_beat(hand_plan: Plan, current: Reading, rules: RuleSet, urgent: bool,
               turns: int) -> Group | None:
    """The lowest plain group of the plan that beats ``current``; a control group
    only when it matters (an opponent close, or this hand close to going out)."""
    kind, size, rank = current.kind, current.size, current.rank
    lowest = None  # the first of the lowest rank, as a stable sort by rank would put it
    for group in hand_plan.plain:
        if group.kind == kind and group.size == size and group.rank > rank \
                and (lowest is None or group.rank < lowest.rank):
            lowest = group
    if lowest is not None and lowest.control >= 0.75 and not urgent and turns > 3 \
            and rank < 8:
        return None
    return lowest


def _break_beat(hand: Counts, hand_plan: Plan, current: Reading, rules: RuleSet,
                urgent: bool, full: bool) -> Counts | None:
    """A beat outside the plan, if what it costs the plan is worth the lead."""
    if full:
        options = []
        for move in legal_moves(hand, current, rules):
            cards = unpack(move)
            reading = best_beating(cards, current, rules)
            if not reading.is_bomb:
                options.append(cards)
    else:
        cards = trustee_move(hand, current, False, rules)
        options = [] if cards is None else [cards]
    gain = _URGENT_LEAD_GAIN if urgent else _LEAD_GAIN
    best = None
    for cards in options:
        rest = tuple(map(sub, hand, cards))
        delta = (plan(rest, rules).cost if any(rest) else -5.0) - hand_plan.cost
        if delta <= gain and (best is None or delta < best[0]):
            best = (delta, cards)
    return best[1] if best else None


def _played(hand: Counts, hand_plan: Plan, group: Group, rules: RuleSet) -> Counts:
    """Play ``group`` of the plan. (What is left is planned afresh when asked: a plan
    taken over from the last one would make answers depend on what was asked before.)"""
    return group.cards
