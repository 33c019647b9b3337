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

from dataclasses import dataclass, field
from itertools import product

from .cards import ACE, BIG_JOKER, BITS, PACK_UNIT, RANK_COUNT, SMALL_JOKER, TWO, Counts, pack
from .memo import Memo
from .patterns import CHAIN_BOMB_LENGTHS, Reading, classify, readings
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
    """One group of a plan: its cards, type, top rank, and stars (bombs). ``control``
    and ``cost`` (:func:`group_cost`) are worked out once, when the group is made: the
    playouts read them at every move."""

    cards: Counts
    kind: str
    rank: int
    size: int
    length: int = 1
    stars: int = 0
    control: float = field(init=False, repr=False, compare=False)
    cost: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "control", _control(self.rank, self.length, self.stars))
        object.__setattr__(self, "cost", group_cost(self))

    @property
    def is_bomb(self) -> bool:
        return self.stars > 0


def _control(rank: int, length: int, stars: int) -> float:
    """How sure a group is to take the trick back, 0 … 1."""
    if stars:
        return 1.0
    if length > 1:
        return min(1.0, max(0.0, (rank - 7) / 5)) * (0.6 + 0.1 * length)
    return _SET_CONTROL[rank]


# Singles, pairs and triples: A and up are hard to beat; 2s, jokers almost never.
_SET_CONTROL = tuple(max(0.0, min(1.0, (rank - 8) / 5)) for rank in range(RANK_COUNT))


class Plan:
    """Groups and cost; ``bombs``, ``plain`` and ``turns`` (the groups that need a
    trick of their own: not control) are worked out once, in one pass: the playouts
    make a plan at almost every move."""

    __slots__ = ("groups", "cost", "bombs", "plain", "turns")

    def __init__(self, groups: tuple[Group, ...], cost: float) -> None:
        self.groups = groups
        self.cost = cost
        bombs = []
        plain = []
        turns = 0
        for group in groups:
            if group.stars:
                bombs.append(group)
            else:
                plain.append(group)
            if group.control < 0.75:
                turns += 1
        self.bombs = tuple(bombs)
        self.plain = tuple(plain)
        self.turns = turns

    def without(self, index: int) -> Plan:
        """This plan less its group at ``index`` (at least one other is left): the
        same as ``Plan`` of the other groups, worked out from this one's parts."""
        groups = self.groups
        group = groups[index]
        left = Plan.__new__(Plan)
        left.groups = groups[:index] + groups[index + 1:]
        left.cost = self.cost - group.cost
        if group.stars:
            left.bombs, left.plain = _less(self.bombs, group), self.plain
        elif not self.bombs:  # most plans: every group is plain
            left.bombs, left.plain = self.bombs, left.groups
        else:
            left.bombs, left.plain = self.bombs, _less(self.plain, group)
        left.turns = self.turns - 1 if group.control < 0.75 else self.turns
        return left

    def __repr__(self) -> str:
        return f"Plan({self.groups!r}, {self.cost!r})"


def _less(groups: tuple[Group, ...], group: Group) -> tuple[Group, ...]:
    """``groups`` without the first that is ``group``."""
    for index, member in enumerate(groups):
        if member is group:
            return groups[:index] + groups[index + 1:]
    raise ValueError("not one of the groups")


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
                rest[rank] -= free_wilds.count(rank)
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
    natural_bombs = [rank for rank in range(TWO + 1) if rest[rank] >= 4]
    packed_rest = pack(rest)
    if not wilds:  # most hands: one way, no choice to make
        groups, cost = _bombs_and_split(rest, packed_rest, fixed, natural_bombs, {}, rules)
        return Plan(tuple(groups), cost)
    # A rank the wilds cannot lift to four cards is no target (every choice that
    # names it is left out below anyway; the others keep their order).
    fewest = max(2, 4 - len(wilds))
    targets = [rank for rank in range(TWO + 1) if rest[rank] >= fewest]
    best: tuple[list[Group], float] | None = None
    seen = set()
    for choice in product([None, *targets], repeat=len(wilds)):
        if not _makes_bombs(rest, choice):
            continue
        key = tuple(sorted((c if c is not None else -1, w) for c, w in zip(choice, wilds)))
        if key in seen:
            continue
        seen.add(key)
        left = packed_rest
        extra: dict[int, list[int]] = {}
        for target, wild in zip(choice, wilds):
            if target is None:
                left += PACK_UNIT[wild]
            else:
                extra.setdefault(target, []).append(wild)
        bomb_ranks = sorted({*natural_bombs, *extra}) if extra else natural_bombs
        groups, cost = _bombs_and_split(rest, left, fixed, bomb_ranks, extra, rules)
        if best is None or cost < best[1]:
            best = (groups, cost)
    return Plan(tuple(best[0]), best[1])


def _bombs_and_split(rest: list[int], left: int, fixed: list[Group], bomb_ranks: list[int],
                     extra: dict[int, list[int]], rules: RuleSet) -> tuple[list[Group], float]:
    """The groups and cost of one placement of the wilds: ``fixed``, a bomb at each of
    ``bomb_ranks`` (its natural cards, and the wilds ``extra`` puts there), then the
    split of the rest. ``left``: the cards still to group, packed (the natural cards
    and the wilds left single); the bombs' natural cards are taken out of it here."""
    groups = list(fixed)
    for rank in bomb_ranks:
        joining = extra.get(rank, ())
        cards = [0] * RANK_COUNT
        cards[rank] = rest[rank]
        for wild in joining:
            cards[wild] += 1
        total = rest[rank] + len(joining)
        groups.append(_bomb(tuple(cards), rank, total, min(total, rules.max_stars)))
        left -= rest[rank] * PACK_UNIT[rank]
    # Only bombs have stars: the split's groups add nothing to this sum.
    bomb_cost = sum(group.cost for group in groups if group.stars)
    plain, cost = _split_packed(left)
    groups.extend(plain)
    return groups, cost + bomb_cost


