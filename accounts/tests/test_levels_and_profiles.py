"""Levels follow points (RULES §7); profiles show them, coins only to their owner."""

import pytest
from django.urls import reverse

from accounts.models import User
from accounts.selectors import level_progress_for_points, levels_of, player_standing
from accounts.tests.helpers import make_player, post_coins, post_points

pytestmark = pytest.mark.django_db


def test_a_new_player_is_level_1_with_60_points_to_go():
    standing = player_standing(make_player("newbie"))

    progress = standing.progress
    assert (progress.current.number, progress.current.title, progress.points) == (1, "包身工", 0)
    assert (progress.next.number, progress.next.title, progress.next.min_points) == (2, "短工", 60)
    assert progress.points_to_next == 60
    assert progress.percent == 0
    assert standing.coins == 0


def test_points_across_a_boundary_move_the_player_up_a_level():
    player = make_player("climber")

    post_points(player, 59)
    assert player_standing(player).progress.current.number == 1
    post_points(player, 1)

    progress = player_standing(player).progress
    assert (progress.current.number, progress.current.title) == (2, "短工")
    assert (progress.next.number, progress.next.min_points) == (3, 140)
    assert progress.points_to_next == 80
    assert levels_of([player.pk]) == {player.pk: 2}  # the bulk reader agrees


def test_negative_points_stay_at_the_lowest_level():
    progress = level_progress_for_points(-500)

    assert progress.current.number == 1
    assert progress.percent == 0
    assert progress.points_to_next == 560


def test_the_top_level_has_no_next_level():
    progress = level_progress_for_points(2_000_000)

    assert (progress.current.number, progress.current.title) == (23, "帝王")
    assert progress.next is None
    assert progress.points_to_next is None
    assert progress.percent == 100


def test_progress_is_the_share_of_the_current_level_done():
    # Level 3 长工 needs 140, level 4 佃户 300: 220 points is half way.
    assert level_progress_for_points(220).percent == 50


def test_my_profile_shows_level_title_progress_points_and_coins(client):
    player = make_player("lihua", nickname="李华")
    post_points(player, 100)
    post_coins(player, 777)
    client.force_login(player)

    response = client.get(reverse("my-profile"))

    assert response.status_code == 200
    html = response.content.decode()
    assert "李华" in html
    assert "Lv.2 短工" in html
    assert "Lv.3 长工" in html
    assert "100 / 140" in html
    assert '<dd class="coins">777</dd>' in html
    assert '<dd class="points">100</dd>' in html
    assert reverse("password_change") in html


def test_my_profile_needs_a_login(client):
    response = client.get(reverse("my-profile"))

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_a_public_profile_shows_level_and_points_but_not_coins(client):
    player = make_player("lihua", nickname="李华")
    post_points(player, 100)
    post_coins(player, 777)
    client.force_login(make_player("visitor"))

    response = client.get(reverse("player-profile", args=["lihua"]))

    assert response.status_code == 200
    html = response.content.decode()
    assert "李华" in html
    assert "Lv.2 短工" in html
    assert '<dd class="points">100</dd>' in html
    assert "777" not in html
    assert 'class="coins"' not in html
    assert "游戏币" not in html.split("</header>", 1)[1]


def test_an_anonymous_visitor_sees_a_public_profile_and_the_top_level_shows_no_next(client):
    player = make_player("emperor")
    post_points(player, 1_000_000)

    html = client.get(reverse("player-profile", args=["emperor"])).content.decode()

    assert "Lv.23 帝王" in html
    assert "已达最高等级" in html
    assert "下一级" not in html


def test_unknown_and_inactive_players_have_no_profile(client):
    make_player("gone", is_active=False)

    assert client.get(reverse("player-profile", args=["nobody"])).status_code == 404
    assert client.get(reverse("player-profile", args=["gone"])).status_code == 404


def test_my_profile_lists_my_recent_ledger_entries(client, settings):
    player = make_player("saver")
    post_coins(player, 300)
    client.force_login(player)

    html = client.get(reverse("my-profile")).content.decode()

    assert "管理调整" in html
    assert "+300" in html


def test_a_nickname_is_escaped_on_the_profile(client):
    make_player("xss", nickname="<b>bold</b>")

    html = client.get(reverse("player-profile", args=["xss"])).content.decode()

    assert "&lt;b&gt;bold&lt;/b&gt;" in html
    assert "<b>bold</b>" not in html
    assert User.objects.get(username="xss").nickname == "<b>bold</b>"
