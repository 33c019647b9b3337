"""A server process killed with its sockets open (docs/protocol.md "Disconnects"):
each process beats its own row every GAMES_PROCESS_BEAT_SECONDS
(games.live.heartbeat); a person's turn whose player had a socket on a process that
stopped beating is not timed out: it gets its full time again and the table is told
(games.live.lifecycle.deadlines). The tests write the dead process's rows and move the
deadline themselves instead of killing a process and waiting on the clock."""

import asyncio
import os
import signal
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games.live import action_pool, process_stop, socket_rows, sweeps
from games.live.seating import room_quick_join
from games.models import GameRecord, SocketProcess, TableSocket
from games.testing.live_helpers import (
    RECEIVE_SECONDS,
    connect_all,
    db,
    events_of,
    expire_turn,
    make_person,
    make_room,
    run,
    start_game,
)

pytestmark = pytest.mark.django_db(transaction=True)

TURN_SECONDS = 40
DEAD = "web:4242:killed"  # a process that died


@pytest.fixture(autouse=True)
def beats(settings):
    settings.GAMES_PROCESS_BEAT_SECONDS = 2.0
    # Closing the clients does not put their seats in 托管 (the tests' default grace
    # is none): the turn stays a person's.
    settings.GAMES_DISCONNECT_GRACE_SECONDS = 60
    yield
    socket_rows.forget_stopping_for_tests()  # a test that stopped "the server"


def two_people():
    room = make_room(turn_seconds=TURN_SECONDS, first_turn_seconds=TURN_SECONDS)
    alice, bob = make_person("alice"), make_person("bob")
    return alice, bob, room_quick_join(user=alice, room_id=room.pk).table_id


def on_turn(game_id: int) -> int:
    """The user whose turn it is (after the deal the bots have moved up to a person)."""
    record = GameRecord.objects.get(pk=game_id)
    return record.players[record.turn]


def held_by(user_id: int, table_id: int, *, last_beat: datetime) -> None:
    """A socket of the player at the table on the process DEAD, which last beat then."""
    TableSocket.objects.create(channel=f"killed-{user_id}", user_id=user_id,
                               table_id=table_id, process=DEAD)
    SocketProcess.objects.update_or_create(name=DEAD, defaults={"seen_at": last_beat})


def deadline_of(game_id: int) -> tuple[int, datetime]:
    record = GameRecord.objects.get(pk=game_id)
    return record.seq, record.deadline


def test_a_turn_whose_socket_died_with_its_process_gets_its_time_again_not_a_timeout():
    alice, bob, table_id = two_people()

    async def scenario():
        a, b = await connect_all(table_id, alice, bob)
        game_id = await start_game([a, b])
        user = await db(on_turn)(game_id)
        # Their second socket was on a process killed 10 s ago (three beats missed).
        await db(held_by)(user, table_id, last_beat=timezone.now() - timedelta(seconds=10))
        before = await db(deadline_of)(game_id)
        await db(expire_turn)(game_id)
        for client in (a, b):
            await client.drain(0.05)
        moved = await db(sweeps.sweep_deadlines)()
        told = [await client.expect("snapshot", lambda m: m["game"]["seq"] == before[0])
                for client in (a, b)]
        after = await db(deadline_of)(game_id)
        for client in (a, b):
            await client.close()
        return game_id, before, moved, told, after

    game_id, before, moved, told, after = run(scenario)
    assert moved == 0
    assert events_of(game_id, "timeout") == []
    seq, deadline = after
    assert seq == before[0]  # nothing was played for them
    assert deadline > timezone.now() + timedelta(seconds=TURN_SECONDS - 15)
    assert all(m["game"]["deadline"] == deadline.isoformat() for m in told)


def test_a_living_process_shields_nobody_the_turn_times_out():
    alice, bob, table_id = two_people()
    game_id = run(lambda: _dealt(table_id, alice, bob))
    user = on_turn(game_id)
    held_by(user, table_id, last_beat=timezone.now())  # it beat just now
    expire_turn(game_id)
    assert sweeps.sweep_deadlines() == 1
    assert [event["seat"] for event in events_of(game_id, "timeout")] == \
        [GameRecord.objects.get(pk=game_id).players.index(user)]


def test_without_process_beats_a_silent_row_means_nothing(settings):
    settings.GAMES_PROCESS_BEAT_SECONDS = 0
    alice, bob, table_id = two_people()
    game_id = run(lambda: _dealt(table_id, alice, bob))
    held_by(on_turn(game_id), table_id, last_beat=timezone.now() - timedelta(hours=1))
    expire_turn(game_id)
    assert sweeps.sweep_deadlines() == 1
    assert len(events_of(game_id, "timeout")) == 1


async def _dealt(table_id, alice, bob) -> int:
    a, b = await connect_all(table_id, alice, bob)
    game_id = await start_game([a, b])
    for client in (a, b):
        await client.close()
    return game_id


