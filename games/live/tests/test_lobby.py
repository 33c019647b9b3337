"""The lobby page, quick join, the minimal table page and the lobby socket."""

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from games.live.lobby import LobbyConsumer
from games.live.routing import websocket_urlpatterns
from games.live.seating import room_quick_join
from games.models import Seat, Table
from games.testing.room_helpers import coin_room, make_player, make_room, rooms_in

pytestmark = pytest.mark.django_db


def messages_of(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


# --- the lobby page -----------------------------------------------------------------------

def test_the_lobby_is_open_to_visitors_with_the_ways_in(client):
    response = client.get(reverse("lobby"))

    assert response.status_code == 200
    html = response.content.decode()
    assert reverse("signup") in html and reverse("login") in html


def test_the_lobby_lists_open_rooms_with_the_seats_taken(client):
    qq = make_room("qq 积分")
    tcy = make_room("tcy 积分", "tcy")
    make_room("closed room", is_open=False)
    for name in ("bob", "carol"):
        room_quick_join(user=make_player(name), room_id=qq.pk)
    client.force_login(make_player("alice"))

    response = client.get(reverse("lobby"))

    html = response.content.decode()
    assert response.status_code == 200
    assert rooms_in(html) == {qq.pk: {"taken": 2, "playing": 0},
                              tcy.pk: {"taken": 0, "playing": 0}}
    assert "closed room" not in html
    assert 'hx-ext="ws"' in html and 'ws-connect="/ws/lobby/"' in html
    assert 'id="lobby-rooms"' in html and 'hx-swap-oob="true"' in html
    assert "hx-ws-2" in html  # the WebSocket extension is served with htmx


def test_the_lobby_shows_stake_settings_and_the_tables_playing(client):
    room = coin_room("qq 金币 百倍")
    client.force_login(make_player("alice", coins=5000))
    start = client.post(reverse("room-quick-join", args=[room.pk]))
    assert start.status_code == 302
    client.post(reverse("table-ready", args=[Table.objects.get().pk]))  # bots fill, it starts

    html = client.get(reverse("lobby")).content.decode()

    assert rooms_in(html)[room.pk] == {"taken": 4, "playing": 1}
    assert "N=100" in html and "A=10" in html and "1000" in html


def test_the_lobby_links_a_seated_player_back_to_their_table(client):
    alice = make_player("alice")
    seat = room_quick_join(user=alice, room_id=make_room("qq 积分").pk)
    client.force_login(alice)

    html = client.get(reverse("lobby")).content.decode()

    assert reverse("table", args=[seat.table_id]) in html


# --- quick join ---------------------------------------------------------------------------

def test_quick_join_seats_the_player_and_redirects_to_the_table(client):
    room = make_room("qq 积分")
    alice = make_player("alice")
    client.force_login(alice)

    response = client.post(reverse("room-quick-join", args=[room.pk]))

    seat = Seat.objects.get(user=alice)
    assert seat.table.room_id == room.pk
    assert response.status_code == 302
    assert response["Location"] == f"/tables/{seat.table_id}/"
    page = client.get(response["Location"])
    assert page.status_code == 200 and "alice" in page.content.decode()


def test_quick_join_with_too_few_coins_shows_the_message_and_seats_nobody(client):
    room = coin_room(min_coins=1000)
    client.force_login(make_player("alice", coins=999))

    response = client.post(reverse("room-quick-join", args=[room.pk]), follow=True)

    assert response.redirect_chain == [(reverse("lobby"), 302)]
    assert response.status_code == 200
    # In the site's default language (the page has no other selected).
    assert any("至少要有 1000 游戏币" in message for message in messages_of(response))
    assert "至少要有 1000 游戏币" in response.content.decode()
    assert not Seat.objects.filter(user__isnull=False).exists()


def test_quick_join_while_seated_elsewhere_shows_the_message(client):
    alice = make_player("alice")
    first = room_quick_join(user=alice, room_id=make_room("qq 积分").pk)
    other = make_room("jinyou 积分", "jinyou")
    client.force_login(alice)

    response = client.post(reverse("room-quick-join", args=[other.pk]), follow=True)

    assert any("已在" in message and "就座" in message for message in messages_of(response))
    assert Seat.objects.get(user=alice).pk == first.pk


def test_quick_join_of_a_closed_room_shows_the_message(client):
    room = make_room("closed", is_open=False)
    client.force_login(make_player("alice"))

    response = client.post(reverse("room-quick-join", args=[room.pk]), follow=True)

    assert response.status_code == 200
    assert any("已关闭" in message for message in messages_of(response))


def test_quick_join_from_a_live_fragment_tells_htmx_to_load_the_table(client):
    room = make_room("qq 积分")
    alice = make_player("alice")
    client.force_login(alice)

    response = client.post(reverse("room-quick-join", args=[room.pk]), HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    assert response["HX-Redirect"] == f"/tables/{Seat.objects.get(user=alice).table_id}/"


def test_quick_join_is_post_only(client):
    room = make_room("qq 积分")
    client.force_login(make_player("alice"))

    assert client.get(reverse("room-quick-join", args=[room.pk])).status_code == 405
    assert not Seat.objects.filter(user__isnull=False).exists()


# --- the table page -----------------------------------------------------------------------

def test_ready_and_stand_from_the_table_page(client):
    room = make_room("no bots", bots_allowed=False)
    alice = make_player("alice")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id
    client.force_login(alice)
    assert "准备" in client.get(reverse("table", args=[table_id])).content.decode()

    ready = client.post(reverse("table-ready", args=[table_id]))

    assert ready.status_code == 302 and ready["Location"] == f"/tables/{table_id}/"
    assert Seat.objects.get(user=alice).is_ready
    assert "已准备" in client.get(ready["Location"]).content.decode()

    client.post(reverse("table-ready", args=[table_id]), {"ready": "0"})
    assert not Seat.objects.get(user=alice).is_ready

    stand = client.post(reverse("table-stand", args=[table_id]))

    assert stand.status_code == 302 and stand["Location"] == reverse("lobby")
    assert not Seat.objects.filter(user=alice).exists()


def test_standing_during_a_game_shows_the_message_and_keeps_the_seat(client):
    room = make_room("qq 积分")
    alice = make_player("alice")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id
    client.force_login(alice)
    client.post(reverse("table-ready", args=[table_id]))  # bots fill, the game starts
    assert Table.objects.get(pk=table_id).status == Table.Status.PLAYING

    response = client.post(reverse("table-stand", args=[table_id]), follow=True)

    assert any("逃跑" in message for message in messages_of(response))
    assert Seat.objects.filter(user=alice, table_id=table_id).exists()


def test_buttons_of_a_table_you_do_not_sit_at_are_refused(client):
    room = make_room("no bots", bots_allowed=False)
    bob = make_player("bob")
    table_id = room_quick_join(user=bob, room_id=room.pk).table_id
    client.force_login(make_player("alice"))

    response = client.post(reverse("table-ready", args=[table_id]), follow=True)

    assert any("没有在这张牌桌就座" in message for message in messages_of(response))
    assert not Seat.objects.get(user=bob).is_ready


def test_an_unknown_table_is_404(client):
    client.force_login(make_player("alice"))

    assert client.get(reverse("table", args=[999999])).status_code == 404


# --- the lobby socket ---------------------------------------------------------------------

def lobby_socket(user) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    communicator.scope["user"] = user
    return communicator


@pytest.mark.django_db(transaction=True)
def test_the_lobby_socket_sends_the_rooms_fragment_when_someone_sits():
    room = make_room("qq 积分")
    watcher = make_player("watcher")
    bob = make_player("bob")

    async def scenario():
        communicator = lobby_socket(watcher)
        connected, _ = await communicator.connect()
        assert connected
        first = await communicator.receive_from(timeout=5)
        await database_sync_to_async(room_quick_join)(user=bob, room_id=room.pk)
        update = await communicator.receive_from(timeout=5)
        await communicator.disconnect()
        return first, update

    first, update = async_to_sync(scenario)()

    assert rooms_in(first)[room.pk]["taken"] == 0
    assert update.lstrip().startswith("<div")
    assert 'id="lobby-rooms"' in update and 'hx-swap-oob="true"' in update
    assert rooms_in(update)[room.pk]["taken"] == 1


@pytest.mark.django_db(transaction=True)
def test_the_lobby_socket_sends_one_fragment_for_a_burst_of_changes(monkeypatch):
    room = make_room("qq 积分")
    watcher = make_player("watcher")
    players = [make_player(f"p{number}") for number in range(3)]
    heard: list[dict] = []  # the notifications that reached the socket
    windows: list[asyncio.Event] = []  # one per refresh the socket scheduled
    listen = LobbyConsumer.lobby_changed

    async def counted(consumer, message):
        heard.append(message)
        await listen(consumer, message)

    monkeypatch.setattr(LobbyConsumer, "lobby_changed", counted)

    async def scenario():
        async def held_open() -> None:
            # The window stays open until the whole burst has reached the socket, however
            # slow the machine: no race between the window and the joins.
            windows.append(opened := asyncio.Event())
            await opened.wait()

        monkeypatch.setattr("games.live.lobby.refresh_window", held_open)
        communicator = lobby_socket(watcher)
        await communicator.connect()
        await communicator.receive_from(timeout=5)
        for player in players:
            await database_sync_to_async(room_quick_join)(user=player, room_id=room.pk)

        async def burst_heard() -> None:
            while len(heard) < len(players):
                await asyncio.sleep(0.01)

        await asyncio.wait_for(burst_heard(), timeout=10)
        assert len(windows) == 1  # the first change opened it, the others joined it
        windows[0].set()
        update = await communicator.receive_from(timeout=5)
        quiet = await communicator.receive_nothing(timeout=0.3)
        await communicator.disconnect()
        return update, quiet

    update, quiet = async_to_sync(scenario)()

    assert rooms_in(update)[room.pk]["taken"] == 3
    assert quiet and len(windows) == 1


@pytest.mark.django_db(transaction=True)
def test_the_lobby_socket_shows_visitors_the_rooms_too():
    """The visitor's lobby is live as well: the fragment is the same for every reader."""
    room = make_room("qq 积分")

    async def scenario():
        communicator = lobby_socket(AnonymousUser())
        connected, _code = await communicator.connect()
        first = await communicator.receive_from(timeout=5)
        await communicator.disconnect()
        return connected, first

    connected, first = async_to_sync(scenario)()

    assert connected and room.pk in rooms_in(first)

