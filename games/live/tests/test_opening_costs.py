"""What a cold start costs each socket on its process's one database thread
(docs/performance.md, "A start without a queue"): a seated player's socket opens
without the refusal checks and writes only what changed; the table's public state and
a snapshot need no read of the table's row; a deal announces the state it read."""

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.errors import ActionError
from games.live.broadcast import table_group
from games.live.presence import Refusal, open_socket
from games.live.private_tables import private_table_open
from games.live.seating import room_quick_join, table_ready
from games.live.snapshots import table_snapshot, table_state, table_state_by_id
from games.models import Seat, Table, TableSocket
from games.testing.live_helpers import make_person, make_room

pytestmark = pytest.mark.django_db


def _open(user, table_id: int, channel: str, capture):
    with CaptureQueriesContext(connection) as queries, capture() as announced:
        opened = open_socket(user, table_id, channel)
    return opened, [query["sql"] for query in queries], announced


def test_a_seated_players_socket_opens_in_three_queries_without_the_refusal_checks(
        django_capture_on_commit_callbacks):
    room = make_room()
    alice, bob = make_person("alice"), make_person("bob")
    room_quick_join(user=alice, room_id=room.pk)
    seat = room_quick_join(user=bob, room_id=room.pk)

    opened, sql, announced = _open(bob, seat.table_id, "chan-bob",
                                   django_capture_on_commit_callbacks)

    assert opened == seat.index
    # its seat, its row, the seat marked connected; no table, private or tournament read
    assert len(sql) == 3, sql
    assert not any(name in text for text in sql
                   for name in ("games_privatetable", "tournaments_", '"games_table"'))
    assert len(announced) == 1  # the seat now shown connected
    assert Seat.objects.get(pk=seat.pk).connected
    assert TableSocket.objects.filter(channel="chan-bob", user=bob).exists()


def test_a_second_socket_of_a_connected_player_changes_and_announces_nothing(
        django_capture_on_commit_callbacks):
    alice = make_person("alice")
    seat = room_quick_join(user=alice, room_id=make_room().pk)
    _open(alice, seat.table_id, "tab-1", django_capture_on_commit_callbacks)

    opened, sql, announced = _open(alice, seat.table_id, "tab-2",
                                   django_capture_on_commit_callbacks)

    assert opened == seat.index and len(sql) == 3 and announced == []
    assert TableSocket.objects.filter(user=alice).count() == 2


def test_a_socket_back_within_the_grace_clears_it_and_shows_the_seat_connected(
        django_capture_on_commit_callbacks):
    alice = make_person("alice")
    seat = room_quick_join(user=alice, room_id=make_room().pk)
    Seat.objects.filter(pk=seat.pk).update(
        connected=False, away_deadline=timezone.now() + timedelta(seconds=30))

    opened, _sql, announced = _open(alice, seat.table_id, "back",
                                    django_capture_on_commit_callbacks)

    seat.refresh_from_db()
    assert opened == seat.index and seat.connected and seat.away_deadline is None
    assert len(announced) == 1


def test_a_socket_of_someone_not_seated_still_meets_the_refusal_checks(
        django_capture_on_commit_callbacks):
    host, stranger = make_person("host"), make_person("stranger")
    private = private_table_open(host=host, room_id=make_room().pk, spectators=False)
    missing = Table.objects.order_by("-pk").values_list("pk", flat=True).first() + 1

    refused, _sql, _ = _open(stranger, private.table_id, "peek",
                             django_capture_on_commit_callbacks)
    nowhere, _sql, _ = _open(stranger, missing, "lost", django_capture_on_commit_callbacks)
    hosted, _sql, _ = _open(host, private.table_id, "host", django_capture_on_commit_callbacks)

    assert refused == Refusal(4403) and nowhere == Refusal(4404)
    assert hosted == Seat.objects.get(user=host).index
    assert not TableSocket.objects.filter(channel__in=["peek", "lost"]).exists()


def test_the_state_by_id_is_the_tables_state_read_with_its_seats_in_one_query(
        django_assert_num_queries):
    alice = make_person("alice")
    table_id = room_quick_join(user=alice, room_id=make_room().pk).table_id
    table_ready(user=alice)  # the test settings fill the table with bots: a game is dealt
    table = Table.objects.get(pk=table_id)

    with django_assert_num_queries(1):
        by_id = table_state_by_id(table_id)

    assert by_id == table_state(table)
    assert by_id["status"] == Table.Status.PLAYING and by_id["game"] == table.current_game_id
    assert table_state_by_id(table_id + 1000) is None


def test_a_snapshot_before_any_deal_is_two_queries(django_assert_num_queries):
    alice = make_person("alice")
    table_id = room_quick_join(user=alice, room_id=make_room().pk).table_id

    with django_assert_num_queries(2):  # the table with its seats; its last game (none)
        snapshot = table_snapshot(table_id, alice.pk)

    assert snapshot["game"] is None and snapshot["seq"] == 0
    assert snapshot["table"]["seats"][0]["user"] == alice.pk
    with pytest.raises(Table.DoesNotExist):
        table_snapshot(table_id + 1000, alice.pk)


