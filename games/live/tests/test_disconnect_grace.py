"""The grace before a disconnected seat goes to 托管 (docs/protocol.md,
"Disconnects"; games.live.presence): a reload or a second tab is no absence, and a
player who does not come back is put in 托管 by the sweeper, once, with reason
``disconnect``. The deadline is a database column: the tests move it and run the sweep
themselves instead of waiting on the clock."""

from collections import OrderedDict
from datetime import timedelta

import pytest
from celery import current_app
from django.utils import timezone

from games.live import socket_rows, sweeps, warm_engines
from games.live.seating import room_quick_join
from games.models import Seat, TableSocket
from games.testing.live_helpers import (
    TableClient,
    connect_all,
    db,
    events_of,
    make_person,
    make_room,
    run,
    start_game,
)

pytestmark = pytest.mark.django_db(transaction=True)

GRACE = 60


@pytest.fixture(autouse=True)
def grace(settings):
    settings.GAMES_DISCONNECT_GRACE_SECONDS = GRACE


def seat_of(user) -> Seat:
    return Seat.objects.get(user=user)


def grace_over() -> int:
    """Every pending grace ran out a second ago; then the sweep (as beat runs it)."""
    Seat.objects.filter(away_deadline__isnull=False) \
        .update(away_deadline=timezone.now() - timedelta(seconds=1))
    return sweeps.sweep_away()


def two_people():
    room = make_room()
    alice, bob = make_person("alice"), make_person("bob")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id
    return alice, bob, table_id


def test_a_reload_within_the_grace_puts_nobody_in_trustee():
    alice, bob, table_id = two_people()

    async def scenario():
        a, b = await connect_all(table_id, alice, bob)
        game_id = await start_game([a, b])
        await a.close()
        away = await db(seat_of)(alice)
        await b.expect("table", lambda message: not message["table"]["seats"][away.index]
                       ["connected"])
        again = TableClient(alice, table_id)
        snapshot = await again.connect()
        back = await db(seat_of)(alice)
        swept = await db(grace_over)()
        await b.drain()
        quiet = not any(event["type"] == "trustee" for message in b.log
                        if message["type"] == "events" for event in message["events"])
        for client in (again, b):
            await client.close()
        return game_id, away, snapshot, back, swept, quiet

    game_id, away, snapshot, back, swept, quiet = run(scenario)
    now = timezone.now()
    assert away.connected is False
    assert now + timedelta(seconds=GRACE - 10) < away.away_deadline \
        <= now + timedelta(seconds=GRACE)
    assert back.connected is True and back.away_deadline is None
    assert swept == 0 and quiet
    assert snapshot["game"]["trustee"][away.index] is False
    assert events_of(game_id, "trustee") == []


def test_a_second_socket_of_the_player_closing_changes_nothing():
    alice, bob, table_id = two_people()

    async def scenario():
        a, b = await connect_all(table_id, alice, bob)
        game_id = await start_game([a, b])
        second = TableClient(alice, table_id)
        await second.connect()
        sockets = await db(TableSocket.objects.filter(user=alice).count)()
        await second.close()
        seat = await db(seat_of)(alice)
        swept = await db(grace_over)()
        await b.drain()
        quiet = not any(event["type"] == "trustee" for message in b.log
                        if message["type"] == "events" for event in message["events"])
        for client in (a, b):
            await client.close()
        return game_id, sockets, seat, swept, quiet

    game_id, sockets, seat, swept, quiet = run(scenario)
    assert sockets == 2
    assert seat.connected is True and seat.away_deadline is None
    assert swept == 0 and quiet
    assert events_of(game_id, "trustee") == []
    # Every socket that closed took its presence row with it.
    assert not TableSocket.objects.exists()


def test_a_player_who_does_not_come_back_goes_to_trustee_once_the_grace_is_over():
    alice, bob, table_id = two_people()

    async def scenario():
        a, b = await connect_all(table_id, alice, bob)
        game_id = await start_game([a, b])
        seat = a.seat
        await a.close()
        # Within the grace the sweep leaves the seat alone.
        early = await db(sweeps.sweep_away)()
        before = await db(events_of)(game_id, "trustee")
        swept = await db(grace_over)()
        heard = await b.expect("events", lambda message: any(
            event["type"] == "trustee" for event in message["events"]))
        again = await db(sweeps.sweep_away)()
        row = await db(seat_of)(alice)
        await b.close()
        return game_id, seat, early, before, swept, heard, again, row

    game_id, seat, early, before, swept, heard, again, row = run(scenario)
    assert early == 0 and before == []
    assert swept == 1 and again == 0
    trustee = [event for event in heard["events"] if event["type"] == "trustee"][0]
    assert {key: trustee[key] for key in ("type", "seat", "on", "reason")} == {
        "type": "trustee", "seat": seat, "on": True, "reason": "disconnect"}
    assert [event["reason"] for event in events_of(game_id, "trustee")] == ["disconnect"]
    assert row.away_deadline is None and row.connected is False


