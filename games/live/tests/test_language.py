"""The table socket answers each connection in its own language (docs/i18n.md): the
``django_language`` cookie the header's switch sets, else Accept-Language, else the
site's default (简体中文). Real consumer, real Redis channel layer, real PostgreSQL."""

import re

import pytest
from channels.testing import WebsocketCommunicator
from django.utils import translation

from games.engine.game import Game, GameError
from games.engine.presets import PRESETS
from games.live.language import connection_language
from games.live.lobby import LobbyConsumer
from games.live.refusals import engine_message
from games.live.seating import room_quick_join
from games.testing.live_helpers import (
    TableClient,
    make_person,
    make_room,
    pump,
    run,
    start_game,
    two_unmatched_cards,
)

pytestmark = pytest.mark.django_db(transaction=True)

HAN = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")


async def refusal(client: TableClient, message: dict) -> dict:
    await client.send({**message, "ref": "lang"})
    error = await client.expect("error")
    assert error["ref"] == "lang"
    return error


def test_an_illegal_play_is_refused_in_each_connections_language():
    room = make_room()
    alice, bob = make_person("alice"), make_person("bob")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        english = TableClient(alice, table_id, language="en")
        default = TableClient(alice, table_id, language=None)  # a second tab, no cookie
        # No cookie, a Taiwanese browser: Accept-Language picks 繁體中文.
        taiwan = TableClient(bob, table_id, language=None)
        taiwan.communicator.scope["headers"] = [(b"accept-language", b"zh-TW,zh;q=0.9")]
        for client in (english, default, taiwan):
            await client.connect()
        await start_game([english, taiwan])
        await pump([english, taiwan], lambda: english.my_turn)
        await default.send({"type": "snapshot"})
        await default.expect("snapshot", lambda message: message["seq"] == english.seq)
        cards = two_unmatched_cards(english)
        play = {"type": "play", "cards": cards, "seq": english.seq}
        replies = [await refusal(english, play), await refusal(default, play),
                   await refusal(taiwan, play)]
        for client in (english, default, taiwan):
            await client.close()
        return replies, english.seat, taiwan.seat

    (in_english, in_default, in_taiwan), turn, bob_seat = run(scenario)
    assert re.fullmatch(r"\S+ \S+ is not a valid pattern", in_english["message"]), in_english
    assert not HAN.search(in_english["message"])
    assert re.fullmatch(r"\S+ \S+ 不是有效的牌型", in_default["message"]), in_default
    # Bob is not on turn; the seats are counted from 1, as the page counts them.
    assert in_taiwan["message"] == f"現在輪到 {turn + 1} 號座位出牌，不是 {bob_seat + 1} 號座位"


def test_the_reading_inside_a_refusal_is_translated_from_the_play_to_beat():
    game = Game.from_hands(PRESETS["qq"], ["9 9 BJ 3", "5 5 5 4", "4", "4"], 0,
                           auto_pass=False)
    game.play(0, "9 9 BJ")
    with pytest.raises(GameError) as caught:
        game.play(1, "5 5 5")
    message = engine_message(caught.value)

    with translation.override("en"):
        english = str(message)
    with translation.override("zh-hant"):
        traditional = str(message)
    with translation.override("zh-hans"):
        simplified = str(message)

    assert english == "5 5 5 does not beat triple of 9 (Big Joker as 9)"
    assert simplified == "5 5 5 大不过 三张 9（大王当9）"
    assert traditional == "5 5 5 大不過 三張 9（大王當9）"


@pytest.mark.parametrize(("scope", "language"), [
    ({"cookies": {"django_language": "en"}, "headers": []}, "en"),
    ({"cookies": {"django_language": "zh-hant"},
      "headers": [(b"accept-language", b"en")]}, "zh-hant"),  # the cookie wins
    ({"cookies": {}, "headers": [(b"accept-language", b"en-GB,en;q=0.8")]}, "en"),
    ({"headers": [(b"cookie", b"django_language=en")]}, "en"),  # no CookieMiddleware
    ({"cookies": {"django_language": "xx"}, "headers": []}, "zh-hans"),
    ({"cookies": {}, "headers": []}, "zh-hans"),
])
def test_a_connections_language_is_read_as_a_pages_is(scope, language):
    assert connection_language(scope) == language


def test_the_lobby_socket_sends_the_rooms_in_the_connections_language():
    make_room()
    user = make_person("alice")

    async def scenario():
        fragments = []
        for cookie in ("en", "zh-hant"):
            communicator = WebsocketCommunicator(LobbyConsumer.as_asgi(), "/ws/lobby/")
            communicator.scope["user"] = user
            communicator.scope["cookies"] = {"django_language": cookie}
            connected, _ = await communicator.connect()
            assert connected
            fragments.append(await communicator.receive_from(timeout=10))
            await communicator.disconnect()
        return fragments

    english, traditional = run(scenario)
    assert "Quick join" in english and "Points room" in english
    assert not HAN.search(re.sub(r"<[^>]+>", " ", english))
    assert "快速加入" in traditional and "積分場" in traditional
