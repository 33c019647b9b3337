"""The planner's and the playouts' fast paths answer what the plain ways of working
them out answer: the split of packed cards, the wilds' placement, a plan less one of
its groups, the readings kept for cards that are no pattern, the turn rules."""

from __future__ import annotations

import random
from itertools import product

import pytest

from games.engine import bot, expert, planner, turns
from games.engine.cards import ACE, RANK_COUNT, TWO, parse_cards
from games.engine.game import Game
from games.engine.patterns import classify, readings
from games.engine.planner import BOMB_KIND, Group, Plan, group_cost, plan
from games.engine.presets import PRESETS


def plain_split(counts: tuple[int, ...]) -> tuple[list[Group], float]:
    """The split worked out on count tuples, with no memo."""
    low = next((rank for rank, count in enumerate(counts) if count), RANK_COUNT)
    if low == RANK_COUNT:
        return [], 0.0
    count = counts[low]
    set_group, set_cost = planner._SETS[low][count]
    rest = list(counts)
    rest[low] = 0
    groups, cost = plain_split(tuple(rest))
    best = ([set_group, *groups], cost + set_cost)
    if low <= ACE:
        for width, shortest, kind in planner._CHAIN_KINDS:
            if count < width:
                continue
            top = low
            while top + 1 <= ACE and counts[top + 1] >= width:
                top += 1
            for end in range(low + shortest - 1, top + 1):
                rest = list(counts)
                for rank in range(low, end + 1):
                    rest[rank] -= width
                chain, chain_cost = planner._chain(kind, width, low, end)
                groups, cost = plain_split(tuple(rest))
                cost += chain_cost
                if cost < best[1]:
                    best = ([chain, *groups], cost)
    return best


def plain_place_wilds(rest: list[int], wilds: list[int], fixed: list[Group],
                      rules) -> Plan:
    """Every placement of the wilds tried in turn, the counts rebuilt for each."""
    targets = [rank for rank in range(TWO + 1) if rest[rank] >= 2]
    best = None
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
                groups.append(Group(tuple(cards), BOMB_KIND, rank, total, 1,
                                    min(total, rules.max_stars)))
                counts[rank] = 0
        plain, cost = plain_split(tuple(counts))
        groups.extend(plain)
        total_cost = cost + sum(group_cost(group) for group in groups if group.stars)
        if best is None or total_cost < best.cost:
            best = Plan(tuple(groups), total_cost)
    return best


def random_counts(rng: random.Random, most: int) -> tuple[int, ...]:
    return tuple(rng.randint(0, most) if rng.random() < 0.6 else 0 for _ in range(RANK_COUNT))


def test_the_split_of_packed_cards_is_the_split_of_their_counts():
    rng = random.Random("split")
    for _ in range(3000):
        counts = random_counts(rng, 3)  # no bombs are left to the split
        groups, cost = planner._split(counts)
        expected_groups, expected_cost = plain_split(counts)
        assert (groups, cost) == (expected_groups, expected_cost), counts


@pytest.mark.parametrize("ruleset", ["qq", "tcy"])
def test_the_wilds_are_placed_as_trying_every_placement_would(ruleset):
    rules = PRESETS[ruleset]
    wild_ranks = planner._wild_ranks(rules)
    rng = random.Random(f"wilds:{ruleset}")
    for _ in range(400):
        rest = [min(count, 7) for count in random_counts(rng, 5)]
        for rank in wild_ranks:
            rest[rank] = 0
        wilds = [rng.choice(wild_ranks) for _ in range(rng.randint(0, 3))]
        found = planner._place_wilds(list(rest), wilds, [], rules)
        expected = plain_place_wilds(list(rest), wilds, [], rules)
        assert (found.groups, found.cost) == (expected.groups, expected.cost), (rest, wilds)


def test_a_wild_that_joins_a_rank_must_make_a_bomb_of_it():
    rest = [0] * RANK_COUNT
    rest[3], rest[5] = 3, 2
    assert planner._makes_bombs(rest, (None, None))
    assert planner._makes_bombs(rest, (3, None))
    assert planner._makes_bombs(rest, (5, 5))
    assert not planner._makes_bombs(rest, (5, None))
    assert not planner._makes_bombs(rest, (3, 5))


