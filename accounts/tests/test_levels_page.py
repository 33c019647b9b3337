"""The levels page (/levels/, RULES §7), the leaderboard (/leaderboard/) and the site
navigation, for visitors and signed-in players."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from accounts.models import Level
from accounts.tests.helpers import make_player, post_points
from games.models import BotPlayer

pytestmark = pytest.mark.django_db

LEVEL_ROW = re.compile(r'<tr class="level-row(?P<mine> mine)?" data-level="(?P<number>\d+)"'
                       r'(?P<current> aria-current="true")?>\s*<td class="num">\d+</td>\s*'
                       r'<td>(?P<title>[^<]*)')
RANK_ROW = re.compile(r'<tr class="rank-row(?P<mine> mine)?" data-user="(?P<user>\d+)"'
                      r'(?: aria-current="true")?>\s*<td class="num rank">(?P<rank>\d+)</td>'
                      r'.*?<td>Lv\.(?P<level>\d+) (?P<title>[^<]*)</td>\s*'
                      r'<td class="num points">(?P<points>-?\d+)</td>', re.S)


def level_rows(html: str) -> list[re.Match]:
    return list(LEVEL_ROW.finditer(html))


def rank_rows(html: str) -> list[dict]:
    return [{"user": int(match["user"]), "rank": int(match["rank"]),
             "points": int(match["points"]), "level": int(match["level"]),
             "title": match["title"], "mine": bool(match["mine"])}
            for match in RANK_ROW.finditer(html)]


# --- levels -------------------------------------------------------------------------------

def test_visitors_see_the_whole_ladder_without_a_place_of_their_own(client):
    response = client.get(reverse("levels"))

    assert response.status_code == 200
    html = response.content.decode()
    rows = level_rows(html)
    ladder = list(Level.objects.order_by("number").values_list("number", "title"))
    assert [(int(row["number"]), row["title"].strip()) for row in rows] == ladder
    assert len(rows) == 23
    assert (rows[0]["title"].strip(), rows[-1]["title"].strip()) == ("包身工", "帝王")
    assert not any(row["mine"] or row["current"] for row in rows)
    assert "我的等级" not in html
    assert "（我）" not in html
    assert "<progress" not in html
    assert "&lt; 60" in html  # level 1 holds everything below 60, negatives included
    assert reverse("login") in html


def test_my_level_is_marked_with_progress_to_the_next(client):
    player = make_player("tenant")
    post_points(player, 220)  # level 3 长工 (140), level 4 佃户 at 300: half way
    client.force_login(player)

    html = client.get(reverse("levels")).content.decode()

    marked = [row for row in level_rows(html) if row["mine"]]
    assert [(int(row["number"]), bool(row["current"])) for row in marked] == [(3, True)]
    assert html.count("（我）") == 1
    assert "Lv.3 长工" in html
    assert "220 / 300" in html
    assert "还差 80 积分" in html
    assert re.search(r'<progress max="100" value="50"', html)


def test_negative_points_mark_the_lowest_level(client):
    player = make_player("unlucky")
    post_points(player, -500)
    client.force_login(player)

    html = client.get(reverse("levels")).content.decode()

    assert [int(row["number"]) for row in level_rows(html) if row["mine"]] == [1]
    assert "-500 / 60" in html
    assert '<progress max="100" value="0"' in html


def test_the_top_level_has_no_next_level(client):
    player = make_player("emperor")
    post_points(player, 1_000_000)
    client.force_login(player)

    html = client.get(reverse("levels")).content.decode()

    assert [int(row["number"]) for row in level_rows(html) if row["mine"]] == [23]
    assert "已达最高等级" in html
    assert '<progress max="100" value="100"' in html


def test_the_ladder_follows_edits_of_the_level_table(client):
    Level.objects.filter(number=2).update(title="学徒")

    html = client.get(reverse("levels")).content.decode()

    assert [row["title"].strip() for row in level_rows(html)][1] == "学徒"


# --- leaderboard -----------------------------------------------------------------------------

def test_the_leaderboard_ranks_players_by_points_without_bots_or_staff(client):
    leader = make_player("leader", nickname="状元")
    me = make_player("me")
    tied = make_player("tied")
    newcomer = make_player("newcomer")  # no points account at all: 0 points
    behind = make_player("behind")
    bot = make_player("bot-1")
    BotPlayer.objects.create(user=bot)
    gone = make_player("gone", is_active=False)
    admin = make_player("admin", is_staff=True, is_superuser=True)
    staff = make_player("staff", is_staff=True)
    post_points(admin, 9_000)
    post_points(staff, 8_000)
    post_points(leader, 300)
    post_points(me, 100)
    post_points(tied, 100)
    post_points(behind, -5)
    post_points(bot, 10_000)
    post_points(gone, 5_000)
    client.force_login(me)

    response = client.get(reverse("leaderboard"))

    assert response.status_code == 200
    html = response.content.decode()
    rows = rank_rows(html)
    assert [(row["user"], row["rank"], row["points"]) for row in rows] == [
        (leader.pk, 1, 300), (me.pk, 2, 100), (tied.pk, 2, 100), (newcomer.pk, 4, 0),
        (behind.pk, 5, -5)]
    assert [row["user"] for row in rows if row["mine"]] == [me.pk]
    assert (rows[0]["level"], rows[0]["title"]) == (4, "佃户")
    assert (rows[1]["level"], rows[1]["title"]) == (2, "短工")
    assert (rows[4]["level"], rows[4]["title"]) == (1, "包身工")
    assert "状元" in html
    assert "我的排名：第 2 名（100 积分）" in html
    assert reverse("player-profile", args=[leader.username]) in html


def test_the_leaderboard_is_paginated_and_points_me_to_my_page(client):
    players = [make_player(f"p{number:02d}") for number in range(55)]
    for number, player in enumerate(players):
        post_points(player, 1000 - number * 10)  # p00 first … p54 last
    me = players[52]
    client.force_login(me)

    first = client.get(reverse("leaderboard"))
    second = client.get(reverse("leaderboard"), {"page": 2})

    first_rows, second_rows = rank_rows(first.content.decode()), rank_rows(second.content.decode())
    assert [row["rank"] for row in first_rows] == list(range(1, 51))
    assert [row["rank"] for row in second_rows] == list(range(51, 56))
    assert [row["user"] for row in second_rows] == [player.pk for player in players[50:]]
    assert not any(row["mine"] for row in first_rows)
    assert [row["user"] for row in second_rows if row["mine"]] == [me.pk]
    assert "我的排名：第 53 名" in first.content.decode()
    assert "查看我所在的页" in first.content.decode()
    assert "查看我所在的页" not in second.content.decode()
    assert client.get(reverse("leaderboard"), {"page": "x"}).status_code == 200


def test_ties_across_a_page_boundary_keep_the_shared_rank(client):
    players = [make_player(f"t{number:02d}") for number in range(52)]
    for number, player in enumerate(players):
        post_points(player, 500 if number >= 49 else 1000 - number)

    rows = rank_rows(client.get(reverse("leaderboard"), {"page": 2}).content.decode())

    # Players 49, 50 and 51 share rank 50; the second page starts at the second of them.
    assert [row["rank"] for row in rows] == [50, 50]


def test_visitors_see_the_leaderboard_without_a_rank_of_their_own(client):
    post_points(make_player("someone"), 10)

    response = client.get(reverse("leaderboard"))

    assert response.status_code == 200
    html = response.content.decode()
    assert len(rank_rows(html)) == 1
    assert "我的排名" not in html
    assert "rank-row mine" not in html
    assert "（我）" not in html


def test_a_bot_signed_in_gets_no_rank(client):
    bot = make_player("bot-2")
    BotPlayer.objects.create(user=bot)
    client.force_login(bot)

    html = client.get(reverse("leaderboard")).content.decode()

    assert "我的排名" not in html
    assert rank_rows(html) == []


# --- navigation ---------------------------------------------------------------------------

def _nav(html: str) -> str:
    return html.split('<nav class="site-nav"', 1)[1].split("</nav>", 1)[0]


def test_visitors_get_the_public_links(client):
    nav = _nav(client.get(reverse("home")).content.decode())

    for name in ("lobby", "levels", "leaderboard", "signup"):
        assert f'href="{reverse(name)}"' in nav
    for name in ("my-coins", "my-points", "my-profile"):
        assert f'href="{reverse(name)}"' not in nav
    assert 'aria-label="主导航"' in client.get(reverse("home")).content.decode()


def test_players_get_their_coins_points_and_history_links(client):
    client.force_login(make_player("navigator"))

    nav = _nav(client.get(reverse("levels")).content.decode())

    for name in ("lobby", "my-coins", "my-points", "levels", "leaderboard", "my-profile",
                 "game-history"):
        assert f'href="{reverse(name)}"' in nav
    # The page being shown is marked for screen readers.
    assert f'href="{reverse("levels")}" aria-current="page"' in nav
    assert nav.count('aria-current="page"') == 1


def test_the_nav_renders_on_the_statement_pages(client):
    client.force_login(make_player("reader"))

    for name in ("my-coins", "my-points", "leaderboard"):
        response = client.get(reverse(name))
        assert response.status_code == 200
        assert f'href="{reverse(name)}" aria-current="page"' in _nav(response.content.decode())
