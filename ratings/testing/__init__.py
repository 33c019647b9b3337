"""Set-up shared by the ratings tests: rated games stored as the tables store them."""

from __future__ import annotations

from accounts.models import User
from games.models import GameRecord, Room
from games.testing.room_helpers import make_room
from games.testing.stored_games import stored_game


def rated_room(name: str = "排位 qq", rule_set: str = "qq", **fields) -> Room:
    return make_room(name, rule_set, rated=True, **fields)


def rated_game(room: Room, users: list[User], *, seed: int,
               bot_seats: tuple[int, ...] = ()) -> GameRecord:
    """The sample game of ``seed`` (games.engine.sample_games), ended, unsettled, dealt
    as rated when the room is; ``bot_seats``: seats marked as played by bots."""
    record = stored_game(room, users, seed=seed)
    record.rated = room.rated
    record.bot_seats = list(bot_seats)
    record.save(update_fields=["rated", "bot_seats"])
    return record
