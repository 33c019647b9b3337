"""The result panel's report of a settled game (docs/protocol.md, "settled"): how the
score came about (RULES §6 kou and base, §4.1/§9 bombs and multiplier, contributions)
and what each seat got, from the engine's result and the settlement's ledger postings
(RULES §7 points, §8 coins and the 系统回收 fee).

Pure: the caller (games.settlement.settle) passes what it read.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.rulesets import RuleSet
from games.engine.scoring import capped_for_coins, ladder_rung
from games.settlement.money import game_coin_plan

BOMB_TYPES = ("bomb", "chain_bomb", "joker_bomb")


def bombs_played(events: Sequence[dict]) -> list[dict]:
    """Every bomb of the game in play order: who played it (seat), its stars (相),
    its kind as the engine reads it (``bomb``, ``chain_bomb``, ``joker_bomb``; ``size``
    tells three kings from four) and its cards (physical codes)."""
    bombs = []
    for event in events:
        reading = event.get("reading") or {}
        if event.get("type") == "play" and reading.get("type") in BOMB_TYPES:
            bombs.append({"seat": event["seat"], "stars": reading.get("stars"),
                          "kind": reading["type"], "size": reading.get("size"),
                          "cards": list(event["cards"])})
    return bombs


def seat_fees(*, result: dict, terms: dict, rules: RuleSet,
              holds: Sequence[int]) -> list[int]:
    """The fee each seat paid to 系统回收: the settlement's own split
    (games.settlement.money) with the coins the ledger held for each seat: the flat A,
    or classic's percent of each winner's gain (RULES §9). Zero for every seat in a
    points room."""
    seats = len(result["scores"])
    if not terms["coins"]:
        return [0] * seats
    plan = game_coin_plan(result=result, terms=terms, rules=rules, holds=holds)
    return list(plan.seat_fees)


def level_report(rules: RuleSet, deal: dict, players: Sequence) -> dict:
    """classic's 等级倍率 as the deal wrote it (RULES §9): the multiplier, and the seat
    (by ``players``, the seats at the end) whose fewest points set it, with its rung
    and title on the rule set's ladder then. Empty for a rule set without a ladder."""
    if not rules.has_level_multiplier:
        return {}
    report = {"level_multiplier": deal.get("level_multiplier", 1)}
    balances = deal.get("points")
    if balances:
        fewest = min(range(len(balances)), key=balances.__getitem__)
        rung = ladder_rung(rules, balances[fewest])
        report["level_seat"] = list(players).index(deal["players"][fewest])
        report["level_rung"] = rung + 1  # counted from 1, as the table's levels are
        report["level_title"] = rules.level_ladder[rung][0]
    return report


def settlement_report(*, result: dict, terms: dict, rules: RuleSet, room_kind: str,
                      events: Sequence[dict], players: Sequence,
                      hands: Sequence[Sequence[str]], points: Sequence[int],
                      coins: Sequence[int], fees: Sequence[int]) -> dict:
    """The report: ``points`` and ``coins`` are each seat's change as the ledger posted
    it, ``fees`` each seat's 系统回收, ``hands`` the cards each seat held at the end
    (public once the game is over), ``players`` by seat at the end. In classic (RULES
    §9) it also says the 等级倍率 and, in coin rooms, the multiplier coins counted (when
    capped) and the fee's percent of each winner's gain."""
    extra = level_report(rules, events[0], players)
    if terms["coins"]:
        coin_multiplier = capped_for_coins(rules, result["multiplier"])
        if coin_multiplier != result["multiplier"]:
            extra["coin_multiplier"] = coin_multiplier
        if rules.winner_fee_percent:
            extra["fee_percent"] = rules.winner_fee_percent
    return {**extra,
        "kou": result["kou"],
        "multiplier": result["multiplier"],
        "base_unit": terms["coefficient"] if terms["coins"] else terms["stake_unit"],
        "room": room_kind,
        "escaped": result.get("escaped"),
        "penalty": result.get("penalty", 0),
        "bombs": bombs_played(events),
        "seats": [{
            "seat": seat,
            "contribution": result["contributions"][seat],
            "base": result["base"][seat],
            "total": result["scores"][seat],
            "points": points[seat],
            "coins": coins[seat],
            "fee": fees[seat],
            "left": list(hands[seat]),
        } for seat in range(len(result["scores"]))],
    }
