"""What a private table's players read as it changes, and what an invite link tells
whoever follows it: the panel the table page reloads (the host's 移除 for a friend who
just sat, the series, a removed player's and a closed table's states), the invite page
for an expired or closed code and for a visitor, and the visitor's lobby."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from games.live.private_tables import (
    private_table_close,
    private_table_join,
    private_table_open,
    private_table_remove,
)
from games.live.seating import room_quick_join
from games.models import PrivateTable, Seat
from games.testing.room_helpers import make_player, make_room

pytestmark = pytest.mark.django_db


def panel(client, private: PrivateTable) -> str:
    response = client.get(reverse("private-panel", args=[private.table_id]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def table():
    room = make_room("friends")
    host, amy = make_player("host"), make_player("amy")
    return room, host, amy, private_table_open(host=host, room_id=room.pk)


def test_the_panel_gives_the_host_a_remove_button_for_a_friend_who_just_sat(client, table):
    _room, host, amy, private = table
    client.force_login(host)
    assert f'data-remove="{amy.pk}"' not in panel(client, private)
    private_table_join(user=amy, code=private.code)
    html = panel(client, private)
    assert f'data-remove="{amy.pk}"' in html and "移除 amy" in html
    assert private.code in html and 'data-closed="false"' in html


def test_the_table_page_tells_its_script_where_the_panel_is(client, table):
    _room, host, _amy, private = table
    client.force_login(host)
    page = client.get(reverse("table", args=[private.table_id])).content.decode()
    assert f'"private_panel": "{reverse("private-panel", args=[private.table_id])}"' in page
    assert 'id="private-panel"' in page


def test_a_removed_player_no_longer_reads_the_code(client, table):
    _room, host, amy, private = table
    private_table_join(user=amy, code=private.code)
    client.force_login(amy)
    assert private.code in panel(client, private)
    private_table_remove(host=host, table_id=private.table_id, user_id=amy.pk)
    html = panel(client, private)
    assert private.code not in html and "data-remove" not in html


def test_a_removed_player_at_a_table_without_spectators_reads_only_that_they_are_out(client):
    room = make_room("friends")
    host, amy = make_player("host"), make_player("amy")
    private = private_table_open(host=host, room_id=room.pk, spectators=False)
    private_table_join(user=amy, code=private.code)
    private_table_remove(host=host, table_id=private.table_id, user_id=amy.pk)
    client.force_login(amy)
    html = panel(client, private)
    assert "你已不在这张好友房" in html
    assert private.code not in html and "host" not in html.replace("private-host", "")


def test_a_closed_table_says_so_and_offers_no_code_nor_buttons(client, table):
    _room, host, amy, private = table
    private_table_join(user=amy, code=private.code)
    private_table_close(host=host, table_id=private.table_id)
    for viewer in (amy, host):
        client.force_login(viewer)
        html = panel(client, private)
        assert 'data-closed="true"' in html and "房主已关闭这张好友房" in html
        assert private.code not in html and "<button" not in html
        page = client.get(reverse("table", args=[private.table_id])).content.decode()
        assert private.code not in page


def test_the_panel_is_a_private_tables_only_and_needs_a_login(client, table):
    _room, _host, _amy, private = table
    response = client.get(reverse("private-panel", args=[private.table_id]))
    assert response.status_code == 302 and reverse("login") in response.url
    bob = make_player("bob")
    public = room_quick_join(user=bob, room_id=make_room("public").pk)
    client.force_login(bob)
    assert client.get(reverse("private-panel", args=[public.table_id])).status_code == 404


# --- the invite page ------------------------------------------------------------------------

def test_an_expired_invite_says_so_and_offers_no_seat(client, table):
    _room, _host, amy, private = table
    PrivateTable.objects.filter(pk=private.pk).update(
        expires_at=timezone.now() - timedelta(minutes=1))
    client.force_login(amy)
    response = client.get(reverse("invite", args=[private.code]))
    html = response.content.decode()
    assert response.status_code == 404
    assert "这个邀请码已过期" in html and 'data-invite="invite_expired"' in html
    assert "入座" not in html and "邀请你" not in html and "host" not in html.split("<main")[-1]
    response = client.post(reverse("invite", args=[private.code]), follow=True)
    assert "这个邀请码已过期" in response.content.decode()
    assert not Seat.objects.filter(user=amy).exists()


def test_a_closed_tables_invite_says_so(client, table):
    _room, host, amy, private = table
    private_table_close(host=host, table_id=private.table_id)
    client.force_login(amy)
    html = client.get(reverse("invite", args=[private.code])).content.decode()
    assert "这张好友房已经关闭" in html and "入座" not in html


def test_a_visitor_learns_an_invitation_waits_and_the_ways_in_that_come_back(client, table):
    _room, _host, _amy, private = table
    here = reverse("invite", args=[private.code])
    response = client.get(here)
    html = response.content.decode()
    assert response.status_code == 200
    assert "你收到了一个好友房邀请" in html
    assert "host" not in html.split("<main")[-1] and "friends" not in html  # names nobody
    assert f'{reverse("login")}?next={here.replace("/", "%2F")}' in html
    assert f'{reverse("signup")}?next={here.replace("/", "%2F")}' in html
    assert "<button" not in html.split("<main")[-1]  # no seat for a visitor
    # A visitor's post seats nobody: it leads to the login, and back here.
    response = client.post(here)
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert Seat.objects.filter(user__isnull=False).count() == 1  # the host


def test_the_docs_give_the_invite_path_the_site_serves(table):
    docs = [settings.BASE_DIR / "README.md", *sorted((settings.BASE_DIR / "docs").glob("*.md"))]
    texts = {path.name: path.read_text("utf-8") for path in docs}
    assert [name for name, text in texts.items() if "/games/invite/" in text] == []
    assert "`/invite/<code>/`" in texts["features.md"]
    assert reverse("invite", args=["ABCDEF"]) == "/invite/ABCDEF/"


# --- the visitor's lobby -----------------------------------------------------------------------

def test_a_visitor_sees_the_rooms_tables_and_games_and_the_ways_in(client):
    room = make_room("开放积分场")
    bob = make_player("bob")
    seat = room_quick_join(user=bob, room_id=room.pk)
    response = client.get(reverse("lobby"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "开放积分场" in html and "bob" in html
    assert f'id="lobby-table-{seat.table_id}"' in html
    assert 'ws-connect="/ws/lobby/"' in html
    assert re.search(r'href="/accounts/signup/\?next=%2Flobby%2F"', html)
    assert re.search(r'href="/accounts/login/\?next=%2Flobby%2F"', html)
    assert reverse("private-open") not in html  # the private tables' forms are a player's


def test_a_visitors_quick_join_leads_to_the_login_and_seats_nobody(client):
    room = make_room("开放积分场")
    response = client.post(reverse("room-quick-join", args=[room.pk]))
    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next=%2Flobby%2F"
    assert not Seat.objects.filter(user__isnull=False).exists()
