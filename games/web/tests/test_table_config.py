"""What the table page's ``config`` gives its script beyond the table (docs/protocol.md,
"The table page's config"): the room's terms, the viewer's coins and the quick-chat
phrases in the page's language."""

import uuid

import pytest
from django.urls import reverse

from games.live.quick_chat import PHRASES
from games.live.seating import room_quick_join, table_ready
from games.rule_set_names import rule_set_name
from games.testing.html_helpers import json_block
from games.testing.live_helpers import make_coin_room, make_person, make_room
from ledger.models import Currency
from ledger.services import adjust_balance, grant_coins

pytestmark = pytest.mark.django_db


def config_of(client, table_id: int, language: str | None = None) -> dict:
    if language:
        client.cookies["django_language"] = language
    return json_block(client.get(reverse("table", args=[table_id])).content.decode(),
                      "table-config")


def test_a_coin_room_table_gives_its_terms_and_the_players_frozen_coins_during_a_game(client):
    room = make_coin_room(coefficient=200, fee=30, min_coins=2000, max_loss=40_000)
    alice = make_person("alice")
    grant_coins(user=alice, amount=100_000, key=f"grant:test:{uuid.uuid4()}")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id
    client.force_login(alice)

    waiting = config_of(client, table_id)
    table_ready(user=alice)  # bots fill the table; the game starts and freezes the stake
    playing = config_of(client, table_id)

    assert waiting["room"] == {
        "kind": "coins", "coins": True, "turn_seconds": room.turn_seconds,
        "escape_mode": room.escape_mode, "base_unit": 200, "fee": 30, "stake": 40_000,
        "fee_percent": 0, "coin_cap": 0, "level_ladder": False,
        "ruleset": "qq", "ruleset_name": rule_set_name("qq", room.rule_set.label)}
    assert waiting["room"]["ruleset_name"] != "qq"  # the name players know, not the code
    assert waiting["wallet"] == {"balance": 100_000, "frozen": 0}
    assert playing["wallet"] == {"balance": 60_000, "frozen": 40_000}


def test_a_points_room_has_no_fee_or_stake_and_a_spectator_gets_their_own_wallet(client):
    room = make_room(stake_unit=5)
    table_id = room_quick_join(user=make_person("bob"), room_id=room.pk).table_id
    carol = make_person("carol")
    grant_coins(user=carol, amount=1234, key=f"grant:test:{uuid.uuid4()}")
    client.force_login(carol)

    config = config_of(client, table_id)

    assert config["room"]["kind"] == "points" and config["room"]["coins"] is False
    assert (config["room"]["base_unit"], config["room"]["fee"], config["room"]["stake"]) == \
        (5, 0, 0)
    assert config["wallet"] == {"balance": 1234, "frozen": 0}


def test_a_classic_coin_room_gives_its_fee_percent_cap_and_ladder_titles(client):
    # classic (RULES §9): 10 % of each winner's gain, not A; coins count ×5 at most; its
    # own ladder's titles, and the 等级倍率 of the seated players (the fewest points).
    room = make_coin_room(rule_set="classic", coefficient=200, fee=0, min_coins=2000,
                          max_loss=40_000)
    alice, bob = make_person("alice"), make_person("bob")
    for user, points in ((alice, 2500), (bob, 70_000)):
        grant_coins(user=user, amount=100_000, key=f"grant:test:{uuid.uuid4()}")
        adjust_balance(user=user, currency=Currency.POINT, amount=points, reason="test",
                       key=f"adjust:test:{uuid.uuid4()}")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id
    room_quick_join(user=bob, room_id=room.pk)
    client.force_login(alice)

    config = config_of(client, table_id, "zh-hans")

    assert (config["room"]["fee"], config["room"]["fee_percent"], config["room"]["coin_cap"],
            config["room"]["level_ladder"]) == (0, 10, 5, True)
    assert config["titles"]["1"] == "流浪汉" and config["titles"]["20"] == "皇帝"
    seats = {seat["user"]: seat["level"] for seat in config["table_state"]["seats"]}
    assert config["titles"][str(seats[alice.pk])] == "猎人"  # 2000 ≤ 2500
    assert config["titles"][str(seats[bob.pk])] == "知州"  # 70000
    assert config["table_state"]["level_multiplier"] == 3  # alice's 猎人: ×3
    english = config_of(client, table_id, "en")
    assert english["titles"][str(seats[bob.pk])] == "Sub-prefect"


@pytest.mark.parametrize(("language", "hurry"), [
    ("zh-hans", "快点吧，等得花都谢了"), ("zh-hant", "快點吧，等得花都謝了"),
    ("en", "Hurry up, the flowers are wilting")])
def test_the_chat_phrases_come_in_the_pages_language(client, language, hurry):
    room = make_room()
    table_id = room_quick_join(user=make_person("bob"), room_id=room.pk).table_id
    client.force_login(make_person("carol"))

    chat = config_of(client, table_id, language)["chat"]

    assert [entry["id"] for entry in chat] == [phrase.id for phrase in PHRASES]
    assert chat[0] == {"id": "hurry", "text": hurry, "emote": False}
    assert {entry["id"] for entry in chat if entry["emote"]} == {
        phrase.id for phrase in PHRASES if phrase.id.startswith("emote_")}
