"""The playouts' carried plans: what is left of a seat's plan after each move of a
rollout (the policy's, or a candidate's from outside it) is a plan of exactly the
cards the seat still holds."""

from __future__ import annotations

from functools import reduce

import pytest

from games.engine import playout
from games.engine.ai import position_from_game
from games.engine.bot import trustee_move
from games.engine.cards import RANK_COUNT, add, format_cards, subtract
from games.engine.game import Game
from games.engine.planner import group_cost, plan
from games.engine.presets import PRESETS


def cards_of(groups) -> tuple[int, ...]:
    return reduce(add, (group.cards for group in groups), (0,) * RANK_COUNT)


def test_what_is_left_of_a_plan_after_one_of_its_groups_is_the_other_groups():
    rules = PRESETS["qq"]
    game = Game.deal(rules, list(range(4)), "plan-left:1")
    hand = game.counts[0]
    hand_plan = plan(hand, rules)
    assert len(hand_plan.groups) > 2
    for group in hand_plan.groups:
        left = playout._plan_left(hand_plan, group.cards)
        assert left is not None
        assert len(left.groups) == len(hand_plan.groups) - 1
        assert cards_of(left.groups) == subtract(hand, group.cards)
        assert left.cost == pytest.approx(sum(group_cost(g) for g in left.groups))
    assert playout._plan_left(hand_plan, None) is hand_plan  # a pass changes nothing
    # Cards that are no group of the plan (one card of a pair, say): plan afresh.
    pair = next(g for g in hand_plan.groups if g.kind == "pair")
    one = tuple(min(c, 1) for c in pair.cards)
    assert playout._plan_left(hand_plan, one) is None


@pytest.mark.parametrize("ruleset", ["qq", "tcy", "jinyou", "classic"])
def test_every_carried_plan_holds_the_seats_cards_at_every_move(ruleset):
    rules = PRESETS[ruleset]
    for seed in range(6):
        game = Game.deal(rules, list(range(rules.players)), f"carry:{seed}")
        position = position_from_game(game, game.turn)
        sim = playout.Sim(rules, [tuple(hand) for hand in game.counts], position)
        carried = moves = 0
        while not sim.over:
            moves += 1
            if moves % 5:
                sim.expert_step()
            else:  # now and then a move from outside the policy, as a candidate is
                seat = sim.turn
                sim.step(trustee_move(sim.hands[seat], sim.current, False, rules))
            for seat, hand_plan in enumerate(sim.plans):
                if hand_plan is not None:
                    carried += 1
                    assert cards_of(hand_plan.groups) == sim.hands[seat], \
                        f"seat {seat}: {format_cards(sim.hands[seat])}"
        assert carried  # the rollout did carry plans from move to move