@pytest.mark.parametrize("ruleset", ["qq", "tcy", "jinyou", "classic"])
def test_a_plan_less_one_group_is_the_plan_of_the_other_groups(ruleset):
    rules = PRESETS[ruleset]
    hands = [parse_cards("3 3 4 4 5 5 6 6 6 6 6 9 9 9 9 BJ"),
             parse_cards("5 6 7 8 9 5 6 7 8 9 K K")]  # a straight twice: one group
    for seed in range(10):
        hands.extend(Game.deal(rules, list(range(rules.players)), f"less:{seed}").counts)
    for hand in hands:
        whole = plan(tuple(hand), rules)
        for index in range(len(whole.groups)):
            if len(whole.groups) == 1:
                break
            less = whole.without(index)
            others = whole.groups[:index] + whole.groups[index + 1:]
            fresh = Plan(others, whole.cost - group_cost(whole.groups[index]))
            assert (less.groups, less.cost, less.bombs, less.plain, less.turns) \
                == (fresh.groups, fresh.cost, fresh.bombs, fresh.plain, fresh.turns)


def test_a_group_knows_its_control_from_its_rank_length_and_stars():
    single_ace = Group(parse_cards("A"), "single", ACE, 1)
    assert single_ace.control == planner._SET_CONTROL[ACE]
    straight = Group(parse_cards("9 T J Q K"), "straight", ACE - 1, 5, 5)
    assert straight.control == pytest.approx(min(1.0, (ACE - 1 - 7) / 5) * 1.1)
    assert Group(parse_cards("4 4 4 4"), BOMB_KIND, 1, 4, 1, 4).control == 1.0
    # Not part of what makes two groups equal.
    assert single_ace == Group(parse_cards("A"), "single", ACE, 1)


def test_cards_that_are_no_pattern_are_read_once(monkeypatch):
    rules = PRESETS["qq"]
    cards = parse_cards("3 5 9")
    calls = []

    def counting(cards, rules):
        calls.append(cards)
        return classify(cards, rules)

    monkeypatch.setattr(planner, "classify", counting)
    planner._READINGS.shards[hash((cards, rules.name, rules.wildcards))
                            & planner._READINGS.mask].pop(
        (cards, rules.name, rules.wildcards), None)
    assert planner.reading_of(cards, rules) is None
    assert planner.reading_of(cards, rules) is None
    assert calls == [cards]


def test_the_playouts_reading_of_a_play_is_the_best_beating_reading():
    from games.engine.patterns import best_beating, best_reading
    rules = PRESETS["tcy"]
    current = classify(parse_cards("5 5 5 5"), rules)
    for text in ("6 6 6 SJ", "3 4 5 6 SJ", "7 7 7 7 BJ", "9 9"):
        cards = parse_cards(text)
        assert best_reading(tuple(readings(cards, rules)), current, rules) \
            == best_beating(cards, current, rules)
        assert best_reading(tuple(readings(cards, rules)), None, rules) \
            == best_beating(cards, None, rules)


def test_a_trick_is_over_as_counting_the_other_seats_holding_cards_says():
    for seats in (2, 4):
        for holding in product(range(3), repeat=seats):
            for winner in range(seats):
                others = sum(1 for seat, held in enumerate(holding)
                             if seat != winner and held)
                for passes in range(seats + 1):
                    assert turns.trick_over(passes, winner, holding) == (passes >= others)
                    flags = [bool(held) for held in holding]
                    assert turns.trick_over(passes, winner, flags) == (passes >= others)


def test_the_closest_opponent_is_the_fewest_cards_an_opponent_holds():
    for seats in (2, 4):
        for sizes in product((0, 1, 3, 7), repeat=seats):
            for seat in range(seats):
                opponents = [n for s, n in enumerate(sizes)
                             if n and (s % 2 != seat % 2 if seats == 4 else s != seat)]
                assert expert._closest_opponent(list(sizes), seat) \
                    == (min(opponents) if opponents else 99)


def sorted_plan_beat(hand_plan, current, urgent, turns_left):
    """The lowest plain group that beats ``current``, found by sorting by rank."""
    for group in sorted(hand_plan.plain, key=lambda group: group.rank):
        if group.kind != current.kind or group.size != current.size \
                or group.rank <= current.rank:
            continue
        if group.control >= 0.75 and not urgent and turns_left > 3 and current.rank < 8:
            return None
        return group
    return None