def _bomb(cards: Counts, rank: int, size: int, stars: int) -> Group:
    """The bomb of one rank (``cards``: its natural cards and any wilds), made once:
    a group is immutable, and there are only so many bombs of one rank."""
    key = (cards, stars)
    found = _BOMBS.get(key)
    if found is None:
        found = _BOMBS[key] = Group(cards, BOMB_KIND, rank, size, 1, stars)
    return found


_BOMBS: dict[tuple[Counts, int], Group] = {}


def _makes_bombs(rest: list[int], choice: tuple[int | None, ...]) -> bool:
    """Whether every rank some wilds join (``choice``: each wild's rank, None for a
    wild left single) reaches a bomb of four cards with them."""
    joined = [target for target in choice if target is not None]
    return all(rest[target] + joined.count(target) >= 4 for target in joined)


_SPLIT_CACHE = Memo(2 * _CACHE_LIMIT)


def _split(counts: Counts) -> tuple[list[Group], float]:
    """The cheapest split of cards with no bombs left into chains and sets."""
    return _split_packed(pack(counts))


def _split_packed(cards: int) -> tuple[list[Group], float]:
    """:func:`_split` of cards packed in one int (:func:`.cards.pack`): the split is
    the planner's inner loop, and an int is cheaper to take apart and to hash.

    Every subproblem of the split is the cards left above the ranks already
    grouped, so the memo is keyed by the cards alone: the lowest rank held is where
    the split goes on."""
    if not cards:
        return _NOTHING
    shard = _SPLIT_CACHE.shards[cards % _SHARD_MIX & _SPLIT_CACHE.mask]
    found = shard.get(cards)
    if found is not None:
        return found
    low = ((cards & -cards).bit_length() - 1) // BITS  # the lowest rank held
    # The cards of the lowest rank form a set, or some start a chain here.
    count = (cards >> (BITS * low)) & _NIBBLE
    set_group, set_cost = _SETS[low][count]
    groups, cost = _split_packed(cards - count * PACK_UNIT[low])
    best = ([set_group, *groups], cost + set_cost)
    if low <= ACE:
        above = cards >> (BITS * (low + 1))  # the counts above the lowest rank
        for width, shortest, chains in _CHAINS:
            if count < width:
                continue
            top = low  # the highest rank a chain from here can reach
            run = above
            while top < ACE and run & _NIBBLE >= width:
                top += 1
                run >>= BITS
            from_low = chains[low]
            runs = _RUNS[low]
            for end in range(low + shortest - 1, top + 1):
                chain, chain_cost = from_low[end]
                groups, cost = _split_packed(cards - width * runs[end])
                cost += chain_cost
                if cost < best[1]:
                    best = ([chain, *groups], cost)
    return _SPLIT_CACHE.put(shard, cards, best)


_NIBBLE = (1 << BITS) - 1
# The memo's shard of packed cards: a prime modulus mixes all the ranks into the
# shard index (the low bits alone are the lowest ranks, zero in most subproblems).
_SHARD_MIX = 1_000_003
# One card of each rank from ``low`` to ``end``, packed: _RUNS[low][end].
_RUNS = tuple(tuple(sum(PACK_UNIT[low:end + 1]) for end in range(RANK_COUNT))
              for low in range(RANK_COUNT))
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


def _chain(kind: str, width: int, low: int, end: int) -> tuple[Group, float]:
    """The chain of ``width`` cards a rank from ``low`` to ``end``, with its cost."""
    cards = [0] * RANK_COUNT
    for rank in range(low, end + 1):
        cards[rank] = width
    length = end - low + 1
    group = Group(tuple(cards), kind, end, width * length, length)
    return group, group_cost(group)


# Every chain a split can make, with its cost, built once like the sets: for each
# kind of chain (width, shortest length, chains[low][end]).
_CHAINS = tuple(
    (width, shortest, tuple(tuple(_chain(kind, width, low, end) if end >= low else None
                                  for end in range(ACE + 1))
                            for low in range(ACE + 1)))
    for width, shortest, kind in _CHAIN_KINDS)


_READINGS = Memo(_CACHE_LIMIT)


def reading_of(cards: Counts, rules: RuleSet):
    """The largest reading of a group's cards (memoised): what it records on a lead,
    and what decides whether it beats a play."""
    key = (cards, rules.name, rules.wildcards)
    shard = _READINGS.shards[hash(key) & _READINGS.mask]
    found = shard.get(key, _UNREAD)
    if found is _UNREAD:  # None is an answer too (no pattern), and is kept like any other
        found = _READINGS.put(shard, key, classify(cards, rules))
    return found


_UNREAD = object()
_ALL_READINGS = Memo(_CACHE_LIMIT)


def readings_of(cards: Counts, rules: RuleSet) -> tuple[Reading, ...]:
    """Every reading of a set of cards (:func:`.patterns.readings`, memoised): the
    playouts look for the one each play records (:func:`.patterns.best_reading`)."""
    key = (cards, rules.name, rules.wildcards)
    shard = _ALL_READINGS.shards[hash(key) & _ALL_READINGS.mask]
    found = shard.get(key)
    if found is None:
        found = _ALL_READINGS.put(shard, key, tuple(readings(cards, rules)))
    return found
