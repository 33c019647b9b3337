"""A player's profile (accounts) lists their recent games, each a link to its replay."""

import pytest
from django.urls import reverse

from accounts.tests.helpers import make_player
from games.settlement.posting import settle_game

pytestmark = pytest.mark.django_db


def test_recent_games_link_to_their_replays(client):
    players = [make_player(f"p{seat}") for seat in range(4)]
    settle_game(game_key="game:1001", players=players, scores=[2, -2, 2, -2])
    client.force_login(make_player("watcher"))

    html = client.get(reverse("player-profile", args=["p1"])).content.decode()

    assert 'href="/games/game:1001/replay/"' in html
    # The row's points, not any "-2": a date such as 2026-11-29 has one too.
    assert '<td class="num">-2</td>' in html

    # The old-style link leads to the replay by id; game 1001 does not exist here.
    replay = client.get("/games/game:1001/replay/")
    assert replay.status_code == 301 and replay["Location"].startswith("/games/1001/replay/")
    assert client.get("/games/game:1001/replay/", follow=True).status_code == 404
