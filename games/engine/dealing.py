"""Who leads the first trick (RULES §2, §9): the 明牌 and its seat swap, a random
card's holder, or the previous game's first out. A pure function:
:class:`~games.engine.game.Game` writes the events it returns."""

from __future__ import annotations

import random
from typing import Any

from .cards import CARD_BY_CODE
from .rulesets import RuleSet


def first_lead_events(rules: RuleSet, players: list[Any], hands: list[list[str]],
                      rng: random.Random, previous: dict | None) -> list[dict]:
    """The events that settle the first lead, in order (without ``seq``).
    ``previous`` is the last game at the table (see ``Game.deal``)."""
    rule = rules.first_lead
    winner_seat = None
    if previous and previous.get("first_out") is not None:
        keys = [str(player) for player in players]
        if str(previous["first_out"]) in keys:
            winner_seat = keys.index(str(previous["first_out"]))
    by_winner = [{"type": "first_lead", "seat": winner_seat, "reason": "previous_first_out"}]
    if rule == "reveal_after_double" and winner_seat is not None \
            and previous.get("kou") != "double":
        return by_winner
    if rule == "random_then_winner" and winner_seat is not None:
        return by_winner
    if rule == "random_after_double" and winner_seat is not None \
            and previous.get("kou") not in ("double", "escape") \
            and not previous.get("escaped"):
        # classic (RULES §9): the last game's first out, unless it ended in a 双扣
        # or someone escaped from it; then a random player, as in the first game.
        return by_winner
    dealt = [code for hand in hands for code in hand]
    code = dealt[rng.randrange(len(dealt))]
    if rule in ("random_card", "random_then_winner", "random_after_double"):
        return [{"type": "first_lead", "seat": _holder(hands, code), "reason": "random_card",
                 "card": code}]
    return _reveal(rules, hands, code)


def _reveal(rules: RuleSet, hands: list[list[str]], code: str) -> list[dict]:
    """明牌 (RULES §2): its holder leads; the twin's holder becomes the partner,
    swapping seats with the player opposite the leader."""
    leader = _holder(hands, code)
    twin = CARD_BY_CODE[code].twin().code
    twin_holder = _holder(hands, twin)
    events = [{"type": "reveal", "card": code, "holder": leader, "twin": twin,
               "twin_holder": twin_holder}]
    if rules.players == 4:
        opposite = (leader + 2) % 4
        if twin_holder not in (leader, opposite):
            events.append({"type": "swap", "seats": sorted((twin_holder, opposite))})
    events.append({"type": "first_lead", "seat": leader, "reason": "reveal"})
    return events


def _holder(hands: list[list[str]], code: str) -> int:
    return next(seat for seat, hand in enumerate(hands) if code in hand)
