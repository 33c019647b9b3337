"""The money rules of a game's settlement, as pure arithmetic (RULES §7–§8, §10).

Coins change by ``score × N − A`` for each player, with these platform rules:
a player's loss (fee included) is capped at the coins frozen for the game; the
fee is collected first; when a loser's payment is capped the winners' gains
shrink pro rata, so the house never pays for a capped loss; any part of the
score table that is not zero-sum is paid by, or to, the house. An escaper also
pays the penalty (after the fee, before other losses); 70 % of the penalty paid
is shared equally by the other players and the rest goes to 系统回收.

classic's coin rooms (RULES §9) settle otherwise, by two switches: ``winners_share``
(the winners share equally all that the losers paid, so the house neither pays nor
takes anything; what does not divide evenly goes to 系统回收) and ``fee_percent``
(each winner pays that percent of their gain, rounded down, instead of a flat A).
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
               compensation_percent: int = 70, fee_percent: int = 0,
               winners_share: bool = False) -> CoinPlan:
    """Split a game's coins. ``scores`` are the game's scores in units (for an escape,
    without the penalty: contributions only); ``holds`` the coins frozen per seat;
    ``fee`` the flat A of each player, ``fee_percent`` the percent of each winner's
    gain (classic); ``winners_share``: the winners share equally what the losers paid
    (classic) rather than each gaining score × N."""
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

    undivided = 0
    if winners_share:
        gains, undivided = _share_equally(paid, [value > 0 for value in raw])
    else:
        gains = _shrink([max(0, value) for value in raw], shortfall)
    net = [0] * len(scores)
    for seat in seats:
        if raw[seat] > 0:
            # A winner pays the fee out of the gain (or the frozen coins if the gain is small).
            # What is left of the hold, not the hold: an escaper's penalty may have taken
            # it already, and the loss stays capped at what was frozen (RULES §8).
            # A percent of the gain is rounded down: the fraction stays with the winner.
            fees[seat] = min(fee, gains[seat] + room[seat]) + gains[seat] * fee_percent // 100
        net[seat] = gains[seat] - paid[seat] - fees[seat] + compensation[seat]
        if escaper == seat:
            net[seat] -= penalty_paid
    fee_total = sum(fees) + penalty_paid - sum(compensation) + undivided
    house = -(sum(net) + fee_total)
    return CoinPlan(net, fee_total, house, compensation, penalty_paid, fees)


@dataclass(frozen=True)
class Escape:
    """An end_game escape (RULES §10): the escaper's seat, the penalty in units and the
    percent of what is paid shared by the others."""

    seat: int
    penalty_units: int
    compensation_percent: int = 70
    # The penalty in coins' units where they differ from points' (classic's cap, RULES
    # §9); None: the same.
    coin_penalty_units: int | None = None


@dataclass(frozen=True)
class CoinRules:
    """How a coin room's game splits its coins, beyond score × N: ``fee`` the flat A of
    each player, ``fee_percent`` of each winner's gain instead (classic),
    ``winners_share`` the winners sharing what the losers paid (classic)."""

    fee: int = 0
    fee_percent: int = 0
    winners_share: bool = False


def plan_game_coins(scores: Sequence[int], holds: Sequence[int], coefficient: int,
                    rules: CoinRules, escape: Escape | None = None) -> CoinPlan:
    """:func:`plan_coins` for a game's coin rules and escape: what a settlement posts,
    and what its report and the escapes' admin recompute."""
    penalty_units = 0
    if escape is not None:
        penalty_units = escape.penalty_units if escape.coin_penalty_units is None \
            else escape.coin_penalty_units
    return plan_coins(scores, holds, coefficient, rules.fee,
                      escaper=escape.seat if escape else None, penalty_units=penalty_units,
                      compensation_percent=escape.compensation_percent if escape else 70,
                      fee_percent=rules.fee_percent, winners_share=rules.winners_share)


def _share_equally(paid: list[int], winners: list[bool]) -> tuple[list[int], int]:
    """All that was paid, in equal whole shares to the winners (classic, RULES §9), and
    what does not divide evenly (fewer coins than winners), which goes to 系统回收."""
    count = sum(winners)
    total = sum(paid)
    if not count:
        return [0] * len(paid), 0
    share = total // count
    return [share if winner else 0 for winner in winners], total - share * count


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
