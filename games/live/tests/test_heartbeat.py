"""The process's one heartbeat (games.live.heartbeat, docs/protocol.md "heartbeat"):
every table socket of the process hears its own table's game and seq, read for all
tables in one query per beat (one trip to the database thread, not one per socket)."""

import asyncio
import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.live import heartbeat
from games.live.seating import room_quick_join
from games.models import GameRecord, TableSocket
from games.testing.live_helpers import (
    RECEIVE_SECONDS,
    connect_all,
    db,
    make_person,
    make_room,
    run,
    start_game,
)

PERIOD = 0.2


def position(game_id: int) -> tuple[int, int]:
    return game_id, GameRecord.objects.get(pk=game_id).seq


async def heard_at_rest(client, game_id: int) -> tuple[dict, tuple[int, int]]:
    """The first heartbeat of ``game_id`` that tells the position the database holds
    when it is read just after, and that position."""
    async def find():
        while True:
            heard = await client.expect("heartbeat", lambda m: m["game"] == game_id)
            now = await db(position)(game_id)
            if (heard["game"], heard["seq"]) == now:
                return heard, now
    return await asyncio.wait_for(find(), RECEIVE_SECONDS)


def table_of(name: str) -> tuple:
    """A person alone at a table of a room of their own (each its own table)."""
    person = make_person(name)
    room = make_room(turn_seconds=60, first_turn_seconds=60)
    return person, room_quick_join(user=person, room_id=room.pk).table_id


async def until(condition, seconds: float = RECEIVE_SECONDS) -> None:
    """Wait on state: ``condition()`` holds within ``seconds`` or the test fails."""
    async def poll():
        while not condition():
            await asyncio.sleep(0.01)
    await asyncio.wait_for(poll(), seconds)


def registered(table_id: int) -> int:
    return len(heartbeat.heartbeat_sockets().get(table_id, ()))


@pytest.mark.django_db(transaction=True)
def test_sockets_of_two_tables_each_hear_their_own_tables_game_and_seq(settings):
    settings.GAMES_HEARTBEAT_SECONDS = PERIOD
    alice, table_a = table_of("alice")
    bob, table_b = table_of("bob")

    async def scenario():
        (a,) = await connect_all(table_a, alice)
        (b,) = await connect_all(table_b, bob)
        game_a = await start_game([a])
        game_b = await start_game([b])
        # The bots move up to each person's turn, then the seqs rest: wait for a beat
        # that tells the position the database holds once it has.
        heard_a, at_a = await heard_at_rest(a, game_a)
        heard_b, at_b = await heard_at_rest(b, game_b)
        positions = at_a, at_b
        beats = [m for client in (a, b) for m in client.log if m["type"] == "heartbeat"]
        await a.close()
        await b.close()
        return game_a, game_b, heard_a, heard_b, positions, a.log, b.log, beats

    game_a, game_b, heard_a, heard_b, positions, log_a, log_b, beats = run(scenario)
    assert game_a != game_b
    assert (heard_a["game"], heard_a["seq"]) == positions[0]
    assert (heard_b["game"], heard_b["seq"]) == positions[1]
    assert all(set(m) == {"type", "game", "seq"} for m in beats)  # the protocol's shape
    # Never the other table's game.
    assert all(m["game"] != game_b for m in log_a if m["type"] == "heartbeat")
    assert all(m["game"] != game_a for m in log_b if m["type"] == "heartbeat")


