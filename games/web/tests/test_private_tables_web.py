"""Private tables (好友房) over HTTP: the lobby's forms, the invite link, the
host's buttons on the table page, and the API, each refusal changing nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.live.private_tables import private_table_join, private_table_open
from games.live.seating import room_quick_join
from games.models import PrivateTable, Seat, Series
from games.testing.room_helpers import make_player, make_room

pytestmark = pytest.mark.django_db


def seats_now() -> list[tuple[int, int]]:
    return sorted(Seat.objects.filter(user__isnull=False).values_list("user_id", "table_id"))


def test_a_table_opened_from_the_lobby_shows_its_invite_to_its_players(client):
    room = make_room("friends")
    host = make_player("host")
    client.force_login(host)
    lobby = client.get(reverse("lobby")).content.decode()
    assert reverse("private-open") in lobby and reverse("private-join") in lobby
    response = client.post(reverse("private-open"), {"room": room.pk, "spectators": "1"})
    private = PrivateTable.objects.get(host=host)
    assert response.status_code == 302
    assert response.url == reverse("table", args=[private.table_id])
    page = client.get(response.url).content.decode()
    assert private.code in page and reverse("invite", args=[private.code]) in page


def test_the_invite_link_asks_first_and_seats_on_the_button(client):
    room = make_room("friends")
    private = private_table_open(host=make_player("host"), room_id=room.pk)
    amy = make_player("amy")
    client.force_login(amy)
    page = client.get(reverse("invite", args=[private.code.lower()]))
    assert page.status_code == 200 and "host" in page.content.decode()
    assert not Seat.objects.filter(user=amy).exists()  # a GET seats nobody
    response = client.post(reverse("invite", args=[private.code]))
    assert response.url == reverse("table", args=[private.table_id])
    assert Seat.objects.get(user=amy).table_id == private.table_id


def test_a_bad_code_is_refused_with_a_message_and_changes_nothing(client):
    amy = make_player("amy")
    client.force_login(amy)
    before = seats_now()
    response = client.post(reverse("private-join"), {"code": "NOPE42"}, follow=True)
    assert "没有这个邀请码" in response.content.decode()
    assert seats_now() == before
    response = client.post(reverse("private-open"), {"room": "x"}, follow=True)
    assert "请选择一个房间" in response.content.decode()
    assert not PrivateTable.objects.exists()


def test_the_host_panel_removes_fills_and_closes_and_others_cannot(client):
    room = make_room("friends")
    host, amy = make_player("host"), make_player("amy")
    private = private_table_open(host=host, room_id=room.pk)
    private_table_join(user=amy, code=private.code)
    action = lambda name: reverse("private-host-action", args=[private.table_id, name])  # noqa: E731
    client.force_login(amy)
    page = client.get(reverse("table", args=[private.table_id])).content.decode()
    assert action("close") not in page  # not the host: no buttons
    response = client.post(action("close"), follow=True)
    assert "只有房主可以这样做" in response.content.decode()
    assert PrivateTable.objects.get(pk=private.pk).closed_at is None
    client.force_login(host)
    page = client.get(reverse("table", args=[private.table_id])).content.decode()
    assert action("close") in page and action("fill-bots") in page
    client.post(action("remove"), {"user": amy.pk})
    assert not Seat.objects.filter(user=amy).exists()
    client.post(action("close"))
    assert PrivateTable.objects.get(pk=private.pk).closed_at is not None
    assert not Seat.objects.filter(table_id=private.table_id, user__isnull=False).exists()


def test_a_table_without_spectators_sends_outsiders_back_to_the_lobby(client):
    room = make_room("friends")
    private = private_table_open(host=make_player("host"), room_id=room.pk, spectators=False)
    client.force_login(make_player("outsider"))
    response = client.get(reverse("table", args=[private.table_id]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("lobby")
    assert "这张好友房不允许旁观" in response.content.decode()


def test_the_api_opens_joins_describes_and_closes(client):
    room = make_room("friends")
    host, amy, outsider = make_player("host"), make_player("amy"), make_player("outsider")
    client.force_login(host)
    opened = client.post(reverse("api-private-open"), {"room": room.pk, "spectators": False},
                         content_type="application/json")
    assert opened.status_code == 201
    body = opened.json()
    assert body["code"] and body["spectators"] is False and body["series"] is None
    table = body["table"]
    client.force_login(amy)
    bad = client.post(reverse("api-private-join"), {"code": "ZZZZZZ"},
                      content_type="application/json")
    assert bad.status_code == 400 and bad.json()["code"] == "invite_unknown"
    joined = client.post(reverse("api-private-join"), {"code": body["code"]},
                         content_type="application/json")
    assert joined.status_code == 200 and joined.json()["table"] == table
    refused = client.post(reverse("api-private-close", args=[table]))
    assert refused.status_code == 400 and refused.json()["code"] == "not_host"
    client.force_login(outsider)
    # Spectators are off: an outsider reads nothing of it (test_private_visibility.py).
    assert client.get(reverse("api-private-table", args=[table])).status_code == 403
    client.force_login(host)
    closed = client.post(reverse("api-private-close", args=[table]))
    assert closed.status_code == 200 and closed.json()["closed"] is True
    assert not Series.objects.exists()  # no game was played
    assert client.get(reverse("api-private-table", args=[room_quick_join(
        user=outsider, room_id=room.pk).table_id])).status_code == 404


def test_the_private_table_endpoints_are_in_the_schema(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    for path in ("/games/api/private-tables", "/games/api/private-tables/join",
                 "/games/api/private-tables/{table_id}/close"):
        assert any(documented.endswith(path.removeprefix("/games")) for documented in
                   schema["paths"]), path
