"""The stats page and API of a player: counts, rates and bombs by stars checked against
the games' own rows and logs; privacy for others, the player, staff and visitors; the
page's queries do not grow with the games; three languages."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from accounts.models import User
from games.live.lifecycle.end import game_settle
from games.testing.room_helpers import make_player, make_room
from games.testing.stored_games import stored_game
from stats.tests.helpers import expected_for

pytestmark = pytest.mark.django_db


def settled_games(room, players, seeds):
    """Settle each seed's game, turning the players round so ``players[0]`` sits at
    different seats (and sometimes escapes, wins or loses)."""
    records = []
    for turn, seed in enumerate(seeds):
        shift = turn % len(players)
        order = players[shift:] + players[:shift]
        record = stored_game(room, order, seed=seed)
        assert game_settle(game_id=record.pk)
        record.refresh_from_db()
        records.append(record)
    return records


@pytest.fixture
def players():
    return [make_player(f"p{index}") for index in range(4)]


@pytest.fixture
def games(players):
    # 金游 百变双扣's sample games have bombs of 4 and 5 stars, escapes, wins and losses.
    return settled_games(make_room("金游 积分", "jinyou"), players, range(1, 9))


def cell(html: str, css: str) -> str:
    match = re.search(rf'class="[^"]*\b{css}\b[^"]*">([^<]*)<', html)
    assert match, css
    return match.group(1)


def rate(part: int, whole: int) -> float:
    return round(part * 100 / whole, 1)


def test_the_api_reports_counts_rates_and_bombs_from_the_games(client, players, games):
    everyone = [expected_for(player.pk, games) for player in players]
    # The seeded games give something of each to count: bombs of 4 and 5 stars,
    # escapes, wins and losses.
    assert set().union(*(expected["bombs"] for expected in everyone)) == {4, 5}
    assert sum(expected["escapes"] for expected in everyone) > 0
    assert 0 < everyone[0]["wins"] < 8

    for player, expected in zip(players, everyone, strict=True):
        body = client.get(reverse("api-player-stats", args=[player.username])).json()

        stats = body["stats"]
        assert body["public"] is True and body["username"] == player.username
        assert stats["games"] == expected["games"] == 8
        assert stats["wins"] == expected["wins"]
        assert stats["win_rate"] == rate(expected["wins"], 8)
        assert stats["escapes"] == expected["escapes"]
        assert {row["stars"]: row["count"] for row in stats["bombs_by_stars"]} \
            == expected["bombs"]
        by_kou = {row["kou"]: row for row in stats["by_kou"]}
        assert set(by_kou) == {"double", "single", "draw", "escape"}
        for kou, row in by_kou.items():
            games_of_kou, wins_of_kou = expected["kous"].get(kou, [0, 0])
            assert (row["games"], row["wins"]) == (games_of_kou, wins_of_kou)
            assert row["rate"] == rate(games_of_kou, 8)
        assert [(row["rule_set"], row["room_kind"], row["games"], row["wins"])
                for row in stats["by_rule_set"]] == [
            ("jinyou", "points", *expected["groups"][("jinyou", "points")])]


def test_the_page_shows_the_same_numbers(client, players, games):
    me, expected = next((player, expected) for player in players
                        if 5 in (expected := expected_for(player.pk, games))["bombs"])

    html = client.get(reverse("player-stats", args=[me.username])).content.decode()

    assert cell(html, "games") == str(expected["games"])
    assert cell(html, "wins") == str(expected["wins"])
    assert cell(html, "win-rate") == f"{rate(expected['wins'], expected['games'])}%"
    assert cell(html, "escapes") == str(expected["escapes"])
    shown = {int(stars): int(count) for stars, count in re.findall(
        r'<tr data-stars="(\d+)">.*?class="num count">(\d+)<', html, re.S)}
    assert shown == expected["bombs"]
    for kou, (count, _) in expected["kous"].items():
        row = re.search(rf'<tr data-kou="{kou}">.*?class="num games">(\d+)<.*?'
                        r'class="num rate">([\d.]+)%', html, re.S)
        assert (int(row[1]), float(row[2])) == (count, rate(count, expected["games"]))


def test_games_are_counted_by_rule_set_and_room_kind(client, players):
    settled_games(make_room("qq 积分"), players, [1, 2])
    settled_games(make_room("tcy 积分", "tcy"), players[:2], [1])

    stats = client.get(reverse("api-player-stats", args=[players[0].username])).json()["stats"]

    assert [(row["rule_set"], row["room_kind"], row["games"]) for row in stats["by_rule_set"]] \
        == [("qq", "points", 2), ("tcy", "points", 1)]
    assert stats["games"] == 3


def test_a_player_without_games_has_empty_stats(client):
    loner = make_player("loner")

    stats = client.get(reverse("api-player-stats", args=["loner"])).json()["stats"]
    html = client.get(reverse("player-stats", args=[loner.username])).content.decode()

    assert stats["games"] == 0 and stats["win_rate"] is None and stats["bombs_by_stars"] == []
    assert "还没有结算的牌局" in html


def test_an_unknown_player_is_not_found(client):
    assert client.get(reverse("player-stats", args=["nobody"])).status_code == 404
    assert client.get(reverse("api-player-stats", args=["nobody"])).status_code == 404


@pytest.mark.parametrize("viewer", ["anonymous", "other"])
def test_a_private_players_stats_show_others_only_name_and_level(client, players, games,
                                                                 viewer):
    me = players[0]
    me.stats_public = False
    me.save()
    if viewer == "other":
        client.force_login(players[2])

    html = client.get(reverse("player-stats", args=[me.username])).content.decode()
    body = client.get(reverse("api-player-stats", args=[me.username])).json()

    assert 'data-visible="0"' in html and "该玩家的统计不公开" in html
    assert cell(html, "level") == "1" and me.nickname in html
    assert 'class="num games"' not in html and "data-stars" not in html
    assert body["stats"] is None and body["public"] is False and body["level"] == 1


@pytest.mark.parametrize("viewer", ["owner", "staff"])
def test_the_player_and_staff_see_private_stats(client, players, games, viewer):
    me = players[0]
    me.stats_public = False
    me.save()
    if viewer == "owner":
        client.force_login(me)
    else:
        client.force_login(User.objects.create_user(
            username="staff", password="pw", is_staff=True))

    html = client.get(reverse("player-stats", args=[me.username])).content.decode()
    body = client.get(reverse("api-player-stats", args=[me.username])).json()

    assert 'data-visible="1"' in html
    assert body["stats"]["games"] == 8 and body["public"] is False


def test_the_player_switches_their_stats_private_and_back_on_their_profile(client, players):
    me = players[0]
    client.force_login(me)
    profile = client.get(reverse("my-profile")).content.decode()
    assert 'id="stats-public" name="stats_public" checked' in profile
    assert '<label for="stats-public">' in profile

    response = client.post(reverse("stats-visibility"), {})
    me.refresh_from_db()
    assert response.status_code == 302 and me.stats_public is False
    assert 'name="stats_public" checked' not in client.get(reverse("my-profile")).content.decode()

    client.post(reverse("stats-visibility"), {"stats_public": "on"})
    me.refresh_from_db()
    assert me.stats_public is True


def test_the_switch_needs_a_login_and_a_post(client, players):
    assert client.get(reverse("stats-visibility")).status_code in (302, 405)
    response = client.post(reverse("stats-visibility"), {})
    assert response.status_code == 302 and reverse("login") in response["Location"]
    client.force_login(players[0])
    assert client.get(reverse("stats-visibility")).status_code == 405
    players[0].refresh_from_db()
    assert players[0].stats_public is True


def test_others_profiles_link_the_stats_without_the_switch(client, players):
    client.force_login(players[1])

    html = client.get(reverse("player-profile", args=[players[0].username])).content.decode()

    assert reverse("player-stats", args=[players[0].username]) in html
    assert 'name="stats_public"' not in html


def test_the_leaderboard_links_each_players_stats(client, players):
    html = client.get(reverse("leaderboard")).content.decode()

    for player in players:
        assert f'href="{reverse("player-stats", args=[player.username])}"' in html


def test_the_pages_queries_do_not_grow_with_the_games(client, players,
                                                     django_assert_max_num_queries):
    room = make_room("qq 积分")
    settled_games(room, players, [1])
    client.force_login(players[0])
    url = reverse("player-stats", args=[players[0].username])
    # Session and viewer, the player, balances, ladder, facts, labels, bombs.
    with django_assert_max_num_queries(8) as few:
        assert client.get(url).status_code == 200
    settled_games(room, players, range(2, 9))
    with django_assert_max_num_queries(len(few.captured_queries)):
        html = client.get(url).content.decode()
    assert cell(html, "games") == "8"


@pytest.mark.parametrize(("language", "words"), [
    ("zh-hans", ["对局数", "胜率", "双扣", "炸弹（按相数）"]),
    ("zh-hant", ["對局數", "勝率", "雙扣", "炸彈（按相數）"]),
    ("en", ["Games", "Win rate", "Double", "Bombs by stars"]),
])
def test_the_page_reads_in_three_languages(client, players, games, language, words):
    html = client.get(reverse("player-stats", args=[players[0].username]),
                      HTTP_ACCEPT_LANGUAGE=language).content.decode()

    for word in words:
        assert word in html, word


def test_the_api_is_in_the_schema(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()

    operation = schema["paths"]["/api/players/{username}/stats"]["get"]
    assert "reduced body" in operation["description"]
    assert "PlayerStats" in str(operation["responses"]["200"])