def test_a_process_that_never_beat_counts_as_alive_and_old_silent_ones_are_forgotten():
    alice, bob, table_id = two_people()
    TableSocket.objects.create(channel="new-1", user=alice, table_id=table_id,
                               process="specific.new")
    assert not socket_rows.lost_with_its_process(alice.pk, table_id)
    long_ago = timezone.now() - timedelta(hours=2)
    SocketProcess.objects.create(name="specific.new", seen_at=long_ago)
    SocketProcess.objects.create(name="specific.gone", seen_at=long_ago)
    assert socket_rows.lost_with_its_process(alice.pk, table_id)
    # Forgotten only once none of its sockets' rows is left.
    assert socket_rows.forget_gone_processes() == 1
    assert list(SocketProcess.objects.values_list("name", flat=True)) == ["specific.new"]


def test_the_heartbeat_writes_its_process_row_and_moves_it_on(settings):
    settings.GAMES_HEARTBEAT_SECONDS = 5.0
    settings.GAMES_PROCESS_BEAT_SECONDS = 0.05
    alice, bob, table_id = two_people()

    def beat_of(name: str):
        return SocketProcess.objects.filter(name=name).values_list("seen_at", flat=True).first()

    async def until_beat_after(name: str, after) -> datetime:
        async def poll():
            while True:
                seen = await db(beat_of)(name)
                if seen is not None and (after is None or seen > after):
                    return seen
                await asyncio.sleep(0.02)
        return await asyncio.wait_for(poll(), RECEIVE_SECONDS)

    async def scenario():
        (a,) = await connect_all(table_id, alice)
        name = await db(lambda: TableSocket.objects.get(user=alice).process)()
        first = await until_beat_after(name, None)
        second = await until_beat_after(name, first)
        await a.close()
        return name, first, second

    name, first, second = run(scenario)
    assert name == socket_rows.this_process()
    assert second > first


def test_a_socket_closed_by_its_process_stopping_keeps_its_row_and_its_turn_is_not_timed_out():
    alice, bob, table_id = two_people()

    async def scenario():
        a, b = await connect_all(table_id, alice, bob)
        game_id = await start_game([a, b])
        user = await db(on_turn)(game_id)
        before = await db(deadline_of)(game_id)
        # What the stop signal does, then the server closing its sockets (1012).
        await socket_rows.process_stopped()
        for client in (a, b):
            await client.communicator.disconnect(code=1012)
        rows = await db(lambda: sorted(TableSocket.objects.values_list("user_id", flat=True)))()
        await db(expire_turn)(game_id)
        moved = await db(sweeps.sweep_deadlines)()
        return game_id, user, before, rows, moved

    game_id, user, before, rows, moved = run(scenario)
    assert rows == sorted([alice.pk, bob.pk])  # kept, as a killed process's
    assert socket_rows.lost_with_its_process(user, table_id)
    assert moved == 0
    assert events_of(game_id, "timeout") == []
    seq, deadline = deadline_of(game_id)
    assert seq == before[0]
    assert deadline > timezone.now() + timedelta(seconds=TURN_SECONDS - 15)


def test_a_socket_closed_by_its_player_still_lets_the_turn_time_out():
    # The control for the test above: the same closes from a running process.
    alice, bob, table_id = two_people()

    async def scenario():
        a, b = await connect_all(table_id, alice, bob)
        game_id = await start_game([a, b])
        for client in (a, b):
            await client.communicator.disconnect(code=1012)
        await db(expire_turn)(game_id)
        return game_id, await db(sweeps.sweep_deadlines)()

    game_id, moved = run(scenario)
    assert not TableSocket.objects.exists()
    assert moved == 1
    assert len(events_of(game_id, "timeout")) == 1


def test_the_stop_signal_marks_the_process_stopped_then_calls_the_servers_handler():
    heard = []
    previous = signal.signal(signal.SIGUSR1, lambda number, frame: heard.append(number))
    process_stop._watched.discard(signal.SIGUSR1)

    async def scenario():
        process_stop.watch_stop_signals(signals=(signal.SIGUSR1,))
        os.kill(os.getpid(), signal.SIGUSR1)

        async def silent():
            while True:
                seen = await db(lambda: SocketProcess.objects.filter(
                    name=socket_rows.this_process()).values_list("seen_at", flat=True)
                    .first())()
                if seen is not None:
                    return seen
                await asyncio.sleep(0.02)
        return await asyncio.wait_for(silent(), RECEIVE_SECONDS)

    async def on_the_main_thread():  # as a server's loop runs: handlers are set there
        try:
            return await scenario()
        finally:
            await action_pool.close()

    try:
        seen = asyncio.run(on_the_main_thread())
    finally:
        signal.signal(signal.SIGUSR1, previous)
        process_stop._watched.discard(signal.SIGUSR1)
    assert heard == [signal.SIGUSR1]  # the server still stops as it would
    assert process_stop.stopping()
    assert seen < timezone.now() - timedelta(days=365)
