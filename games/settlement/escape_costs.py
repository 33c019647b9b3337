"""What each escape (逃跑, RULES §10) cost, read from the game and the ledger for the admin.

An escape is an ``escape`` event of a game's log. In ``end_game`` mode the game ends with
the escaper's penalty in its result, and the settlement charges it: penalty × the stake
unit in points (to the house) and, in coin rooms, penalty × N coins out of the escaper's
frozen coins, of which a share goes to each other player (games.settlement.money). In
classic (RULES §9) the penalty is four units × the multipliers reached, capped at ×5
for coins.
In ``auto_play`` mode there is no penalty: the seat is played by 托管 to the end.

The coin split is recomputed with the same function the settlement used and kept only
when it reproduces what was posted (``GameRecord.settlement``), from the money terms
and rules the game was dealt with; otherwise the breakdown is unknown rather than wrong.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from accounts.models import User
from games.engine.rulesets import RuleSet
from games.models import GameEvent, GameRecord
from games.settlement.money import game_coin_plan
from ledger.models import Hold


@dataclass(frozen=True)
class EscapeCost:
    player: User | None
    seat: int
    mode: str
    penalty_units: int  # 0: no penalty (auto_play, or not the seat that ended the game)
    settled: bool
    points: int | None = None  # the escaper's settlement as posted
    coins: int | None = None  # the same, coin rooms only
    penalty_points: int | None = None  # None: not settled yet, or not reproducible
    penalty_coins: int | None = None
    compensation_coins: int | None = None  # to each other player


def escape_costs(escapes: Sequence[GameEvent]) -> dict[int, EscapeCost]:
    """Event id → its cost, for ``escapes`` (with ``game__room`` selected), in a few
    queries whatever their number (a changelist page)."""
    records = {event.game_id: event.game for event in escapes}
    users = User.objects.in_bulk({record.players[event.data["seat"]] for event in escapes
                                  for record in [records[event.game_id]]})
    coin_games = [record for record in records.values()
                  if record.terms.get("coins") and record.settlement and _penalty_seat(record)
                  is not None]
    holds: dict[str, dict[int, int]] = defaultdict(dict)
    rules: dict[int, RuleSet] = {}
    if coin_games:
        for key, user_id, amount in Hold.objects.filter(
                game_key__in=[record.ledger_key for record in coin_games]) \
                .values_list("game_key", "user_id", "amount"):
            holds[key][user_id] = amount
        # The rule set the game was dealt with (the room's may have changed since).
        rules = {game_id: RuleSet.from_dict(data) for game_id, data in GameEvent.objects.filter(
            game__in=coin_games, type="deal").values_list("game_id", "data__rules")}
    return {event.pk: _cost(event, records[event.game_id], users, holds, rules)
            for event in escapes}


def _penalty_seat(record: GameRecord) -> int | None:
    result = record.result or {}
    return result.get("escaped") if result.get("penalty") else None


def _cost(event: GameEvent, record: GameRecord, users: dict[int, User],
          holds: dict[str, dict[int, int]], rules: dict[int, RuleSet]) -> EscapeCost:
    seat, mode = event.data["seat"], event.data["mode"]
    terms, result, settlement = record.terms, record.result or {}, record.settlement
    penalty = result["penalty"] if _penalty_seat(record) == seat else 0
    cost = {"player": users.get(record.players[seat]), "seat": seat, "mode": mode,
            "penalty_units": penalty, "settled": settlement is not None}
    if settlement is None:
        return EscapeCost(**cost)
    cost["points"] = settlement["points"][seat]
    if terms["coins"]:
        cost["coins"] = settlement["coins"][seat]
    if not penalty:
        return EscapeCost(**cost, penalty_points=0, penalty_coins=0 if terms["coins"] else None,
                          compensation_coins=0 if terms["coins"] else None)
    if settlement["points"] == [score * terms["stake_unit"] for score in result["scores"]]:
        cost["penalty_points"] = penalty * terms["stake_unit"]
    if terms["coins"]:
        game_holds = holds.get(record.ledger_key, {})
        dealt = rules.get(record.pk)  # a settled game's deal always carries them
        if dealt is not None and all(user in game_holds for user in record.players):
            plan = game_coin_plan(result=result, terms=terms, rules=dealt,
                                  holds=[game_holds[user] for user in record.players])
            if plan.net == settlement["coins"]:
                others = [share for other, share in enumerate(plan.compensation)
                          if other != seat]
                cost["penalty_coins"] = plan.penalty_paid
                cost["compensation_coins"] = others[0] if others else 0
    return EscapeCost(**cost)
