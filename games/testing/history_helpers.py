"""The game history page in tests (games.archive.history): finished games written as
the tables leave them, and the page's rows read back. ``me`` and ``others`` are
fixtures, for the conftest of each test package that reads the history."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import GameRecord, Room, Table
from games.testing.room_helpers import make_player

ROW = re.compile(r'<tr data-game="(\d+)">(.*?)</tr>', re.S)
BASE = {"double": [4, 4, -4, -4], "single": [2, -2, 2, -2], "draw": [1, 0, 0, 1]}


def rows(response) -> list[int]:
    assert response.status_code == 200
    return [int(game) for game, _ in ROW.findall(response.content.decode())]


def row_html(response, game: GameRecord) -> str:
    return dict(ROW.findall(response.content.decode()))[str(game.pk)]


def ended_game(room: Room, players, *, kou: str = "double", finish=(0, 2, 1, 3),
               minutes_ago: int = 0, settled: bool = True,
               status: str = GameRecord.Status.ENDED) -> GameRecord:
    """A finished four-seat game as the tables leave it (RULES §6 base table, no bombs)."""
    table, _ = Table.objects.get_or_create(room=room, number=1)
    base = [0] * 4
    for place, seat in enumerate(finish):
        base[seat] = BASE[kou][place]
    winners = [seat for seat in range(4) if seat % 2 == finish[0] % 2]
    points = list(base)
    coins = [score * room.coefficient - room.fee for score in base] if room.is_coins else [0] * 4
    return GameRecord.objects.create(
        table=table, room=room, rule_set_name=room.rule_set.name,
        players=[player.pk for player in players], status=status,
        result={"kou": kou, "finish": list(finish), "multiplier": 1, "base": base,
                "contributions": [0] * 4, "scores": base, "winners": winners,
                "escaped": None, "penalty": 0, "cards_left": None},
        settlement={"points": points, "coins": coins} if settled else None,
        ended_at=timezone.now() - timedelta(minutes=minutes_ago))


@pytest.fixture
def me(client):
    player = make_player("me")
    client.force_login(player)
    return player


@pytest.fixture
def others():
    return [make_player(f"other{index}") for index in range(4)]
