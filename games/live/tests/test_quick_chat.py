"""Quick chat at a table (docs/protocol.md, "chat"; games.live.quick_chat): a seated
player's phrase reaches every socket of the table, spectators included; unknown
phrases, spectators and players over the limit are refused and nothing is sent."""

import time

import pytest
from django.utils import translation

from common.testing.threads import run_threads
from games.errors import ActionError
from games.live import quick_chat
from games.live.seating import room_quick_join
from games.testing.live_helpers import TableClient, make_person, make_room, run

pytestmark = pytest.mark.django_db(transaction=True)


def seated_and_watching():
    room = make_room(bots_allowed=False)
    alice, carol = make_person("alice"), make_person("carol")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id
    return alice, carol, table_id


def test_a_seated_players_phrase_reaches_every_socket_of_the_table_spectators_too():
    alice, carol, table_id = seated_and_watching()

    async def scenario():
        a, c = TableClient(alice, table_id), TableClient(carol, table_id)
        await a.connect()
        await c.connect()
        await a.drain()
        await c.drain()
        await a.send({"type": "chat", "phrase": "nice_play"})
        heard = [await a.expect("chat"), await c.expect("chat")]
        await a.send({"type": "chat", "phrase": "emote_flower"})
        flower = await c.expect("chat")
        for client in (a, c):
            await client.close()
        return heard, flower, a.errors + c.errors

    heard, flower, errors = run(scenario)
    expected = {"type": "chat", "seat": 0, "user": alice.pk, "phrase": "nice_play"}
    assert heard == [expected, expected]
    assert flower["phrase"] == "emote_flower" and flower["seat"] == 0
    assert errors == []


def test_unknown_phrases_and_spectators_are_refused_and_nobody_hears_anything():
    alice, carol, table_id = seated_and_watching()

    async def scenario():
        a, c = TableClient(alice, table_id), TableClient(carol, table_id)
        await a.connect()
        await c.connect()
        await a.drain()
        await c.drain()
        await a.send({"type": "chat", "phrase": "you are all terrible", "ref": 1})
        unknown = await a.expect("error")
        await a.send({"type": "chat", "phrase": ["hurry"], "ref": 2})
        not_text = await a.expect("error")
        await c.send({"type": "chat", "phrase": "hurry", "ref": 3})
        spectator = await c.expect("error")
        quiet = await a.silent() and await c.silent()
        for client in (a, c):
            await client.close()
        return unknown, not_text, spectator, quiet, a.log + c.log

    unknown, not_text, spectator, quiet, log = run(scenario)
    assert unknown == {"type": "error", "code": "chat_unknown", "ref": 1,
                       "message": "no such quick-chat phrase"}
    assert not_text["code"] == "chat_unknown" and not_text["ref"] == 2
    assert spectator == {"type": "error", "code": "chat_not_seated", "ref": 3,
                         "message": "spectators cannot chat: sit down first"}
    assert quiet
    assert not any(message["type"] == "chat" for message in log)


def test_a_player_over_the_limit_is_refused_until_the_window_has_moved_on(settings,
                                                                           monkeypatch):
    settings.GAMES_CHAT_BURST = 2
    settings.GAMES_CHAT_WINDOW_SECONDS = 10
    now = [time.time()]
    monkeypatch.setattr(quick_chat, "clock", lambda: now[0])
    alice, carol, table_id = seated_and_watching()

    async def scenario():
        a, c = TableClient(alice, table_id), TableClient(carol, table_id)
        await a.connect()
        await c.connect()
        await a.drain()
        await c.drain()
        for phrase in ("hurry", "thanks"):  # at 0 s and 5 s
            await a.send({"type": "chat", "phrase": phrase})
            await c.expect("chat")
            now[0] += 5
        now[0] -= 1  # 9 s: both still inside the window
        await a.send({"type": "chat", "phrase": "sorry", "ref": "third"})
        refused = await a.expect("error")
        spectator_quiet = await c.silent()
        now[0] += 1.5  # 10.5 s: the first phrase has left the window, the second has not
        await a.send({"type": "chat", "phrase": "again"})
        allowed = await c.expect("chat")
        await a.send({"type": "chat", "phrase": "good_luck", "ref": "fourth"})
        refused_again = await a.expect("error")
        for client in (a, c):
            await client.close()
        return refused, spectator_quiet, allowed, refused_again

    refused, spectator_quiet, allowed, refused_again = run(scenario)
    assert refused == {"type": "error", "code": "chat_rate", "ref": "third",
                       "message": "too many chat messages: at most 2 in 10 seconds"}
    assert spectator_quiet
    assert allowed["phrase"] == "again"
    assert refused_again["code"] == "chat_rate"


def test_every_phrase_has_a_stable_id_and_a_text_in_each_language():
    ids = [phrase.id for phrase in quick_chat.PHRASES]
    assert len(ids) == len(set(ids))
    assert {"hurry", "nice_play", "well_played", "sorry", "thanks", "good_luck", "again",
            "emote_smile", "emote_cry", "emote_angry", "emote_thumbs",
            "emote_flower"} <= set(ids)
    texts = {}
    for language in ("zh-hans", "zh-hant", "en"):
        with translation.override(language):
            texts[language] = quick_chat.chat_config()
    for language, entries in texts.items():
        assert [entry["id"] for entry in entries] == ids
        assert all(entry["text"] for entry in entries), language
    for zh, en in zip(texts["zh-hans"], texts["en"]):
        assert zh["text"] != en["text"] and en["text"].isascii(), en
        assert en["emote"] is en["id"].startswith("emote_")


# --- the limit under concurrency -----------------------------------------------------------

TAKERS = 16


def turns_taken_at_once(user_id: int) -> int:
    """``TAKERS`` threads, released together, each take a chat turn for ``user_id``
    (each on a connection of its own from the cache's pool, as sockets on different
    processes would be); how many were let through."""
    def take(_index: int) -> bool:
        try:
            quick_chat.take_chat_turn(user_id)
        except ActionError as error:
            assert error.code == "chat_rate"
            return False
        return True

    results = run_threads(TAKERS, take)
    assert all(isinstance(result, bool) for result in results), results
    return sum(results)


def test_sixteen_phrases_at_once_let_exactly_the_burst_through_in_each_window(settings,
                                                                               monkeypatch):
    settings.GAMES_CHAT_BURST = 3
    settings.GAMES_CHAT_WINDOW_SECONDS = 10
    now = [time.time()]
    monkeypatch.setattr(quick_chat, "clock", lambda: now[0])
    user_id = make_person("alice").pk

    passed = []
    for _window in range(8):
        passed.append(turns_taken_at_once(user_id))
        now[0] += 10  # the window has moved past every phrase of this round

    assert passed == [3] * 8


def test_the_limit_holds_at_once_with_the_in_process_cache_of_make_run(settings,
                                                                        monkeypatch):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "quick-chat-test"}}
    settings.GAMES_CHAT_BURST = 3
    settings.GAMES_CHAT_WINDOW_SECONDS = 10
    now = [time.time()]
    monkeypatch.setattr(quick_chat, "clock", lambda: now[0])
    user_id = make_person("alice").pk

    passed = []
    for _window in range(4):
        passed.append(turns_taken_at_once(user_id))
        now[0] += 10

    assert passed == [3] * 4