@pytest.mark.django_db(transaction=True)
def test_one_beat_reads_every_table_with_sockets_here_in_one_query(settings, monkeypatch):
    settings.GAMES_HEARTBEAT_SECONDS = PERIOD
    alice, table_a = table_of("alice")
    bob, table_b = table_of("bob")
    carol = make_person("carol")
    reads = []
    read = heartbeat.table_positions

    def counted(table_ids):
        with CaptureQueriesContext(connection) as queries:
            positions = read(table_ids)
        reads.append((sorted(table_ids), len(queries)))
        return positions

    monkeypatch.setattr(heartbeat, "table_positions", counted)

    async def scenario():
        # Three sockets, two of them at one table; bob's table has no game yet.
        a, c = await connect_all(table_a, alice, carol)
        (b,) = await connect_all(table_b, bob)
        game_a = await start_game([a])
        for _ in range(2):
            for client in (a, c, b):
                await client.expect("heartbeat")
        heard_b = b.log[-1]
        # No await between these two: every read so far but the last was heard by a.
        reads_so_far = len(reads)
        heard_by_a = sum(m["type"] == "heartbeat" for m in a.log)
        for client in (a, c, b):
            await client.close()
        return game_a, heard_b, reads_so_far, heard_by_a

    game_a, heard_b, reads_so_far, heard_by_a = run(scenario)
    assert heard_b == {"type": "heartbeat", "game": None, "seq": 0}  # before a first deal
    both = sorted([table_a, table_b])
    # Each beat: one read of both tables (not one per socket or per table), one query.
    beats_with_everyone = [read for read in reads if read[0] == both]
    assert len(beats_with_everyone) >= 2
    assert all(count == 1 for _, count in reads), reads
    # One read per beat, not per socket: three sockets, yet no more reads than alice
    # heard heartbeats (plus a beat read but not yet sent).
    assert reads_so_far <= heard_by_a + 1


@pytest.mark.django_db(transaction=True)
def test_a_socket_that_closes_hears_no_more_and_the_heartbeat_ends_with_the_last(settings):
    settings.GAMES_HEARTBEAT_SECONDS = PERIOD
    alice, table_id = table_of("alice")
    bob = make_person("bob")

    async def scenario():
        a, b = await connect_all(table_id, alice, bob)
        await a.expect("heartbeat")
        await b.expect("heartbeat")
        before = registered(table_id)
        await b.close()
        after = registered(table_id)
        # The first heartbeat alice hears now may come from a beat begun before bob
        # left; drain bob of it, then every later beat must pass him by.
        await a.expect("heartbeat")
        while not b.communicator.output_queue.empty():
            await b.communicator.output_queue.get()
        await a.expect("heartbeat")
        await a.expect("heartbeat")
        bob_silent = b.communicator.output_queue.empty()
        await a.close()
        loop = asyncio.get_running_loop()
        await until(lambda: heartbeat._beats.get(loop) is None)  # nobody left: the task ends
        return before, after, bob_silent, registered(table_id)

    before, after, bob_silent, at_end = run(scenario)
    assert (before, after, at_end) == (2, 1, 0)
    assert bob_silent


@pytest.mark.django_db(transaction=True)
def test_no_heartbeat_at_all_when_its_period_is_zero(settings, monkeypatch):
    settings.GAMES_HEARTBEAT_SECONDS = 0
    alice, table_id = table_of("alice")
    monkeypatch.setattr(heartbeat, "table_positions", lambda table_ids: pytest.fail("read"))

    async def scenario():
        (a,) = await connect_all(table_id, alice)
        await start_game([a])
        await a.drain(0.5)
        running = heartbeat._beats.get() is not None
        sockets = heartbeat.heartbeat_sockets()
        await a.close()
        return running, sockets, a.log

    running, sockets, log = run(scenario)
    assert not running and sockets == {}  # no task, nothing registered
    assert not [m for m in log if m["type"] == "heartbeat"]


@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_outlives_a_failed_read_and_a_failed_send(settings, monkeypatch):
    settings.GAMES_HEARTBEAT_SECONDS = PERIOD
    alice, table_id = table_of("alice")
    read = heartbeat.table_positions
    reads = []

    def flaky(table_ids):
        reads.append(table_ids)
        if len(reads) == 1:
            raise ConnectionError("the database went away for a beat")
        return read(table_ids)

    monkeypatch.setattr(heartbeat, "table_positions", flaky)
    broken_sends = []

    async def broken(text_data=None):
        broken_sends.append(text_data)
        raise ConnectionResetError("the client is gone")

    async def scenario():
        (a,) = await connect_all(table_id, alice)
        broken_socket = object()  # a socket whose every send fails, at the same table
        heartbeat.heartbeat_join(table_id=table_id, socket=broken_socket, send=broken)
        await a.expect("heartbeat")
        await a.expect("heartbeat")
        heartbeat.heartbeat_leave(table_id=table_id, socket=broken_socket)
        await a.close()

    run(scenario)
    assert len(reads) >= 3  # the failed read, then the beats alice heard
    assert len(broken_sends) >= 2  # it failed every time; alice heard hers regardless


