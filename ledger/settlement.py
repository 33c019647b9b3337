"""The money rules of a game's settlement, as pure arithmetic (RULES §7–§8, §10).

Coins change by ``score × N − A`` for each player, with these platform rules:
a player's loss (fee included) is capped at the coins frozen for the game; the
fee is collected first; when a loser's payment is capped the winners' gains
shrink pro rata, so the house never pays for a capped loss; any part of the
score table that is not zero-sum is paid by, or to, the house. An escaper also
pays the penalty (after the fee, before other losses); 70 % of the penalty paid
is shared equally by the other players and the rest goes to 系统回收.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class CoinPlan:
    net: list[int]  # each seat's change of coins
    fees: int  # to 系统回收
    house: int  # to the house (negative: the house pays)
    compensation: list[int]  # escape penalty shares received, by seat
    penalty_paid: int
    # The fee (系统回收 A) each seat paid; ``fees`` is their sum plus the part of an
    # escape penalty not shared out (the result panel shows each player's fee).
    seat_fees: list[int] = field(default_factory=list)


def plan_coins(scores: Sequence[int], holds: Sequence[int], coefficient: int, fee: int, *,
               escaper: int | None = None, penalty_units: int = 0,
               compensation_percent: int = 70) -> CoinPlan:
    """Split a game's coins. ``scores`` are the game's scores in units (for an escape,
    without the penalty: contributions only); ``holds`` the coins frozen per seat."""
    seats = range(len(scores))
    raw = [score * coefficient for score in scores]
    room = list(holds)  # what each seat can still pay out of its frozen coins
    fees = [0] * len(scores)
    paid = [0] * len(scores)
    for seat in seats:
        if raw[seat] <= 0:
            fees[seat] = min(fee, room[seat])
            room[seat] -= fees[seat]

    penalty_paid = 0
    compensation = [0] * len(scores)
    if escaper is not None and penalty_units:
        penalty_paid = min(penalty_units * coefficient, room[escaper])
        room[escaper] -= penalty_paid
        shared = penalty_paid * compensation_percent // 100
        others = [seat for seat in seats if seat != escaper]
        for seat in others:
            compensation[seat] = shared // len(others)
        # Whatever does not divide evenly stays with the fee account.

    shortfall = 0
    for seat in seats:
        if raw[seat] < 0:
            paid[seat] = min(-raw[seat], room[seat])
            room[seat] -= paid[seat]
            shortfall += -raw[seat] - paid[seat]

    gains = _shrink([max(0, value) for value in raw], shortfall)
    net = [0] * len(scores)
    for seat in seats:
        if raw[seat] > 0:
            # A winner pays the fee out of the gain (or the frozen coins if the gain is small).
            # What is left of the hold, not the hold: an escaper's penalty may have taken
            # it already, and the loss stays capped at what was frozen (RULES §8).
            fees[seat] = min(fee, gains[seat] + room[seat])
        net[seat] = gains[seat] - paid[seat] - fees[seat] + compensation[seat]
        if escaper == seat:
            net[seat] -= penalty_paid
    fee_total = sum(fees) + penalty_paid - sum(compensation)
    house = -(sum(net) + fee_total)
    return CoinPlan(net, fee_total, house, compensation, penalty_paid, fees)


def _shrink(gains: list[int], shortfall: int) -> list[int]:
    """Take ``shortfall`` off the gains pro rata, in whole coins (largest remainders)."""
    total = sum(gains)
    if shortfall <= 0 or total == 0:
        return gains
    cut_total = min(shortfall, total)
    exact = [gain * cut_total for gain in gains]
    cuts = [value // total for value in exact]
    order = sorted(range(len(gains)), key=lambda seat: (-(exact[seat] % total), seat))
    for seat in order[: cut_total - sum(cuts)]:
        cuts[seat] += 1
    return [gain - cut for gain, cut in zip(gains, cuts)]


def plan_points(scores: Sequence[int], stake_unit: int) -> tuple[list[int], int]:
    """Points change by score × stake unit (RULES §7); the house takes the rest."""
    deltas = [score * stake_unit for score in scores]
    return deltas, -sum(deltas)
