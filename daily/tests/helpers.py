"""Set-up for the daily tests: players who finished a game, and settled games as the
settlement hands them to games.hooks.signals.game_settled."""

from __future__ import annotations

import itertools
import uuid

from django.utils import timezone

from accounts.models import User
from games.models import GameRecord, Table
from games.settlement.posting import settle_game
from games.testing.room_helpers import make_room

_serial = itertools.count()


def player(name: str | None = None) -> User:
    return User.objects.create_user(username=name or f"p{uuid.uuid4().hex[:8]}", password="pw")


def played(users: list[User]) -> None:
    """A settled points game of these four: each has now finished a game."""
    settle_game(game_key=f"g-{uuid.uuid4().hex[:8]}", players=users, scores=[1, 1, -1, -1])


def a_game(users: list[User], *, kou: str = "single", winners=(0, 2), escaped=None,
           bombs: dict[int, int] | None = None, bot_seats=()) -> tuple[GameRecord, list[dict]]:
    """An ended game of ``users`` (seat order) and its log's plays: ``bombs`` seat → stars."""
    room = make_room(f"r{next(_serial)}-{uuid.uuid4().hex[:6]}")
    table = Table.objects.create(room=room, number=1)
    record = GameRecord.objects.create(
        table=table, room=room, rule_set_name="qq", players=[user.pk for user in users],
        bot_seats=list(bot_seats), status=GameRecord.Status.ENDED, ended_at=timezone.now(),
        result={"kou": kou, "winners": list(winners), "escaped": escaped})
    events = [{"type": "play", "seat": seat, "cards": [],
               "reading": {"type": "bomb", "stars": stars}}
              for seat, stars in (bombs or {}).items()]
    return record, events