@pytest.mark.django_db(transaction=True)
def test_each_beat_marks_this_processs_socket_rows_alive(settings):
    """The rows a killed process leaves go stale (games.live.presence); a live one's
    heartbeat keeps moving its own on."""
    settings.GAMES_HEARTBEAT_SECONDS = PERIOD
    alice, table_a = table_of("alice")
    long_ago = timezone.now() - timedelta(hours=1)

    async def scenario():
        (a,) = await connect_all(table_a, alice)
        await db(TableSocket.objects.update)(seen_at=long_ago)
        await a.expect("heartbeat")
        await a.expect("heartbeat")  # a whole beat after the update
        seen = await db(lambda: TableSocket.objects.get(user=alice).seen_at)()
        await a.close()
        return seen

    assert run(scenario) > long_ago + timedelta(minutes=59)


@pytest.mark.django_db(transaction=True)
def test_rows_stay_alive_while_the_database_thread_is_busy(settings):
    """The beat marks the rows on the loop's own connection: a database thread held
    by other work (a burst of deals and snapshots) must not let a live process's rows
    go stale, or the sweeper would put its players in 托管 for the server's slowness."""
    settings.GAMES_HEARTBEAT_SECONDS = PERIOD
    alice, table_a = table_of("alice")
    long_ago = timezone.now() - timedelta(hours=1)
    release = threading.Event()

    def hold_the_database_thread():
        release.wait(RECEIVE_SECONDS)

    async def scenario():
        (a,) = await connect_all(table_a, alice)
        await db(TableSocket.objects.update)(seen_at=long_ago)
        holding = asyncio.ensure_future(db(hold_the_database_thread)())
        try:
            # Twice: a beat's read of the tables now waits on the held thread, and the
            # beats after it must not wait for that read.
            for _ in range(2):
                await until(lambda: _elsewhere(lambda: TableSocket.objects.get(user=alice)
                                               .seen_at) > long_ago + timedelta(minutes=59))
                _elsewhere(lambda: TableSocket.objects.update(seen_at=long_ago))
        finally:
            release.set()
            await holding
        await a.close()

    run(scenario)


def _elsewhere(query):
    """``query()`` run in a fresh thread, on a connection of its own: not on the
    database thread the test holds."""
    result = []

    def work():
        try:
            result.append(query())
        finally:
            connections.close_all()

    worker = threading.Thread(target=work)
    worker.start()
    worker.join()
    return result[0]


def test_sends_are_paced_so_other_work_runs_between_batches(settings):
    """800 sockets' sends started in one turn of the loop held every game action of
    the process behind them: after each GAMES_HEARTBEAT_BATCH sends the beat yields.
    A socket that leaves during a pause is not sent to; every other socket hears one
    heartbeat with its own table's position."""
    settings.GAMES_HEARTBEAT_BATCH = 2
    settings.GAMES_HEARTBEAT_BATCH_PAUSE = 0

    async def scenario():
        loop = asyncio.get_running_loop()
        beat = heartbeat._Beat()
        heard: list[tuple[str, str]] = []

        def sender(name: str):
            def send(text_data: str) -> asyncio.Future:
                heard.append((name, text_data))
                done = loop.create_future()
                done.set_result(None)
                return done
            return send

        beat.sockets = {1: {f"a{n}": sender(f"a{n}") for n in range(3)},
                        2: {f"b{n}": sender(f"b{n}") for n in range(3)}}
        seen_by_action: list[int] = []

        async def game_action():  # scheduled just after the beat: its first turn
            seen_by_action.append(len(heard))
            del beat.sockets[2]["b2"]  # b2 leaves while the beat pauses

        sending = asyncio.ensure_future(heartbeat._send_all(beat, {1: (7, 30), 2: (8, 4)}))
        await asyncio.gather(sending, asyncio.ensure_future(game_action()))
        return heard, seen_by_action

    heard, seen_by_action = asyncio.run(scenario())
    assert seen_by_action == [2]  # two sends, then the action ran, then the rest
    assert sorted(name for name, _ in heard) == ["a0", "a1", "a2", "b0", "b1"]
    texts = dict(heard)
    assert texts["a0"] == heartbeat.heartbeat_text(7, 30)
    assert texts["b1"] == heartbeat.heartbeat_text(8, 4)
