"""The lobby sockets of a process share their refresh: one render of the rooms list per
language per window, the same text to every socket of that language."""

import asyncio
import logging
import threading

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.db import connection

from games.live import lobby
from games.live.broadcast import LOBBY_GROUP
from games.live.lobby import LobbyConsumer
from games.live.seating import room_quick_join
from games.testing.room_helpers import make_player, make_room, rooms_in

pytestmark = pytest.mark.django_db(transaction=True)


class Lobby:
    """Lobby sockets on one event loop, with what the test needs to see of them: the
    notifications they heard, the refresh windows opened (each held open until the test
    lets it close) and the renders of the rooms list, by language."""

    def __init__(self, monkeypatch):
        self.heard: list[dict] = []
        self.windows: list[asyncio.Event] = []
        self.renders: list[str] = []  # the language of each render, in order
        render = lobby.rooms_fragment
        listen = LobbyConsumer.lobby_changed

        async def held_open() -> None:
            self.windows.append(opened := asyncio.Event())
            await opened.wait()

        def counted_render(language=None):
            self.renders.append(language)
            return render(language)

        async def counted_listen(consumer, message):
            self.heard.append(message)
            await listen(consumer, message)

        monkeypatch.setattr(lobby, "refresh_window", held_open)
        monkeypatch.setattr(lobby, "rooms_fragment", counted_render)
        monkeypatch.setattr(LobbyConsumer, "lobby_changed", counted_listen)

    async def connect(self, user, language: str | None = None) -> WebsocketCommunicator:
        socket = WebsocketCommunicator(LobbyConsumer.as_asgi(), "/ws/lobby/")
        socket.scope["user"] = user
        if language is not None:
            socket.scope["cookies"] = {"django_language": language}
        connected, _ = await socket.connect()
        assert connected
        await socket.receive_from(timeout=10)  # the fresh list every connection gets
        return socket

    async def until(self, condition) -> None:
        async def waited() -> None:
            while not condition():
                await asyncio.sleep(0.01)

        await asyncio.wait_for(waited(), timeout=10)

    @staticmethod
    async def last_updates(sockets: list[WebsocketCommunicator]) -> list[str]:
        """The next message of each socket, then every socket closed."""
        updates = [await socket.receive_from(timeout=10) for socket in sockets]
        for socket in sockets:
            await socket.disconnect()
        return updates


def joined_elsewhere(user, room_id: int) -> None:
    """Sit ``user`` down off the process's database thread (the test holds that one)."""
    try:
        room_quick_join(user=user, room_id=room_id)
    finally:
        connection.close()


async def notify_lobby(room_id: int) -> None:
    """What seating sends after its commit, sent straight from the test."""
    await get_channel_layer().group_send(LOBBY_GROUP, {"type": "lobby.changed", "room": room_id})


def test_many_sockets_share_one_render_per_burst_and_get_the_same_list(monkeypatch):
    room = make_room("qq 积分")
    watchers = [make_player(f"watcher{number}") for number in range(5)]
    players = [make_player(f"p{number}") for number in range(3)]
    seen = Lobby(monkeypatch)

    async def scenario():
        sockets = [await seen.connect(watcher) for watcher in watchers]
        connect_renders = len(seen.renders)
        for player in players:
            await database_sync_to_async(room_quick_join)(user=player, room_id=room.pk)
        await seen.until(lambda: len(seen.heard) == len(sockets) * len(players))
        assert len(seen.windows) == 1  # the first notification opened it, for every socket
        seen.windows[0].set()
        return connect_renders, await seen.last_updates(sockets)

    connect_renders, updates = async_to_sync(scenario)()

    assert connect_renders == len(watchers)
    assert seen.renders[connect_renders:] == ["zh-hans"]  # one render for five sockets
    assert len(seen.windows) == 1
    assert len(set(updates)) == 1
    assert rooms_in(updates[0])[room.pk]["taken"] == len(players)


