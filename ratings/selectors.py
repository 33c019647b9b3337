"""Reads of the ratings app: a player's ratings and history, the boards. The pages and
the API read the same (ratings.views, ratings.api)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import Count, Q

from accounts.models import User

from .models import Family, Rating, RatingChange, Season
from .rating_math import START_MU, START_SIGMA, shown

HISTORY_POINTS = 300  # the chart's newest points


@dataclass(frozen=True)
class PlayerRating:
    family: str
    family_label: str
    rating: int
    deviation: int
    provisional: bool
    games: int
    wins: int


@dataclass(frozen=True)
class BoardRow:
    rank: int
    user_id: int
    username: str
    nickname: str
    rating: int
    deviation: int
    games: int
    wins: int


def may_see_history(viewer, player: User) -> bool:
    """A player's rating history follows their stats' choice (User.stats_public): public,
    or only they and staff. Current ratings are public, as the boards are."""
    return player.stats_public or (viewer.is_authenticated
                                   and (viewer.pk == player.pk or viewer.is_staff))


def player_ratings(player: User) -> list[PlayerRating]:
    """The player's rating in every family, 1500 provisional where they have none."""
    stored = {rating.family: rating for rating in Rating.objects.filter(user=player)}
    rows = []
    for family, label in Family.choices:
        rating = stored.get(family) or Rating(user=player, family=family, mu=START_MU,
                                              sigma=START_SIGMA)
        rows.append(PlayerRating(family=family, family_label=str(label), rating=rating.rating,
                                 deviation=rating.deviation, provisional=rating.provisional,
                                 games=rating.games, wins=rating.wins))
    return rows


def rating_history(player: User, family: str,
                   limit: int = HISTORY_POINTS) -> list[RatingChange]:
    """The player's newest rated games in ``family``, oldest first."""
    changes = list(RatingChange.objects.filter(user=player, family=family)
                   .order_by("-pk")[:limit])
    return changes[::-1]


def seat_ratings(user_ids: list[int], family: str) -> dict[int, tuple[int, bool]]:
    """user id → (shown rating, provisional) of those who have a rating in ``family``."""
    return {user_id: (shown(mu), sigma > settings.RATINGS_PROVISIONAL_SIGMA)
            for user_id, mu, sigma in Rating.objects.filter(
                user_id__in=user_ids, family=family).values_list("user_id", "mu", "sigma")}


def all_time_board(family: str, limit: int | None = None) -> list[BoardRow]:
    """Players by rating in ``family``, provisional ratings left off (they have not
    settled yet); equal shown ratings share a rank."""
    ratings = Rating.objects.filter(family=family, user__is_active=True,
                                    sigma__lte=settings.RATINGS_PROVISIONAL_SIGMA) \
        .select_related("user").order_by("-mu", "user_id")[:limit or settings.RATINGS_BOARD_SIZE]
    return _ranked([(rating.user, rating.mu, rating.sigma, rating.games, rating.wins)
                    for rating in ratings])


def season_board(family: str, season: Season, limit: int | None = None) -> list[BoardRow]:
    """Players by the rating their last rated game of ``season`` left them with, among
    those with RATINGS_SEASON_MIN_GAMES rated games in it and not provisional then;
    ``games`` and ``wins`` count the season's games."""
    in_season = RatingChange.objects.filter(family=family, created_at__gte=season.starts_at,
                                            created_at__lt=season.ends_at,
                                            user__is_active=True)
    counts = {row["user_id"]: row for row in in_season.values("user_id").annotate(
        games=Count("pk"), wins=Count("pk", filter=Q(won=True)))
        .filter(games__gte=settings.RATINGS_SEASON_MIN_GAMES)}
    last = in_season.filter(user_id__in=list(counts),
                            sigma_after__lte=settings.RATINGS_PROVISIONAL_SIGMA) \
        .order_by("user_id", "-pk").distinct("user_id").select_related("user")
    rows = sorted(((change.user, change.mu_after, change.sigma_after,
                    counts[change.user_id]["games"], counts[change.user_id]["wins"])
                   for change in last), key=lambda row: (-row[1], row[0].pk))
    return _ranked(rows[:limit or settings.RATINGS_BOARD_SIZE])


def _ranked(rows: list[tuple[User, float, float, int, int]]) -> list[BoardRow]:
    board: list[BoardRow] = []
    for index, (user, mu, sigma, games, wins) in enumerate(rows):
        rating = shown(mu)
        rank = board[-1].rank if board and board[-1].rating == rating else index + 1
        board.append(BoardRow(rank=rank, user_id=user.pk, username=user.username,
                              nickname=user.nickname, rating=rating, deviation=shown(sigma),
                              games=games, wins=wins))
    return board


def history_series(changes: list[RatingChange]) -> list[tuple[datetime, int]]:
    """The chart's (time, rating after) pairs (ledger.charts draws them)."""
    return [(change.created_at, change.rating) for change in changes]


def seat_rating_annotations() -> dict:
    """games.hooks.seat_fields: each seat's rating in its table's family, as
    subqueries of the seats' one read (the family from the rule set's players)."""
    from django.db.models import Case, CharField, OuterRef, Subquery, Value, When

    mine = Rating.objects.filter(user_id=OuterRef("user_id"), family=OuterRef("rating_family")) \
        .order_by()
    return {
        "rating_family": Case(When(table__room__rule_set__config__players=2,
                                   then=Value(Family.TWO)),
                              default=Value(Family.FOUR), output_field=CharField()),
        "rating_mu": Subquery(mine.values("mu")[:1]),
        "rating_sigma": Subquery(mine.values("sigma")[:1]),
    }


def seat_rating(seat) -> dict | None:
    """A seat's entry: ``{"rating", "provisional"}`` for a person (1500? before their
    first rated game), None for an empty seat or a bot."""
    if seat.user_id is None or seat.is_bot:
        return None
    if seat.rating_mu is None:
        return {"rating": shown(START_MU), "provisional": True}
    return {"rating": shown(seat.rating_mu),
            "provisional": seat.rating_sigma > settings.RATINGS_PROVISIONAL_SIGMA}
