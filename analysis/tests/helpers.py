"""Ended games for the analysis tests: the engine's seeded sample games stored as the
tables store them (games.testing.stored_games.stored_game), the last seat played by a server
bot, and a counter of the engine's calls."""

from __future__ import annotations

from games.engine import ai
from games.models import BotPlayer, GameRecord, Room
from games.testing.room_helpers import make_player
from games.testing.stored_games import stored_game

BOT_SEAT = 3


def people(prefix: str = "p", *, coins: int = 0) -> list:
    return [make_player(f"{prefix}{index}", coins=coins) for index in range(4)]


def game_with_a_bot(room: Room, users, *, seed: int = 1) -> GameRecord:
    """The sample game of ``seed``, ended and not settled, with seat 3 a server bot's."""
    record = stored_game(room, users, seed=seed)
    BotPlayer.objects.get_or_create(user_id=record.players[BOT_SEAT])
    record.bot_seats = [BOT_SEAT]
    record.save(update_fields=["bot_seats"])
    return record


class EngineCalls:
    """Wraps ``games.engine.ai.analyse`` (patched in by the test) and counts its calls."""

    def __init__(self) -> None:
        self.calls = 0
        self._analyse = ai.analyse

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self._analyse(*args, **kwargs)
