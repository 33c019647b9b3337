"""Reads of the ledger that pages, the API and the admin share."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.base_user import AbstractBaseUser as User  # any user model
from django.db.models import Max, Q, QuerySet, Sum

from .models import Account, Currency, Hold, Leg


def user_balances(user: User) -> dict[str, int]:
    """The user's balance per currency; a currency without an account is absent."""
    return dict(Account.objects.filter(user=user).values_list("currency", "balance"))


def point_balances(user_ids: list[int]) -> list[int]:
    """Each of ``user_ids``'s point balance, in their order (0 without an account), in
    one query: a classic deal's 等级倍率 reads the four seats' (RULES §9)."""
    balances = dict(Account.objects.filter(user_id__in=user_ids, currency=Currency.POINT)
                    .values_list("user_id", "balance"))
    return [balances.get(user_id, 0) for user_id in user_ids]


def user_entries(user: User, *, currency: str | None = None,
                 kind: str | None = None) -> QuerySet[Leg]:
    """The user's own legs, newest first, with their transactions; only the legs of
    this user's accounts, never the other side of a transaction."""
    legs = (Leg.objects.filter(account__user=user)
            .select_related("transaction", "account").order_by("-id"))
    if currency:
        legs = legs.filter(account__currency=currency)
    if kind:
        legs = legs.filter(transaction__kind=kind)
    return legs


@dataclass(frozen=True)
class GameLine:
    """A player's net result in one game, over all of that game's transactions (the
    freeze, the settlement, any correction)."""

    game_key: str
    last_at: datetime
    points: int
    coins: int


def recent_games(user: User, *, limit: int = 10) -> list[GameLine]:
    rows = (Leg.objects.filter(account__user=user).exclude(transaction__game_key="")
            .values("transaction__game_key")
            .annotate(last_at=Max("transaction__created_at"),
                      points=Sum("amount", filter=Q(account__currency=Currency.POINT)),
                      coins=Sum("amount", filter=Q(account__currency=Currency.COIN)))
            .order_by("-last_at")[:limit])
    return [GameLine(game_key=row["transaction__game_key"], last_at=row["last_at"],
                     points=row["points"] or 0, coins=row["coins"] or 0) for row in rows]


def pending_holds(user_id: int) -> list[Hold]:
    """The user's coins frozen for games still running, oldest first."""
    return list(Hold.objects.filter(user_id=user_id, status=Hold.Status.PENDING)
                .order_by("pk"))


def frozen_coins(user_id: int) -> int:
    """Coins of the user frozen for games still running (pending holds, 金币冻结)."""
    return Hold.objects.filter(user_id=user_id, status=Hold.Status.PENDING) \
        .aggregate(total=Sum("amount"))["total"] or 0


def coin_wallet(user_id: int) -> dict[str, int]:
    """The user's coins as the table page shows them: ``balance`` (what they can use;
    frozen coins have left it for escrow) and ``frozen`` (held for a running game)."""
    return coin_wallets([user_id])[user_id]


def coin_wallets(user_ids: list[int]) -> dict[int, dict[str, int]]:
    """:func:`coin_wallet` of each of ``user_ids`` in two queries (a deal's four)."""
    balances = dict(Account.objects.filter(user_id__in=user_ids, currency=Currency.COIN)
                    .values_list("user_id", "balance"))
    frozen = dict(Hold.objects.filter(user_id__in=user_ids, status=Hold.Status.PENDING)
                  .order_by().values("user_id").annotate(total=Sum("amount"))
                  .values_list("user_id", "total"))
    return {user_id: {"balance": balances.get(user_id) or 0, "frozen": frozen.get(user_id) or 0}
            for user_id in user_ids}
