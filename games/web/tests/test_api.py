"""The games API: open rooms, a game as each requester may see it, finished games' logs."""

import json
import re

import pytest
from django.urls import reverse

from games.engine.game import Game
from games.live.lifecycle.act import game_act
from games.live.seating import room_quick_join
from games.live.snapshots import engine_snapshot
from games.models import GameEvent, GameRecord
from games.testing.room_helpers import coin_room, make_player, make_room, start_game_with_bots

pytestmark = pytest.mark.django_db

CARD_CODE = re.compile(r'"((?:[2-9TJQKA][SHCD]|SJ|BJ)[01])"')


def cards_in(payload) -> set[str]:
    """Every card code anywhere in a JSON payload."""
    return set(CARD_CODE.findall(json.dumps(payload)))


def hidden_cards(record: GameRecord, *, but_seat: int | None = None) -> set[str]:
    """The cards in hands no one may see: all hands (but one seat's), less the 明牌
    card and its twin, which were shown to the table (RULES §2)."""
    game = engine_snapshot(record)
    revealed = game.revealed or {}
    public = {revealed.get("card"), revealed.get("twin")}
    return {code for seat, hand in enumerate(game.hands) if seat != but_seat
            for code in hand} - public


# --- rooms --------------------------------------------------------------------------------

def test_rooms_lists_the_open_rooms_with_the_seats_taken(client):
    qq = make_room("qq 积分")
    tcy = coin_room("tcy 金币", "tcy", coefficient=1, fee=5, min_coins=1000, max_loss=10000)
    make_room("closed", is_open=False)
    room_quick_join(user=make_player("alice"), room_id=qq.pk)

    response = client.get("/api/rooms")

    assert response.status_code == 200
    rooms = {room["name"]: room for room in response.json()}
    assert set(rooms) == {"qq 积分", "tcy 金币"}
    assert {key: rooms["qq 积分"][key] for key in
            ("id", "rule_set", "kind", "seats_per_table", "seats_taken", "tables", "playing")} \
        == {"id": qq.pk, "rule_set": "qq", "kind": "points", "seats_per_table": 4,
            "seats_taken": 1, "tables": 1, "playing": 0}
    assert {key: rooms["tcy 金币"][key] for key in
            ("id", "kind", "seats_per_table", "coefficient", "fee", "min_coins", "max_loss",
             "seats_taken")} \
        == {"id": tcy.pk, "kind": "coins", "seats_per_table": 2, "coefficient": 1, "fee": 5,
            "min_coins": 1000, "max_loss": 10000, "seats_taken": 0}


# --- a game -------------------------------------------------------------------------------

def test_a_seated_player_sees_their_own_hand_and_no_other(client):
    alice = make_player("alice")
    record = start_game_with_bots(alice, make_room("qq 积分"))
    hands = engine_snapshot(record).hands
    seat = record.players.index(alice.pk)
    others = hidden_cards(record, but_seat=seat)
    client.force_login(alice)

    response = client.get(f"/api/games/{record.pk}")

    game = response.json()
    assert response.status_code == 200
    assert game["id"] == record.pk and game["status"] == "playing"
    assert game["seat"] == seat
    assert sorted(game["hand"]) == sorted(hands[seat]) and game["hand"]
    assert game["hand_counts"] == [len(hand) for hand in hands]
    assert set(hands[seat]) <= cards_in(game)  # cards_in sees cards: its own hand
    assert cards_in(game) & others == set()  # nothing of the others' hands, anywhere
    assert "seed" not in json.dumps(game["history"])


@pytest.mark.parametrize("signed_in", [True, False])
def test_anyone_else_sees_no_hand(client, signed_in):
    alice = make_player("alice")
    record = start_game_with_bots(alice, make_room("qq 积分"))
    hidden = hidden_cards(record)
    if signed_in:
        client.force_login(make_player("bob"))

    game = client.get(f"/api/games/{record.pk}").json()

    assert game["seat"] is None and game["hand"] is None
    assert cards_in(game) & hidden == set()
    assert sum(game["hand_counts"]) == sum(map(len, engine_snapshot(record).hands))


def test_an_unknown_game_is_404(client):
    assert client.get("/api/games/999999").status_code == 404
    assert client.get("/api/games/999999/events").status_code == 404


# --- the event log ------------------------------------------------------------------------

def test_the_log_of_a_running_game_is_refused(client):
    record = start_game_with_bots(make_player("alice"), make_room("qq 积分"))
    client.force_login(make_player("bob"))

    response = client.get(f"/api/games/{record.pk}/events")

    assert response.status_code == 403
    assert "仍在进行中" in response.json()["detail"]
    assert "hands" not in response.content.decode()


def test_the_log_of_a_running_game_is_refused_to_its_own_players_too(client):
    alice = make_player("alice")
    record = start_game_with_bots(alice, make_room("qq 积分"))
    client.force_login(alice)

    assert client.get(f"/api/games/{record.pk}/events").status_code == 403


@pytest.mark.django_db(transaction=True)
def test_the_log_of_a_finished_game_is_complete(client):
    alice = make_player("alice", coins=50000)
    record = start_game_with_bots(alice, coin_room())
    # 托管 on: in test settings bots and 托管 seats move at once, to the end; the
    # settlement task runs eagerly on commit.
    game_act(user_id=alice.pk, game_id=record.pk, action="trustee", on=True)
    record.refresh_from_db()
    assert record.status == GameRecord.Status.ENDED and record.settled_at is not None

    response = client.get(f"/api/games/{record.pk}/events")

    log = response.json()
    events = log["events"]
    assert response.status_code == 200
    assert (log["game"], log["status"], log["settled"]) == (record.pk, "ended", True)
    assert [event["seq"] for event in events] == list(range(1, record.seq + 1))
    assert log["seq"] == record.seq == GameEvent.objects.filter(game=record).count()
    deal = events[0]
    assert deal["type"] == "deal" and "seed" in deal
    assert [len(hand) for hand in deal["hands"]] == [27, 27, 27, 27]  # hands included
    assert events[-1]["type"] == "settled"
    assert events[-1]["coins"] == record.settlement["coins"]
    replayed = Game.replay(events)  # the log is enough to replay the game
    assert replayed.status == "ended" and replayed.result.to_dict() == record.result


# --- schema -------------------------------------------------------------------------------

def test_the_schema_lists_the_games_endpoints(client):
    response = client.get(reverse("api-schema"), {"format": "json"})

    paths = response.json()["paths"]
    assert {"/api/rooms", "/api/games/{game_id}", "/api/games/{game_id}/events"} <= set(paths)
    events = paths["/api/games/{game_id}/events"]["get"]["responses"]
    assert {"200", "403", "404"} <= set(events)
    game = paths["/api/games/{game_id}"]["get"]["responses"]["200"]
    assert game["content"]["application/json"]["schema"]["$ref"].endswith("/Game")
