"""The hand planner: the best split of a hand into bombs and groups.

A plan is what a player means to do with the hand: its bombs (wild jokers placed
where they lift a bomb's stars, or make a bomb of a triple or a pair; three or
four jokers kept as a joker bomb) and the groups it will lead or follow with
(straights, 连对, 钢板, triples, pairs, singles). Its cost counts the turns the hand
needs to go out, less the groups that take a trick back (control: high cards and
bombs), less what the bombs earn (contributions of 6★ and up, the multiplier).

``plan(hand, rules)`` is memoised on the hand; the search's playouts call it for
every move, the expert bot and the hints for every decision.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from .cards import ACE, BIG_JOKER, RANK_COUNT, SMALL_JOKER, TWO, Counts
from .memo import Memo
from .patterns import CHAIN_BOMB_LENGTHS, classify
from .rulesets import RuleSet

BOMB_KIND = "bomb"
# What a bomb is worth in the plan's cost, by stars: control for 4 and 5, and the
# contributions a 6★+ bomb pays at once (RULES §6), with the multiplier it reaches.
_BOMB_VALUE = {4: 0.7, 5: 1.0, 6: 3.0, 7: 4.5}
_BIG_BOMB_VALUE = 6.0
_SET_KINDS = {1: "single", 2: "pair", 3: "triple"}
_CHAIN_KINDS = ((1, 5, "straight"), (2, 3, "pairs"), (3, 3, "triples"))


@dataclass(frozen=True, slots=True)
class Group:
    """One group of a plan: its cards, type, top rank, and stars (bombs)."""

    cards: Counts
    kind: str
    rank: int
    size: int
    length: int = 1
    stars: int = 0

    @property
    def is_bomb(self) -> bool:
        return self.stars > 0

    @property
    def control(self) -> float:
        """How sure the group is to take the trick back, 0 … 1."""
        if self.stars:
            return 1.0
        if self.length > 1:
            return min(1.0, max(0.0, (self.rank - 7) / 5)) * (0.6 + 0.1 * self.length)
        return _SET_CONTROL[self.rank]


# Singles, pairs and triples: A and up are hard to beat; 2s, jokers almost never.
_SET_CONTROL = tuple(max(0.0, min(1.0, (rank - 8) / 5)) for rank in range(RANK_COUNT))


class Plan:
    """Groups and cost; ``bombs``, ``plain`` and ``turns`` (the groups that need a
    trick of their own: not control) are worked out once."""

    __slots__ = ("groups", "cost", "bombs", "plain", "turns")

    def __init__(self, groups: tuple[Group, ...], cost: float) -> None:
        self.groups = groups
        self.cost = cost
        self.bombs = tuple(group for group in groups if group.stars)
        self.plain = tuple(group for group in groups if not group.stars)
        self.turns = sum(1 for group in groups if group.control < 0.75)

    def __repr__(self) -> str:
        return f"Plan({self.groups!r}, {self.cost!r})"


def group_cost(group: Group) -> float:
    if group.stars:
        return -_BOMB_VALUE.get(group.stars, _BIG_BOMB_VALUE)
    lone = 0.15 if group.kind == "single" and group.rank < ACE else 0.0
    return 1.0 - 0.8 * group.control + lone


_CACHE_LIMIT = 300_000
_CACHE = Memo(_CACHE_LIMIT)


def plan(hand: Counts, rules: RuleSet) -> Plan:
    """The cheapest plan for ``hand`` under ``rules`` (memoised)."""
    key = (hand, rules.name, rules.wildcards)
    shard = _CACHE.shards[hash(key) & _CACHE.mask]  # in place: this is the hot path
    found = shard.get(key)
    if found is None:
        found = _CACHE.put(shard, key, _plan(hand, rules))
    return found


def plan_cost(hand: Counts, rules: RuleSet) -> float:
    return plan(hand, rules).cost if any(hand) else -2.0


def _wild_ranks(rules: RuleSet) -> list[int]:
    wild = []
    if rules.small_joker_wild:
        wild.append(SMALL_JOKER)
    if rules.big_joker_wild:
        wild.append(BIG_JOKER)
    return wild


def _plan(hand: Counts, rules: RuleSet) -> Plan:
    wild_ranks = _wild_ranks(rules)
    wilds = [rank for rank in wild_ranks for _ in range(hand[rank])]
    jokers = hand[SMALL_JOKER] + hand[BIG_JOKER]
    best: Plan | None = None
    options = [False]
    if jokers >= 3 and (rules.three_joker_bomb or jokers == 4):
        options.append(True)
    for joker_bomb in options:
        base = list(hand)
        fixed: list[Group] = []
        free_wilds = wilds
        if joker_bomb:
            reading = classify(_only_jokers(hand), rules)
            if reading is None or not reading.is_bomb:
                continue
            fixed.append(Group(_only_jokers(hand), BOMB_KIND, BIG_JOKER, jokers, 1,
                               reading.stars))
            base[SMALL_JOKER] = base[BIG_JOKER] = 0
            free_wilds = []
        for chain in _chain_bomb_choices(base, rules):
            rest = list(base)
            groups = list(fixed)
            if chain is not None:
                cards, stars, top, length = chain
                for rank, count in enumerate(cards):
                    rest[rank] -= count
                groups.append(Group(cards, BOMB_KIND, top, sum(cards), length, stars))
            for rank in wild_ranks:
                rest[rank] -= sum(1 for w in free_wilds if w == rank)
            candidate = _place_wilds(rest, free_wilds, groups, rules)
            if best is None or candidate.cost < best.cost:
                best = candidate
    return best


def _only_jokers(hand: Counts) -> Counts:
    cards = [0] * RANK_COUNT
    cards[SMALL_JOKER], cards[BIG_JOKER] = hand[SMALL_JOKER], hand[BIG_JOKER]
    return tuple(cards)


def _chain_bomb_choices(counts: list[int], rules: RuleSet) -> list:
    """No chain bomb, or the biggest one the natural cards make (3 … A)."""
    choices: list = [None]
    if not rules.chain_bombs or not _has_bomb_run(counts):
        return choices
    best = None
    for length in CHAIN_BOMB_LENGTHS:
        for start in range(ACE - length + 2):
            width = min(counts[start:start + length])
            if width >= 4:
                stars = min(width + length, rules.max_stars)
                if best is None or stars > best[1]:
                    cards = [0] * RANK_COUNT
                    for rank in range(start, start + length):
                        cards[rank] = width
                    best = (tuple(cards), stars, start + length - 1, length)
    if best is not None:
        choices.append(best)
    return choices


def _has_bomb_run(counts: list[int]) -> bool:
    """Whether three adjacent ranks 3 … A hold four cards or more each: most hands
    do not, and the planner asks for every hand of every playout."""
    run = 0
    for count in counts[:ACE + 1]:
        run = run + 1 if count >= 4 else 0
        if run == CHAIN_BOMB_LENGTHS[0]:
            return True
    return False


def _place_wilds(rest: list[int], wilds: list[int], fixed: list[Group],
                 rules: RuleSet) -> Plan:
    """Each wild stays a single card or joins a rank of at least 2 natural cards
    (lifting a bomb, or making one of a triple or, with a second wild, of a pair)."""
    targets = [rank for rank in range(TWO + 1) if rest[rank] >= 2]
    best: Plan | None = None
    seen = set()
    for choice in product([None, *targets], repeat=len(wilds)):
        key = tuple(sorted((c if c is not None else -1, w) for c, w in zip(choice, wilds)))
        if key in seen:
            continue
        seen.add(key)
        counts = list(rest)
        added = [0] * RANK_COUNT
        extra: dict[int, list[int]] = {}
        for target, wild in zip(choice, wilds):
            if target is None:
                counts[wild] += 1
            else:
                added[target] += 1
                extra.setdefault(target, []).append(wild)
        if any(counts[rank] + added[rank] < 4 for rank in extra):
            continue
        groups = list(fixed)
        for rank in range(TWO + 1):
            total = counts[rank] + added[rank]
            if total >= 4:
                cards = [0] * RANK_COUNT
                cards[rank] = counts[rank]
                for wild in extra.get(rank, ()):
                    cards[wild] += 1
                stars = min(total, rules.max_stars)
                groups.append(Group(tuple(cards), BOMB_KIND, rank, total, 1, stars))
                counts[rank] = 0
        plain, cost = _split(tuple(counts))
        groups.extend(plain)
        total_cost = cost + sum(group_cost(group) for group in groups if group.stars)
        if best is None or total_cost < best.cost:
            best = Plan(tuple(groups), total_cost)
    return best


_SPLIT_CACHE = Memo(2 * _CACHE_LIMIT)


def _split(counts: Counts) -> tuple[list[Group], float]:
    """The cheapest split of cards with no bombs left into chains and sets.

    Every subproblem of the split is the cards left above the ranks already
    grouped, so the memo is keyed by the cards alone: the lowest rank held is where
    the split goes on."""
    shard = _SPLIT_CACHE.shards[hash(counts) & _SPLIT_CACHE.mask]
    found = shard.get(counts)
    if found is not None:
        return found
    low = 0
    while low < RANK_COUNT and not counts[low]:
        low += 1
    if low == RANK_COUNT:
        return _NOTHING
    # The cards of the lowest rank form a set, or some start a chain here.
    count = counts[low]
    set_group, set_cost = _SETS[low][count]
    rest = list(counts)
    rest[low] = 0
    groups, cost = _split(tuple(rest))
    best = ([set_group, *groups], cost + set_cost)
    if low <= ACE:
        for width, shortest, kind in _CHAIN_KINDS:
            if count < width:
                continue
            top = low
            while top + 1 <= ACE and counts[top + 1] >= width:
                top += 1
            for end in range(low + shortest - 1, top + 1):
                rest = list(counts)
                for rank in range(low, end + 1):
                    rest[rank] -= width
                chain, chain_cost = _chain(kind, width, low, end)
                groups, cost = _split(tuple(rest))
                cost += chain_cost
                if cost < best[1]:
                    best = ([chain, *groups], cost)
    return _SPLIT_CACHE.put(shard, counts, best)


_NOTHING: tuple[list[Group], float] = ([], 0.0)


def _set_group(rank: int, count: int) -> Group:
    cards = [0] * RANK_COUNT
    cards[rank] = count
    if count > 3:  # jokers only: a bomb is placed before the split
        count = 3
    return Group(tuple(cards), _SET_KINDS[count], rank, count)


# Every set a split can make, with its cost, built once: the split is the planner's
# inner loop, and a group is immutable.
_SETS = tuple((None,) + tuple((group, group_cost(group))
                              for group in (_set_group(rank, count) for count in range(1, 9)))
              for rank in range(RANK_COUNT))
_CHAINS: dict[tuple[str, int, int], tuple[Group, float]] = {}


def _chain(kind: str, width: int, low: int, end: int) -> tuple[Group, float]:
    """The chain of ``width`` cards a rank from ``low`` to ``end``, with its cost."""
    found = _CHAINS.get((kind, low, end))
    if found is None:
        cards = [0] * RANK_COUNT
        for rank in range(low, end + 1):
            cards[rank] = width
        length = end - low + 1
        group = Group(tuple(cards), kind, end, width * length, length)
        found = _CHAINS[(kind, low, end)] = (group, group_cost(group))
    return found


_READINGS = Memo(_CACHE_LIMIT)


def reading_of(cards: Counts, rules: RuleSet):
    """The largest reading of a group's cards (memoised): what it records on a lead,
    and what decides whether it beats a play."""
    key = (cards, rules.name, rules.wildcards)
    shard = _READINGS.shards[hash(key) & _READINGS.mask]
    found = shard.get(key)
    if found is None:
        found = _READINGS.put(shard, key, classify(cards, rules))
    return found
