"""Reads about players that several callers need: level, title and progress (RULES §7)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import BigIntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce

from ledger.models import Account, Currency
from ledger.selectors import user_balances

from .levels import level_at, level_for_points
from .models import Level, User


@dataclass(frozen=True)
class Rung:
    """One level of the ladder."""

    number: int
    title: str
    min_points: int


@dataclass(frozen=True)
class LevelProgress:
    """Where a player stands on the ladder. ``next`` is None at the top level."""

    points: int
    current: Rung
    next: Rung | None

    @property
    def points_to_next(self) -> int | None:
        return None if self.next is None else self.next.min_points - self.points

    @property
    def percent(self) -> int:
        """How far through the current level, 0–100 (100 at the top)."""
        if self.next is None:
            return 100
        span = self.next.min_points - self.current.min_points
        done = self.points - self.current.min_points
        return max(0, min(100, done * 100 // span)) if span > 0 else 0


def ladder() -> list[Rung]:
    return [Rung(number, title, min_points) for number, title, min_points
            in Level.objects.order_by("number").values_list("number", "title", "min_points")]


def level_progress_for_points(points: int, rungs: list[Rung] | None = None) -> LevelProgress:
    """The level for these points (accounts.levels.level_for_points: the highest
    reached, or the lowest when none is) and the next one."""
    rungs = rungs if rungs is not None else ladder()
    if not rungs:
        return LevelProgress(points=points, current=Rung(1, "", 0), next=None)
    number = level_for_points(points, [(rung.number, rung.min_points) for rung in rungs])
    current = next(rung for rung in rungs if rung.number == number)
    higher = [rung for rung in rungs if rung.number > number]
    return LevelProgress(points=points, current=current, next=higher[0] if higher else None)


@dataclass(frozen=True)
class PlayerStanding:
    user: User
    progress: LevelProgress
    coins: int


def player_standing(user: User) -> PlayerStanding:
    """Level, title, points, progress and coins of one player, from the Level table and
    the player's ledger balances."""
    balances = user_balances(user)
    return PlayerStanding(
        user=user,
        progress=level_progress_for_points(balances.get(Currency.POINT, 0)),
        coins=balances.get(Currency.COIN, 0),
    )


def point_balance(user: str = "pk") -> Coalesce:
    """The point balance of the user in the outer query's column ``user``, as an SQL
    expression: 0 without a points account."""
    balance = Account.objects.filter(user=OuterRef(user), currency=Currency.POINT) \
        .values("balance")[:1]
    return Coalesce(Subquery(balance), Value(0), output_field=BigIntegerField())


def levels_of(user_ids: Iterable[int]) -> dict[int, int]:
    """The level of each of these users, from their point balances (RULES §7), in one
    query; users that do not exist are left out."""
    ids = set(user_ids)
    if not ids:
        return {}
    return dict(User.objects.filter(pk__in=ids).annotate(points=point_balance())
                .annotate(level_number=level_at("points")).values_list("pk", "level_number"))
