"""Rated matchmaking (docs/ratings.md): a quick join in a rated room seats a person at a
waiting table whose people's mean rating is within a window of theirs; the window
starts at RATINGS_MATCH_WINDOW and widens by RATINGS_MATCH_WIDEN_PER_SECOND for every
second the table has waited, so nobody waits for ever for a close match. No table
within reach: the person opens a table of their own and waits there in turn. Bots
fill a rated table after GAMES_RATED_BOT_FILL_SECONDS (games.live.seating), where the
room allows bots.

Registered as a chooser of games.hooks.table_choice: games asks it, never imports it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import Exists, OuterRef
from django.utils import timezone

from accounts.models import User
from games.models import BotPlayer, Room, Seat, Table

from .models import Rating, family_of
from .rating_math import START_MU, shown


@dataclass(frozen=True)
class Terms:
    """The matching as players are told it."""

    window: int
    widen_per_second: float
    bot_seconds: float

    @classmethod
    def now(cls) -> Terms:
        return cls(window=settings.RATINGS_MATCH_WINDOW,
                   widen_per_second=_plain(settings.RATINGS_MATCH_WIDEN_PER_SECOND),
                   bot_seconds=_plain(settings.GAMES_RATED_BOT_FILL_SECONDS))


def _plain(number: float) -> float:
    """10.0 as 10 (players read "10", not "10.0"); 2.5 stays."""
    return int(number) if float(number).is_integer() else number


def window_after(waited_seconds: float, terms: Terms | None = None) -> float:
    """The rating difference a table that has waited this long accepts."""
    terms = terms or Terms.now()
    return terms.window + terms.widen_per_second * max(0.0, waited_seconds)


def shown_ratings(user_ids: list[int], family: str) -> dict[int, int]:
    """Each user's shown rating in ``family`` (1500 for one who has none yet)."""
    mus = dict(Rating.objects.filter(user_id__in=user_ids, family=family)
               .values_list("user_id", "mu"))
    return {user_id: shown(mus.get(user_id, START_MU)) for user_id in user_ids}


def choose_rated_tables(user: User, room: Room, tables: list[Table],
                        now: datetime | None = None) -> list[Table]:
    """games.hooks.table_choice: in a rated room, the tables within the window of
    ``user``'s rating, closest first; a table with nobody but bots accepts anyone and
    comes last. Casual rooms: every table, as given."""
    if not room.rated or not tables:
        return tables
    now = now or timezone.now()
    family = family_of(room.seat_count())
    seated = list(Seat.objects.filter(table__in=tables, user__isnull=False)
                  .annotate(is_bot=Exists(BotPlayer.objects.filter(user_id=OuterRef("user_id"))))
                  .values_list("table_id", "user_id", "is_bot"))
    people = {user_id for _table, user_id, is_bot in seated if not is_bot}
    ratings = shown_ratings([user.pk, *people], family)
    mine = ratings[user.pk]
    chosen: list[tuple[float, int, Table]] = []
    for table in tables:
        theirs = [ratings[user_id] for table_id, user_id, is_bot in seated
                  if table_id == table.pk and not is_bot]
        if not theirs:
            chosen.append((float("inf"), table.number, table))
            continue
        gap = abs(mine - sum(theirs) / len(theirs))
        waited = (now - table.waiting_since).total_seconds() if table.waiting_since else 0.0
        if gap <= window_after(waited):
            chosen.append((gap, table.number, table))
    return [table for _gap, _number, table in sorted(chosen, key=lambda item: item[:2])]
