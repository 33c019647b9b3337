"""The pages and the API that seat players, hit by eight requests at once (threads,
each with its own database connection, released together): never a 500, and what a
page says is what happened."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from common.testing.threads import run_threads
from games.live.private_tables import private_table_join, private_table_open
from games.live.seating import room_quick_join
from games.models import GameRecord, Seat, Table
from games.testing.room_helpers import make_player, make_room

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 8


def logged_in(players) -> list[Client]:
    clients = []
    for player in players:
        client = Client(raise_request_exception=False)  # a server error is a 500 here
        client.force_login(player)
        clients.append(client)
    return clients


def players(prefix: str, count: int = THREADS) -> list:
    return [make_player(f"{prefix}{index}") for index in range(count)]


def statuses(responses) -> list[int]:
    return sorted(response.status_code for response in responses)


def table_numbers(room) -> list[int]:
    return sorted(Table.objects.filter(room=room).values_list("number", flat=True))


def test_eight_private_tables_opened_at_once_over_the_api_are_all_created():
    room = make_room("friends", bots_allowed=False)
    hosts = players("host")
    clients = logged_in(hosts)

    responses = run_threads(THREADS, lambda index: clients[index].post(
        reverse("api-private-open"), {"room": room.pk}, content_type="application/json"))

    assert statuses(responses) == [201] * THREADS
    assert table_numbers(room) == list(range(1, THREADS + 1))
    for host, response in zip(hosts, responses):
        assert Seat.objects.get(user=host).table_id == response.json()["table"]


def test_eight_quick_joins_at_once_over_the_api_seat_everyone_at_two_tables():
    room = make_room("quick", bots_allowed=False)
    joiners = players("quick")
    clients = logged_in(joiners)

    responses = run_threads(THREADS, lambda index: clients[index].post(
        reverse("api-room-join", args=[room.pk])))

    assert statuses(responses) == [200] * THREADS
    assert table_numbers(room) == [1, 2]
    for player, response in zip(joiners, responses):
        seat = Seat.objects.get(user=player)
        assert (response.json()["table"], response.json()["seat"]) == (seat.table_id,
                                                                        seat.index)


def test_eight_quick_joins_at_once_from_the_lobby_each_go_to_their_own_seat():
    room = make_room("lobby", bots_allowed=False)
    joiners = players("lobby")
    clients = logged_in(joiners)

    responses = run_threads(THREADS, lambda index: clients[index].post(
        reverse("room-quick-join", args=[room.pk])))

    for player, response in zip(joiners, responses):
        said = [str(message) for message in get_messages(response.wsgi_request)]
        assert (response.status_code, said) == (302, [])
        assert response.url == reverse("table", args=[Seat.objects.get(user=player).table_id])
    assert table_numbers(room) == [1, 2]


def test_one_player_quick_joining_eight_rooms_at_once_is_told_the_truth():
    rooms = [make_room(f"room {index}", bots_allowed=False) for index in range(THREADS)]
    amy = make_player("amy")
    clients = logged_in([amy] * THREADS)

    responses = run_threads(THREADS, lambda index: clients[index].post(
        reverse("room-quick-join", args=[rooms[index].pk])))

    seat = Seat.objects.get(user=amy)  # one seat, whichever room won
    to_table = [response for response in responses
                if response.url == reverse("table", args=[seat.table_id])]
    refused = [response for response in responses if response not in to_table]
    assert len(to_table) == 1 and len(refused) == THREADS - 1
    for response in refused:
        said = [str(message) for message in get_messages(response.wsgi_request)]
        assert (response.status_code, response.url) == (302, reverse("lobby"))
        assert len(said) == 1 and "已在" in said[0] and "就座" in said[0], said


def test_eight_joins_with_one_code_on_the_last_free_seat_answer_200_once_and_400_else():
    room = make_room("friends", bots_allowed=False)
    private = private_table_open(host=make_player("host"), room_id=room.pk)
    for name in ("amy", "ben"):
        private_table_join(user=make_player(name), code=private.code)
    clients = logged_in(players("late"))

    responses = run_threads(THREADS, lambda index: clients[index].post(
        reverse("api-private-join"), {"code": private.code.lower()},
        content_type="application/json"))

    assert statuses(responses) == [200] + [400] * (THREADS - 1)
    refusals = [response.json() for response in responses if response.status_code == 400]
    assert all(refusal["code"] == "table_full" and refusal["detail"] for refusal in refusals)


def test_eight_ready_clicks_at_once_deal_one_game_and_never_fail():
    room = make_room("ready", bots_allowed=False)
    seated = players("ready", 4)
    for player in seated:
        room_quick_join(user=player, room_id=room.pk)
    table_id = Seat.objects.get(user=seated[0]).table_id
    clients = logged_in(seated + seated)

    responses = run_threads(THREADS, lambda index: clients[index].post(
        reverse("table-ready", args=[table_id])))

    assert statuses(responses) == [302] * THREADS
    assert GameRecord.objects.filter(room=room).count() == 1