def test_each_language_is_rendered_once_and_sent_to_its_own_sockets(monkeypatch):
    room = make_room("qq 积分")
    languages = ["en", "zh-hant", "en", "zh-hant"]
    watchers = [make_player(f"watcher{number}") for number in range(len(languages))]
    bob = make_player("bob")
    seen = Lobby(monkeypatch)

    async def scenario():
        sockets = [await seen.connect(watcher, language)
                   for watcher, language in zip(watchers, languages)]
        connect_renders = len(seen.renders)
        await database_sync_to_async(room_quick_join)(user=bob, room_id=room.pk)
        await seen.until(lambda: len(seen.heard) == len(sockets))
        seen.windows[0].set()
        return connect_renders, await seen.last_updates(sockets)

    connect_renders, updates = async_to_sync(scenario)()

    assert sorted(seen.renders[connect_renders:]) == ["en", "zh-hant"]
    english = {update for update, language in zip(updates, languages) if language == "en"}
    traditional = {update for update, language in zip(updates, languages)
                   if language == "zh-hant"}
    assert len(english) == 1 and len(traditional) == 1
    assert "Quick join" in english.pop()
    fragment = traditional.pop()
    assert "快速加入" in fragment and rooms_in(fragment)[room.pk]["taken"] == 1


def test_a_change_announced_during_a_render_is_followed_by_another_render(monkeypatch):
    room = make_room("qq 积分")
    watchers = [make_player(f"watcher{number}") for number in range(2)]
    bob = make_player("bob")
    seen = Lobby(monkeypatch)
    counted_render = lobby.rooms_fragment
    rendering, finish = threading.Event(), threading.Event()
    held = []

    def slow_render(language=None):
        fragment = counted_render(language)  # read before bob sits
        if not held:  # only the first shared render waits, on the database thread
            held.append(language)
            rendering.set()
            finish.wait(timeout=10)
        return fragment

    async def scenario():
        sockets = [await seen.connect(watcher) for watcher in watchers]
        monkeypatch.setattr(lobby, "rooms_fragment", slow_render)
        try:
            await notify_lobby(room.pk)
            await seen.until(lambda: len(seen.heard) == len(sockets))
            seen.windows[0].set()
            await seen.until(rendering.is_set)
            heard_before = len(seen.heard)
            await sync_to_async(joined_elsewhere, thread_sensitive=False)(bob, room.pk)
            await seen.until(lambda: len(seen.heard) == heard_before + len(sockets))
        finally:
            finish.set()
        first = [await socket.receive_from(timeout=10) for socket in sockets]
        await seen.until(lambda: len(seen.windows) == 2)  # the next round is under way
        seen.windows[1].set()
        second = [await socket.receive_from(timeout=10) for socket in sockets]
        for socket in sockets:
            await socket.disconnect()
        return first, second

    first, second = async_to_sync(scenario)()

    assert seen.renders[len(watchers):] == ["zh-hans", "zh-hans"]
    assert [rooms_in(update)[room.pk]["taken"] for update in first] == [0, 0]
    assert [rooms_in(update)[room.pk]["taken"] for update in second] == [1, 1]


def test_a_failed_render_is_logged_and_the_next_change_renders_again(monkeypatch, caplog):
    room = make_room("qq 积分")
    watcher = make_player("watcher")
    bob = make_player("bob")
    seen = Lobby(monkeypatch)
    counted_render = lobby.rooms_fragment
    failures = []

    def failing_once(language=None):
        if not failures:
            failures.append(language)
            raise RuntimeError("the database went away")
        return counted_render(language)

    async def scenario():
        socket = await seen.connect(watcher)
        monkeypatch.setattr(lobby, "rooms_fragment", failing_once)
        await notify_lobby(room.pk)
        await seen.until(lambda: len(seen.windows) == 1)
        seen.windows[0].set()
        await seen.until(lambda: failures and "could not be rendered" in caplog.text)
        await database_sync_to_async(room_quick_join)(user=bob, room_id=room.pk)
        await seen.until(lambda: len(seen.windows) == 2)
        seen.windows[1].set()
        update = await socket.receive_from(timeout=10)
        await socket.disconnect()
        return update

    with caplog.at_level(logging.ERROR, logger="games.live.lobby_refresh"):
        update = async_to_sync(scenario)()

    assert failures == ["zh-hans"]
    assert rooms_in(update)[room.pk]["taken"] == 1