def test_the_plan_beat_is_the_lowest_plain_group_that_beats_in_rank_order():
    rules = PRESETS["qq"]
    plays = [classify(parse_cards(text), rules) for text in (
        "3", "8", "Q", "2", "4 4", "T T", "K K", "5 5 5", "J J J",
        "3 4 5 6 7", "8 9 T J Q", "3 3 4 4 5 5", "9 9 T T J J")]
    for seed in range(30):
        for hand in Game.deal(rules, list(range(4)), f"beat:{seed}").counts:
            hand_plan = plan(hand, rules)
            for current in plays:
                for urgent in (False, True):
                    for turns_left in (2, 5):
                        assert expert._plan_beat(hand_plan, current, rules, urgent,
                                                 turns_left) \
                            is sorted_plan_beat(hand_plan, current, urgent, turns_left)


def test_the_kept_readings_of_cards_are_their_readings():
    for ruleset in ("qq", "tcy"):
        rules = PRESETS[ruleset]
        for text in ("5 5 5 5 BJ", "3 4 5 6 7", "SJ BJ", "3 5 9", "6 6 7 7 8 8"):
            cards = parse_cards(text)
            assert planner.readings_of(cards, rules) == tuple(readings(cards, rules))
            assert planner.readings_of(cards, rules) is planner.readings_of(cards, rules)


def wilds_first_smallest_set(hand, need, current, rules):
    """The trustee's smallest set over ``current`` with the wildcards listed up front
    (jokers alone left out: both ways share that part)."""
    wilds = bot._wild_ranks(hand, rules)
    for rank in range(current.rank + 1, TWO + 1):
        have = hand[rank]
        if have and have + len(wilds) >= need:
            cards = [0] * RANK_COUNT
            cards[rank] = min(have, need)
            for joker in wilds[: need - min(have, need)]:
                cards[joker] += 1
            return tuple(cards)
    return None


@pytest.mark.parametrize("ruleset", ["qq", "tcy", "classic"])
def test_the_trustees_smallest_set_spends_wildcards_as_before(ruleset):
    rules = PRESETS[ruleset]
    plays = [classify(parse_cards(text), rules) for text in (
        "3", "9", "A", "4 4", "J J", "5 5 5", "Q Q Q")]
    rng = random.Random(f"sets:{ruleset}")
    for _ in range(300):
        hand = tuple(min(count, 2) if rank >= 13 else count
                     for rank, count in enumerate(random_counts(rng, 3)))
        for current in plays:
            need = {"single": 1, "pair": 2, "triple": 3}[current.kind]
            expected = wilds_first_smallest_set(hand, need, current, rules)
            if expected is not None:
                assert bot._smallest_set(hand, need, current, rules) == expected


def rank_by_rank_smallest_run(hand, width, length, above, rules):
    """The trustee's smallest run, each place of it counted rank by rank."""
    wilds = bot._wild_ranks(hand, rules)
    for start in range(max(0, above - length + 2), ACE - length + 2):
        cards = [0] * RANK_COUNT
        missing = 0
        for rank in range(start, start + length):
            cards[rank] = min(width, hand[rank])
            missing += width - cards[rank]
        if missing <= len(wilds):
            for joker in wilds[:missing]:
                cards[joker] += 1
            if classify(tuple(cards), rules).is_bomb:
                continue
            return tuple(cards)
    return None


@pytest.mark.parametrize("ruleset", ["qq", "tcy", "classic"])
def test_the_trustees_smallest_run_counts_what_each_place_lacks_as_before(ruleset):
    rules = PRESETS[ruleset]
    runs = ((1, 5, 4), (1, 5, 7), (1, 8, 9), (2, 3, 3), (2, 4, -1), (3, 3, 2), (3, 3, 8))
    for seed in range(15):
        for hand in Game.deal(rules, list(range(rules.players)), f"runs:{seed}").counts:
            for thinner in (hand, tuple(max(0, count - 1) for count in hand)):
                for width, length, above in runs:
                    assert bot._smallest_run(thinner, width, length, above, rules) \
                        == rank_by_rank_smallest_run(thinner, width, length, above, rules)


def test_the_next_seat_is_the_first_after_that_still_holds_cards():
    for seats in (2, 4):
        for holding in product(range(2), repeat=seats):
            for seat in range(seats):
                after = [(seat + step) % seats for step in range(1, seats + 1)]
                expected = next((s for s in after if holding[s]), None)
                assert turns.next_seat(list(holding), seat) == expected
