"""Leaderboards of points beside the all-time one (accounts' /leaderboard/): the week's
(points won since Monday 00:00 in the site's TIME_ZONE) and any group of players' (the
friends board, friends.views, asks with its ids). Staff and bots are never ranked."""

from __future__ import annotations

import zoneinfo
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import QuerySet, Sum
from django.utils import timezone

from accounts.models import User
from accounts.selectors import point_balance
from ledger.models import Currency, Leg


def rankable_players() -> QuerySet[User]:
    """Who may be ranked: active people, neither staff nor bots."""
    return User.objects.filter(is_active=True, is_staff=False, is_superuser=False,
                               bot_player__isnull=True)


def week_start(now: datetime | None = None) -> datetime:
    """This week's Monday 00:00 in the site's TIME_ZONE."""
    local = timezone.localtime(now or timezone.now(), zoneinfo.ZoneInfo(settings.TIME_ZONE))
    monday = local.date() - timedelta(days=local.weekday())
    return datetime.combine(monday, datetime.min.time(), tzinfo=local.tzinfo)


@dataclass(frozen=True)
class BoardRow:
    rank: int  # competition ranking: equal points share a rank (1, 2, 2, 4)
    user: User
    points: int


def weekly_points(*, user_ids: Iterable[int] | None = None, now: datetime | None = None,
                  limit: int = 100) -> list[BoardRow]:
    """The week's points won (the sum of the week's point postings) of the players who
    moved points this week, or of each of ``user_ids`` (0 if they did not), best
    first; in one query for the sums and one for the players."""
    players = rankable_players()
    if user_ids is not None:
        players = players.filter(pk__in=list(user_ids))
    sums = Leg.objects.filter(account__currency=Currency.POINT, account__user__in=players,
                              transaction__created_at__gte=week_start(now)) \
        .values("account__user_id").annotate(points=Sum("amount")) \
        .order_by("-points", "account__user_id")
    if user_ids is None:
        found = [(row["account__user_id"], row["points"]) for row in sums[:limit]]
        users = players.in_bulk([user for user, _points in found])
    else:
        users = players.in_bulk()
        points = {row["account__user_id"]: row["points"] for row in sums}
        found = sorted(((user, points.get(user, 0)) for user in users),
                       key=lambda item: (-item[1], item[0]))[:limit]
    return _ranked([(users[user], points) for user, points in found if user in users])


def total_points(*, user_ids: Iterable[int]) -> list[BoardRow]:
    """The all-time points of ``user_ids`` (the rankable ones), best first."""
    players = rankable_players().filter(pk__in=list(user_ids)) \
        .annotate(points=point_balance()).order_by("-points", "pk")
    return _ranked([(user, user.points) for user in players])


def _ranked(pairs: list[tuple[User, int]]) -> list[BoardRow]:
    rows: list[BoardRow] = []
    for position, (user, points) in enumerate(pairs, start=1):
        rank = rows[-1].rank if rows and rows[-1].points == points else position
        rows.append(BoardRow(rank=rank, user=user, points=points))
    return rows