def test_a_deal_announces_the_state_it_read_without_reading_again(
        django_capture_on_commit_callbacks, monkeypatch):
    alice = make_person("alice")
    table_id = room_quick_join(user=alice, room_id=make_room().pk).table_id
    sent = []
    monkeypatch.setattr("games.live.broadcast.send_now",
                        lambda group, message: sent.append((group, message)))

    with django_capture_on_commit_callbacks() as callbacks:
        table_ready(user=alice)
    with CaptureQueriesContext(connection) as queries:
        for callback in callbacks:
            callback()

    changed = [message["table"] for _group, message in sent
               if message["type"] == "table.changed"]
    table = Table.objects.get(pk=table_id)
    assert changed == [table_state(table)] and changed[0]["status"] == Table.Status.PLAYING
    assert not any("games_seat" in query["sql"] for query in queries)


@pytest.mark.django_db(transaction=True)
def test_flips_committed_while_a_tables_read_waits_are_all_in_that_one_read():
    """On a server the state is read by a job of its own on the database thread: the
    flips committed before it runs share it (three sockets opening in one job here, as
    at a start where hundreds queue), rather than a read and a message each."""
    room = make_room(bots_allowed=False)
    people = [make_person(name) for name in ("amy", "ben", "cat")]
    table_id = None
    for person in people:
        table_id = room_quick_join(user=person, room_id=room.pk).table_id

    def three_sockets_open() -> None:
        for index, person in enumerate(people):
            open_socket(person, table_id, f"socket-{index}")

    async def scenario():
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(table_group(table_id), channel)
        await database_sync_to_async(three_sockets_open)()
        opened = await asyncio.wait_for(layer.receive(channel), 10)
        await database_sync_to_async(table_ready)(user=people[0])
        readied = await asyncio.wait_for(layer.receive(channel), 10)
        return opened, readied

    # On a loop of its own, as a server's is (not in async_to_sync, whose executor would
    # run the database jobs on this thread instead).
    opened, readied = asyncio.run(asyncio.wait_for(scenario(), 30))

    seated = [seat for seat in opened["table"]["seats"] if seat["user"] is not None]
    assert len(seated) == 3 and all(seat["connected"] for seat in seated)
    # the next message is the next change's, not a second copy of the first
    assert {seat["user"]: seat["ready"] for seat in readied["table"]["seats"]
            if seat["user"] is not None} == {people[0].pk: True, people[1].pk: False,
                                             people[2].pk: False}


def _statements(queries) -> list[str]:
    """The statements a call sent, without the test transaction's savepoints."""
    return [query["sql"] for query in queries
            if not query["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]


def test_a_ready_that_only_flips_the_flag_is_four_statements_with_no_model_read(
        django_capture_on_commit_callbacks):
    room = make_room(bots_allowed=False)
    alice, bob = make_person("alice"), make_person("bob")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id
    room_quick_join(user=bob, room_id=room.pk)

    with CaptureQueriesContext(connection) as queries, \
            django_capture_on_commit_callbacks() as announced:
        table_ready(user=alice)

    sql = _statements(queries)
    # her table, its row locked, her flag, the table's seats: no rule set, room or
    # private row read as an instance (the full path's locked_table)
    assert len(sql) == 4, sql
    assert not any("games_rulesetconfig" in text for text in sql)
    assert "FOR UPDATE OF" in sql[1]
    assert len(announced) == 2  # the table's seats, the lobby's counts
    seats = {seat.user_id: seat for seat in Seat.objects.filter(table_id=table_id)}
    assert seats[alice.pk].is_ready and seats[alice.pk].ready_deadline is None
    assert not seats[bob.pk].is_ready

    with django_capture_on_commit_callbacks():
        table_ready(user=alice, ready=False)  # not ready: a deadline to get ready again
    seat = Seat.objects.get(user=alice)
    assert not seat.is_ready
    assert seat.ready_deadline > timezone.now() + timedelta(seconds=room.ready_seconds - 5)


def test_a_ready_refused_says_why_and_writes_nothing(django_capture_on_commit_callbacks):
    room = make_room(bots_allowed=False)
    players = [make_person(name) for name in ("amy", "ben", "cat", "dan")]
    for player in players:
        room_quick_join(user=player, room_id=room.pk)
    stranger = make_person("stranger")

    with pytest.raises(ActionError, match="请先入座"):
        table_ready(user=stranger)
    with django_capture_on_commit_callbacks(execute=True):
        for player in players:
            table_ready(user=player)  # the fourth deals
    table = Table.objects.get(seats__user=players[0])
    assert table.status == Table.Status.PLAYING
    with pytest.raises(ActionError, match="对局已经开始了"), \
            django_capture_on_commit_callbacks() as announced:
        table_ready(user=players[0], ready=False)
    assert announced == []
    assert Seat.objects.filter(table=table, is_ready=True).count() == 4
