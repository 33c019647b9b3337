"""A settled game's rule set reads as players know it (QQ游戏 火拼双扣), never as its code
(``qq``), in the history, the stats page and the replay's header."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from games.live.lifecycle.end import game_settle
from games.testing.room_helpers import make_player, make_room
from games.testing.stored_games import stored_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def settled(client):
    players = [make_player(f"n{index}") for index in range(4)]
    record = stored_game(make_room("名字积分场", "qq"), players, seed=1)
    assert game_settle(game_id=record.pk)
    client.force_login(players[0])
    return record, players[0]


def cells(page: str) -> list[str]:
    return [html.unescape(re.sub(r"<[^>]+>", "", cell)).strip()
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", page, re.S)]


def test_the_history_names_the_rule_set(client, settled):
    page = client.get(reverse("game-history")).content.decode()
    assert "QQ游戏 火拼双扣" in cells(page)
    assert "qq" not in cells(page)


def test_the_stats_page_names_the_rule_set(client, settled):
    _record, me = settled
    page = client.get(reverse("player-stats", args=[me.username])).content.decode()
    assert "QQ游戏 火拼双扣" in cells(page)
    assert "qq" not in cells(page)


def test_the_replay_header_names_the_rule_set(client, settled):
    record, _me = settled
    page = html.unescape(client.get(reverse("game-replay", args=[record.pk])).content.decode())
    start = page.index("replay-head")
    header = page[start:page.index("</header>", start)]
    assert "QQ游戏 火拼双扣" in header
    assert not re.search(r"\bqq\b", header)
