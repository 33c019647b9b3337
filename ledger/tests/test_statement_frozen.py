"""The coins statement during a game (金币冻结, RULES §8): the frozen stake is shown as
frozen, with its game, rather than as coins gone; once settled it is not."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import GameRecord, Table
from games.settlement.posting import settle_game
from games.testing.room_helpers import coin_room
from ledger.services import freeze_game_coins
from ledger.tests.ledger_helpers import make_players, rows_of, unique

pytestmark = pytest.mark.django_db

FROZEN_LINE = re.compile(r'<p class="statement-frozen">(.*?)</p>', re.S)


def a_running_coin_game(players):
    room = coin_room(name=unique("金币房"), coefficient=100, fee=10, min_coins=1000,
                     max_loss=20000)
    table = Table.objects.create(room=room, number=1)
    record = GameRecord.objects.create(table=table, room=room, rule_set_name="qq",
                                       players=[player.pk for player in players])
    freeze_game_coins(game_key=record.ledger_key, stakes=[(player, 20000) for player in players])
    return record


def frozen_line(response) -> str | None:
    match = FROZEN_LINE.search(response.content.decode())
    return " ".join(match.group(1).split()) if match else None


def test_during_a_game_the_statement_shows_the_frozen_stake_and_its_game(client):
    players = make_players(coins=30000)
    record = a_running_coin_game(players)
    client.force_login(players[0])

    response = client.get(reverse("my-coins"))

    line = frozen_line(response)
    assert line is not None
    assert '<strong class="frozen">20000</strong>' in line
    assert f"牌局 #{record.pk} 20000" in line
    assert re.search(r'<strong class="balance">10000</strong>', response.content.decode())
    frozen, granted = rows_of(response)
    assert (frozen.kind, frozen.amount, frozen.balance) == ("freeze", -20000, 10000)
    assert "冻结中" in frozen.what
    assert "冻结中" not in granted.what


def test_after_the_settlement_nothing_is_shown_as_frozen(client):
    players = make_players(coins=30000)
    record = a_running_coin_game(players)
    settle_game(game_key=record.ledger_key, players=players, scores=[2, 2, -2, -2],
                coins=True, coefficient=100, fee=10)
    client.force_login(players[0])

    response = client.get(reverse("my-coins"))

    assert frozen_line(response) is None
    assert all("冻结中" not in row.what for row in rows_of(response))
    assert re.search(r'<strong class="balance">30190</strong>', response.content.decode())


def test_the_points_statement_has_no_frozen_line(client):
    players = make_players(coins=30000)
    a_running_coin_game(players)
    client.force_login(players[0])

    assert frozen_line(client.get(reverse("my-points"))) is None