def test_a_deadline_left_while_the_player_is_back_puts_nobody_in_trustee():
    """The sweeper claims a seat only while none of the player's sockets is open: a
    deadline written by a close that raced the player's return (two processes) never
    penalises someone who is back (GUIDE: the server's timing is not the player's fault)."""
    alice, bob, table_id = two_people()

    async def scenario():
        a, b = await connect_all(table_id, alice, bob)
        game_id = await start_game([a, b])
        await a.close()
        again = TableClient(alice, table_id)
        await again.connect()
        # The racing close's deadline lands after the return, and has passed.
        await db(Seat.objects.filter(user=alice).update)(
            away_deadline=timezone.now() - timedelta(seconds=1))
        swept = await db(sweeps.sweep_away)()
        await b.drain()
        quiet = not any(event["type"] == "trustee" for message in b.log
                        if message["type"] == "events" for event in message["events"])
        for client in (again, b):
            await client.close()
        return game_id, swept, quiet

    game_id, swept, quiet = run(scenario)
    assert swept == 0 and quiet
    assert events_of(game_id, "trustee") == []


def test_the_grace_outlives_the_process_that_saw_the_socket_close(monkeypatch):
    """Nothing of the grace is in memory: with the server's engines forgotten (a
    restart) the beat task alone finds the deadlines and puts the seats in 托管."""
    alice, bob, table_id = two_people()

    async def scenario():
        a, b = await connect_all(table_id, alice, bob)
        game_id = await start_game([a, b])
        seats = (a.seat, b.seat)
        await a.close()
        await b.close()
        return game_id, seats

    game_id, seats = run(scenario)
    assert Seat.objects.filter(away_deadline__isnull=False).count() == 2
    monkeypatch.setattr(warm_engines, "_cache", OrderedDict())
    monkeypatch.setattr(warm_engines, "_table_games", {})
    Seat.objects.filter(away_deadline__isnull=False) \
        .update(away_deadline=timezone.now() - timedelta(seconds=1))

    # By its name, as beat sends it (only games.apps imports the tasks module). Its
    # result read as it stands, not with .get(): Celery's "would this join block" flag
    # is one for the whole process, and an eager task of another thread (a server the
    # tests run) sets it while it runs.
    assert current_app.tasks["games.tasks.sweep_away_task"].apply(throw=True).result == 2
    assert sorted((event["seat"], event["reason"]) for event in events_of(game_id, "trustee")) \
        == sorted((seat, "disconnect") for seat in seats)
    assert not Seat.objects.filter(away_deadline__isnull=False).exists()


def test_a_dead_processs_socket_rows_stop_counting_and_its_players_grace_starts(settings):
    """A process killed with its sockets open never closes them: their rows stay. Once
    not seen by a heartbeat for three periods (games.live.socket_rows.stale_after) they
    no longer make the player present, and the sweeper closes them as their sockets
    would have been: the grace starts, then 托管."""
    settings.GAMES_HEARTBEAT_SECONDS = 10
    alice, bob, table_id = two_people()

    async def scenario():
        a, b = await connect_all(table_id, alice, bob)
        game_id = await start_game([a, b])
        # alice's process dies: her row is left behind, last seen long ago; bob's
        # process lives on (its heartbeat just saw his row).
        await db(TableSocket.objects.filter(user=alice).update)(
            seen_at=timezone.now() - timedelta(seconds=31))
        first = await db(sweeps.sweep_away)()
        away = await db(seat_of)(alice)
        swept = await db(grace_over)()
        heard = await b.expect("events", lambda message: any(
            event["type"] == "trustee" for event in message["events"]))
        rows = await db(lambda: sorted(TableSocket.objects.values_list("user_id", flat=True)))()
        await b.close()
        await a.close()
        return game_id, first, away, swept, heard, rows

    game_id, first, away, swept, heard, rows = run(scenario)
    assert first == 0  # the row is dropped and the grace starts: no 托管 yet
    assert away.connected is False and away.away_deadline is not None
    assert swept == 1
    assert [event["reason"] for event in events_of(game_id, "trustee")] == ["disconnect"]
    assert rows == [bob.pk]  # bob's live row stays


def test_rows_a_heartbeat_has_seen_keep_their_player_present(settings):
    settings.GAMES_HEARTBEAT_SECONDS = 10
    alice, bob, table_id = two_people()

    async def scenario():
        a, b = await connect_all(table_id, alice, bob)
        game_id = await start_game([a, b])
        await db(TableSocket.objects.filter(user=alice).update)(
            seen_at=timezone.now() - timedelta(seconds=31))
        channels = await db(lambda: list(TableSocket.objects.values_list("channel", flat=True)))()
        seen = await socket_rows.sockets_seen(channels)
        swept = await db(grace_over)()
        seat = await db(seat_of)(alice)
        for client in (a, b):
            await client.close()
        return game_id, seen, swept, seat

    game_id, seen, swept, seat = run(scenario)
    assert seen == 2
    assert swept == 0 and seat.away_deadline is None and seat.connected is True
    assert events_of(game_id, "trustee") == []
