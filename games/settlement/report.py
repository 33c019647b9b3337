"""The result panel's report of a settled game (docs/protocol.md, "settled"): how the
score came about (RULES §6 kou and base, §4.1/§9 bombs and multiplier, contributions)
and what each seat got, from the engine's result and the settlement's ledger postings
(RULES §7 points, §8 coins and the 系统回收 fee).

Pure: the caller (games.settlement.settle) passes what it read.
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger.settlement import plan_coins

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


def seat_fees(*, result: dict, terms: dict, holds: Sequence[int],
              penalty_percent: int) -> list[int]:
    """The fee each seat paid to 系统回收: the settlement's own split
    (ledger.settlement.plan_coins) with the coins the ledger held for each seat.
    Zero for every seat in a points room."""
    seats = len(result["scores"])
    if not terms["coins"]:
        return [0] * seats
    escaped = result.get("escaped")
    scores = result["contributions"] if escaped is not None else result["scores"]
    plan = plan_coins(scores, holds, terms["coefficient"], terms["fee"], escaper=escaped,
                      penalty_units=result.get("penalty", 0) if escaped is not None else 0,
                      compensation_percent=penalty_percent)
    return list(plan.seat_fees)


def settlement_report(*, result: dict, terms: dict, room_kind: str, events: Sequence[dict],
                      hands: Sequence[Sequence[str]], points: Sequence[int],
                      coins: Sequence[int], fees: Sequence[int]) -> dict:
    """The report: ``points`` and ``coins`` are each seat's change as the ledger posted
    it, ``fees`` each seat's 系统回收, ``hands`` the cards each seat held at the end
    (public once the game is over)."""
    return {
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
