"""The "play now" path: after signing up a player lands on a page whose one button seats
them in the beginner points room, with the way to its rules; the home page offers the
same until the player's first game."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Seat
from games.onboarding import beginner_room
from games.testing.room_helpers import coin_room, make_player, make_room, start_game_with_bots

pytestmark = pytest.mark.django_db
PASSWORD = "Tea-house-2048"


def play_now_form(html: str) -> str | None:
    """Where the play-now button posts, if the page has one."""
    match = re.search(r'<form method="post" action="([^"]+)">\s*<input[^>]*csrfmiddlewaretoken'
                      r'[^>]*>\s*<button type="submit" class="cta" id="play-now-button">', html)
    return match[1] if match else None


def test_the_beginner_room_is_an_open_points_room_with_bots_of_the_default_rule_set():
    coin_room("QQ 金币场")
    make_room("QQ 积分场 · 无机器人", bots_allowed=False)
    make_room("QQ 积分场 · 关闭", is_open=False)
    make_room("经典 积分场", "classic", position=0)
    make_room("QQ 积分场 · 十倍", stake_unit=10, position=1)
    wanted = make_room("QQ 积分场", position=5)

    assert beginner_room() == wanted


def test_without_such_a_room_there_is_none():
    coin_room("QQ 金币场")

    assert beginner_room() is None


def test_sign_up_lands_on_play_now_whose_button_seats_the_player_at_a_table(client):
    room = make_room("QQ 积分场")

    response = client.post(reverse("signup"), {
        "username": "xiaoming", "nickname": "小明", "password1": PASSWORD,
        "password2": PASSWORD}, follow=True)

    assert response.redirect_chain == [(reverse("play-now"), 302)]
    html = response.content.decode()
    assert play_now_form(html) == reverse("room-quick-join", args=[room.pk])
    assert f'href="{reverse("rules", args=["qq"])}"' in html
    assert "注册成功" in html and "欢迎，小明" in html

    joined = client.post(play_now_form(html))

    seat = Seat.objects.get(user__username="xiaoming")
    assert seat.table.room_id == room.pk
    assert joined["Location"] == reverse("table", args=[seat.table_id])


def test_play_now_says_so_when_no_beginner_room_is_open(client):
    coin_room("QQ 金币场")
    client.force_login(make_player("alice"))

    html = client.get(reverse("play-now")).content.decode()

    assert play_now_form(html) is None and "现在没有开放的新手积分场" in html


def test_a_seated_player_is_sent_back_to_their_table_instead(client):
    room = make_room("QQ 积分场")
    alice = make_player("alice")
    client.force_login(alice)
    client.post(reverse("room-quick-join", args=[room.pk]))

    html = client.get(reverse("play-now")).content.decode()

    assert play_now_form(html) is None
    assert f'href="{reverse("table", args=[Seat.objects.get(user=alice).table_id])}"' in html


def test_play_now_needs_a_login(client):
    response = client.get(reverse("play-now"))

    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_home_page_offers_play_now_until_the_players_first_game(client):
    room = make_room("QQ 积分场")
    alice = make_player("alice")

    assert play_now_form(client.get(reverse("home")).content.decode()) is None  # a visitor
    client.force_login(alice)
    assert play_now_form(client.get(reverse("home")).content.decode()) == reverse(
        "room-quick-join", args=[room.pk])
    start_game_with_bots(alice, room)
    assert play_now_form(client.get(reverse("home")).content.decode()) is None


def test_the_home_page_names_the_rule_sets_and_links_their_rules(client):
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()

    for code, name in (("qq", "QQ Games Huopin Shuangkou"),
                       ("tcy", "Tongchengyou two-player Huopin"),
                       ("jinyou", "Jinyou Baibian Shuangkou"), ("classic", "Classic Shuangkou")):
        assert f'<a href="{reverse("rules", args=[code])}">{name}</a>' in html
    assert "<code>qq</code>" not in html
