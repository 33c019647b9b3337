"""Seating under real concurrency (games.live.seating, games.live.private_tables): eight
threads, each with its own database connection, released together. Whatever order
they land in, nothing fails with a database error, every player ends up seated exactly
once, table numbers stay unique and dense, and the losers of a race for one seat get a
refusal that says so."""

from __future__ import annotations

import pytest

from common.testing.threads import run_threads
from games.errors import ActionError
from games.live.private_tables import private_table_join, private_table_open
from games.live.seating import room_quick_join, table_ready, table_sit
from games.models import BotPlayer, GameRecord, Seat, Table
from games.testing.live_helpers import make_person, make_room

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 8


def people(count: int = THREADS) -> list:
    return [make_person(f"p{index}") for index in range(count)]


def table_numbers(room) -> list[int]:
    return sorted(Table.objects.filter(room=room).values_list("number", flat=True))


def seated_once(players) -> dict[int, int]:
    """Each player's table; fails unless every one of them holds exactly one seat."""
    seats = list(Seat.objects.filter(user__in=players).values_list("user_id", "table_id"))
    assert sorted(user for user, _table in seats) == sorted(player.pk for player in players)
    return dict(seats)


def test_eight_private_tables_opened_in_one_room_at_once_are_numbered_one_to_eight():
    room = make_room(bots_allowed=False)
    hosts = people()

    results = run_threads(THREADS, lambda index: private_table_open(host=hosts[index],
                                                                    room_id=room.pk))

    assert not [result for result in results if isinstance(result, BaseException)]
    assert table_numbers(room) == list(range(1, THREADS + 1))
    tables = seated_once(hosts)
    assert {tables[host.pk] for host in hosts} == {private.table_id for private in results}
    assert all(Seat.objects.get(user=host).index == 0 for host in hosts)


def test_eight_quick_joins_at_once_fill_two_tables_numbered_one_and_two():
    room = make_room(bots_allowed=False)  # qq: four seats a table
    players = people()

    results = run_threads(THREADS, lambda index: room_quick_join(user=players[index],
                                                                 room_id=room.pk))

    assert not [result for result in results if isinstance(result, BaseException)]
    assert table_numbers(room) == [1, 2]
    tables = seated_once(players)
    assert sorted(list(tables.values()).count(table) for table in set(tables.values())) == [4, 4]
    assert all(tables[seat.user_id] == seat.table_id for seat in results)


def test_quick_joins_racing_for_the_last_seats_spill_over_to_one_new_table():
    room = make_room(bots_allowed=False)
    first = make_person("first")
    room_quick_join(user=first, room_id=room.pk)  # table 1: three seats left
    players = people()

    results = run_threads(THREADS, lambda index: room_quick_join(user=players[index],
                                                                 room_id=room.pk))

    assert not [result for result in results if isinstance(result, BaseException)]
    assert table_numbers(room) == [1, 2, 3]
    tables = seated_once([first, *players])
    counts = sorted(list(tables.values()).count(table) for table in set(tables.values()))
    assert counts == [1, 4, 4]


def test_eight_sits_on_one_seat_at_once_seat_one_player_and_refuse_the_rest():
    room = make_room(bots_allowed=False)
    host = make_person("host")
    table_id = room_quick_join(user=host, room_id=room.pk).table_id
    players = people()

    results = run_threads(THREADS, lambda index: table_sit(user=players[index],
                                                           table_id=table_id, seat_index=2))

    seats = [result for result in results if isinstance(result, Seat)]
    refused = [result for result in results if isinstance(result, ActionError)]
    assert (len(seats), len(refused)) == (1, THREADS - 1)
    assert {error.code for error in refused} == {"seat_taken"}
    assert Seat.objects.get(table_id=table_id, index=2).user_id == seats[0].user_id
    assert Seat.objects.filter(user__in=players).count() == 1


def test_eight_readies_at_once_deal_one_game_and_refuse_the_late_ones_plainly():
    room = make_room(bots_allowed=False)
    players = people(4)
    for player in players:
        room_quick_join(user=player, room_id=room.pk)

    results = run_threads(THREADS, lambda index: table_ready(user=players[index % 4]))

    errors = [result for result in results if isinstance(result, BaseException)]
    assert all(isinstance(error, ActionError) for error in errors), errors
    assert {str(error) for error in errors} <= {"对局已经开始了"}
    assert GameRecord.objects.filter(room=room).count() == 1
    assert Table.objects.get(room=room).status == Table.Status.PLAYING


def test_eight_joins_with_one_code_on_the_last_free_seat_seat_one_and_refuse_the_rest():
    room = make_room(bots_allowed=False)
    private = private_table_open(host=make_person("host"), room_id=room.pk)
    for name in ("amy", "ben"):
        private_table_join(user=make_person(name), code=private.code)
    players = people()

    results = run_threads(THREADS, lambda index: private_table_join(user=players[index],
                                                                    code=private.code))

    seats = [result for result in results if isinstance(result, Seat)]
    refused = [result for result in results if isinstance(result, ActionError)]
    assert (len(seats), len(refused)) == (1, THREADS - 1)
    assert {error.code for error in refused} == {"table_full"}
    assert Seat.objects.filter(table_id=private.table_id, user__isnull=False).count() == 4


def test_eight_tables_getting_ready_at_once_each_get_bots_of_their_own():
    room = make_room()  # bots fill a table as soon as its person is ready (test settings)
    players = people()
    for player in players:
        private_table_open(host=player, room_id=room.pk)  # eight tables, one person each
    for table in Table.objects.filter(room=room):
        table.private.delete()  # ordinary tables now: their bots come with ready
    for index in range(3 * THREADS):  # idle bots, the first ones every table would take
        BotPlayer.objects.create(user=make_person(f"bot{index}"))

    results = run_threads(THREADS, lambda index: table_ready(user=players[index]))

    assert not [result for result in results if isinstance(result, BaseException)], results
    assert GameRecord.objects.filter(room=room).count() == THREADS
    seated = list(Seat.objects.filter(table__room=room).values_list("user_id", flat=True))
    assert len(seated) == 4 * THREADS and len(set(seated)) == 4 * THREADS
