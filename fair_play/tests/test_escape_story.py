"""One story of an escape on every page: a player whose browser closed after the deal and
who never came back before the settlement (an end_game room, RULES §10) is warned in
the lobby, and the history and the stats count the same game as an escape, each with
the rule that made it one; an ordinary game is no escape anywhere."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from fair_play.tests.test_bans import disconnect_until_the_end, ladder_settings, room  # noqa: F401
from games.testing.room_helpers import make_player

pytestmark = pytest.mark.django_db

RULE = "断线后直到结算都没回到牌桌"


def history_row(client, game_id: int) -> str:
    page = client.get(reverse("game-history")).content.decode()
    return re.search(rf'<tr data-game="{game_id}">(.*?)</tr>', page, re.S).group(1)


def escapes_on_stats(client, player) -> int:
    page = client.get(reverse("player-stats", args=[player.username])).content.decode()
    return int(re.search(r'<dd class="escapes">(\d+)</dd>', page).group(1))


def test_a_disconnect_without_return_is_an_escape_on_every_page(
        client, room, django_capture_on_commit_callbacks):  # noqa: F811
    alice = make_player("alice")
    game = disconnect_until_the_end(alice, room, django_capture_on_commit_callbacks,
                                    present=False)
    client.force_login(alice)

    lobby = client.get(reverse("lobby")).content.decode()
    warning = re.search(r'id="play-ban-warning">(.*?)</div>', lobby, re.S).group(1)
    assert f"牌局 #{game.pk} 算你逃跑了一局" in warning and RULE in warning

    row = history_row(client, game.pk)
    assert 'data-escape="disconnect"' in row and "算逃跑" in row and RULE in row

    assert escapes_on_stats(client, alice) == 1


def test_a_game_the_player_came_back_to_is_no_escape_anywhere(
        client, room, django_capture_on_commit_callbacks):  # noqa: F811
    alice = make_player("alice")
    game = disconnect_until_the_end(alice, room, django_capture_on_commit_callbacks,
                                    present=True)
    client.force_login(alice)

    assert 'id="play-ban-warning"' not in client.get(reverse("lobby")).content.decode()
    assert "算逃跑" not in history_row(client, game.pk)
    assert escapes_on_stats(client, alice) == 0
