"""Matchpoints and standings (pure: no database). On each board a player's result is
compared with everyone who held the same hand, the players in the same seat of the
same board at the round's other tables: 2 for each one beaten, 1 for each tie. The
standings rank by total matchpoints, then by total score, then by entry (the earlier
registration first), so the order is total and the same wherever it is computed."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class SeatResult:
    """One seat's result on one board at one table."""

    round: int
    board: int
    seat: int
    user: int
    score: int


@dataclass
class Standing:
    user: int
    matchpoints: int = 0
    score: int = 0
    boards: int = 0
    place: int = 0


def matchpoints(results: Iterable[SeatResult]) -> dict[SeatResult, int]:
    """Each result's matchpoints against the others that held its hand."""
    groups: dict[tuple[int, int, int], list[SeatResult]] = defaultdict(list)
    for result in results:
        groups[(result.round, result.board, result.seat)].append(result)
    points: dict[SeatResult, int] = {}
    for group in groups.values():
        for result in group:
            beaten = sum(1 for other in group if other.score < result.score)
            tied = sum(1 for other in group if other.score == result.score) - 1
            points[result] = 2 * beaten + tied
    return points


def standings(results: Iterable[SeatResult], entrants: list[int]) -> list[Standing]:
    """The ranking of ``entrants`` (user ids, in registration order) by total
    matchpoints, then total score; places 1, 2, 3… (no shared places)."""
    results = list(results)
    table = {user: Standing(user) for user in entrants}
    for result, points in matchpoints(results).items():
        standing = table.setdefault(result.user, Standing(result.user))
        standing.matchpoints += points
        standing.score += result.score
        standing.boards += 1
    order = {user: index for index, user in enumerate(entrants)}
    ranked = sorted(table.values(), key=lambda standing: (
        -standing.matchpoints, -standing.score, order.get(standing.user, len(order))))
    for place, standing in enumerate(ranked, start=1):
        standing.place = place
    return ranked
