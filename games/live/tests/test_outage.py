"""the channel layer (Redis) fails for a while. Events committed meanwhile
never reach the table; a person's turn must not time out against them for it (GUIDE:
a fault of the server never counts against a player), and the table is told again
once the layer answers (games.live.delivery)."""

import asyncio
import copy
import threading
from datetime import timedelta

import pytest
from channels.layers import get_channel_layer
from django.db import connection
from django.utils import timezone

from games.engine.seat_view import FollowsView
from games.live import sweeps
from games.live.broadcast import mark_undelivered, send_now, table_group
from games.live.seating import room_quick_join
from games.models import GameRecord
from games.testing.live_helpers import (
    connect_all,
    db,
    events_of,
    expire_turn,
    make_person,
    make_room,
    run,
    start_game,
)

TURN_SECONDS = 20


async def refused(group, message):
    raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")


def record_of(game_id: int) -> GameRecord:
    return GameRecord.objects.get(pk=game_id)


async def marked(game_id: int) -> GameRecord:
    """The game row once the failed send's mark has landed (it is written from the
    server loop's done-callback, a moment after the send fails)."""
    for _ in range(100):
        record = await db(record_of)(game_id)
        if record.undelivered_since is not None:
            return record
        await asyncio.sleep(0.02)
    raise AssertionError("the failed send did not mark the game undelivered")


@pytest.mark.django_db(transaction=True)
def test_a_turn_whose_events_were_not_delivered_does_not_time_out_and_gets_fresh_time():
    room = make_room(turn_seconds=TURN_SECONDS, first_turn_seconds=TURN_SECONDS)
    alice = make_person("alice")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        (a,) = await connect_all(table_id, alice)
        game_id = await start_game([a])  # bots move at once, up to alice's turn
        await a.drain(0.2)
        assert a.my_turn
        layer = get_channel_layer()
        layer.group_send = refused  # Redis goes down; the database stays up
        await a.play_turn()
        # The bots answered in the same commit: alice's turn again, nobody told her.
        during = await marked(game_id)
        heard = a.seq
        # Her deadline passes during the outage: the sweep must not charge her.
        await db(expire_turn)(game_id)
        assert await db(sweeps.sweep_deadlines)() == 0
        after_sweep = await db(record_of)(game_id)
        # The layer is still down: the re-announcing sweep leaves the game marked.
        assert await db(sweeps.sweep_undelivered)() == 0
        still = await db(record_of)(game_id)
        del layer.group_send  # Redis is back
        assert await db(sweeps.sweep_undelivered)() == 1
        resync = await a.expect("snapshot")
        recovered = await db(record_of)(game_id)
        # Once told, the turn times out as usual.
        await db(expire_turn)(game_id)
        assert await db(sweeps.sweep_deadlines)() == 1
        timed_out = await a.expect("events")
        await a.close()
        return (game_id, a.seat, during, heard, after_sweep, still, resync, recovered,
                timed_out)

    (game_id, seat, during, heard, after_sweep, still, resync, recovered,
     timed_out) = run(scenario)
    assert during.turn == seat and during.seq > heard  # events she never heard
    # No timeout was charged during the outage; the turn got its full time instead.
    assert all(event["seq"] > recovered.seq for event in events_of(game_id, "timeout"))
    assert after_sweep.seq == during.seq and after_sweep.undelivered_since is not None
    assert after_sweep.deadline > timezone.now() + timedelta(seconds=TURN_SECONDS - 10)
    assert still.undelivered_since is not None and still.deadline == after_sweep.deadline
    # Re-announced: the snapshot brings what she missed, the mark is cleared, and the
    # turn's time starts again from the re-announcement.
    assert resync["game"]["seq"] == recovered.seq == during.seq
    assert recovered.undelivered_since is None
    assert recovered.deadline > after_sweep.deadline
    assert resync["game"]["deadline"] == recovered.deadline.isoformat()
    assert [event["type"] for event in timed_out["events"]][:1] == ["timeout"]
    assert timed_out["events"][0]["seat"] == seat


@pytest.mark.django_db(transaction=True)
def test_a_failed_send_from_a_plain_thread_marks_the_game_too(settings):
    """Celery's path (a plain thread, its own sender loop), against a real Redis layer
    whose server is gone (a closed port): the send raises after marking the game; the
    caller's on_commit(robust=True) logs it. The sweep re-announces once it is back."""
    room = make_room()
    alice = make_person("alice")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        (a,) = await connect_all(table_id, alice)
        game_id = await start_game([a])
        await a.close()
        return game_id

    game_id = run(scenario)
    working = copy.deepcopy(settings.CHANNEL_LAYERS)
    down = copy.deepcopy(working)
    down["default"]["CONFIG"]["hosts"] = [{"address": "redis://127.0.0.1:1",
                                           "socket_connect_timeout": 1}]
    settings.CHANNEL_LAYERS = down  # channels makes new layers on setting_changed
    failures = []

    def celery_like():
        try:
            send_now(table_group(table_id), {"type": "game.events", "game": game_id})
        except Exception as error:
            failures.append(error)
        finally:
            connection.close()  # this thread's own connection (the mark's UPDATE)

    thread = threading.Thread(target=celery_like)
    thread.start()
    thread.join()
    assert len(failures) == 1
    marked_at = record_of(game_id).undelivered_since
    assert marked_at is not None
    assert sweeps.sweep_undelivered() == 0  # still down: the mark stays
    assert record_of(game_id).undelivered_since == marked_at
    settings.CHANNEL_LAYERS = working  # Redis is back
    assert sweeps.sweep_undelivered() == 1
    assert record_of(game_id).undelivered_since is None


@pytest.mark.django_db(transaction=True)
def test_a_client_whose_events_were_dropped_resyncs_on_the_heartbeat(settings):
    """The heartbeat goes straight down the socket, not through the channel layer: even
    while the layer is down, a client learns it is behind and asks for a snapshot."""
    settings.GAMES_HEARTBEAT_SECONDS = 0.3
    room = make_room(turn_seconds=TURN_SECONDS, first_turn_seconds=TURN_SECONDS)
    alice = make_person("alice")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        (a,) = await connect_all(table_id, alice)
        game_id = await start_game([a])
        await a.drain(0.2)
        level = await a.expect("heartbeat", lambda m: m["game"] == game_id)
        level_flag = a.need_snapshot
        heard = a.seq
        layer = get_channel_layer()
        layer.group_send = refused  # the events of alice's move are lost
        await a.play_turn()
        record = await marked(game_id)
        ahead = await a.expect("heartbeat", lambda m: m["seq"] == record.seq)
        # The first reading ahead may have overtaken events on their way; a period
        # later, still short of it, the client knows they were lost.
        await a.expect("heartbeat")
        ahead_flag = a.need_snapshot
        await a.send({"type": "snapshot", "ref": "beat"})
        await a.expect("snapshot", lambda m: m.get("ref") == "beat")
        del layer.group_send
        await a.close()
        return record, heard, level, level_flag, ahead, ahead_flag, a.seq

    record, heard, level, level_flag, ahead, ahead_flag, after = run(scenario)
    assert level["seq"] == heard and not level_flag  # level with the table: nothing to do
    assert ahead["seq"] > heard and ahead_flag  # ahead of the client: resync
    assert after == record.seq  # the snapshot brought what the layer lost


def test_ahead_reads_a_heartbeat_as_the_clients_do():
    view = FollowsView()
    assert not view.ahead({"type": "heartbeat", "game": None, "seq": 0})
    assert view.ahead({"type": "heartbeat", "game": 3, "seq": 1})  # no view yet
    view.view = {"id": 7, "seq": 12}
    assert view.ahead({"type": "heartbeat", "game": 7, "seq": 13})
    assert view.ahead({"type": "heartbeat", "game": 8, "seq": 1})
    assert not view.ahead({"type": "heartbeat", "game": 7, "seq": 12})
    assert not view.ahead({"type": "heartbeat", "game": 6, "seq": 99})  # an old reading


def test_behind_only_when_still_short_of_the_previous_heartbeat():
    """A heartbeat may overtake events on their way through the channel layer: only a
    view still short of a reading a whole period later lost events."""
    view = FollowsView()
    view.view = {"id": 7, "seq": 12}
    assert not view.behind({"type": "heartbeat", "game": 7, "seq": 14})  # maybe in flight
    view.view["seq"] = 14  # they came
    assert not view.behind({"type": "heartbeat", "game": 7, "seq": 16})
    assert view.behind({"type": "heartbeat", "game": 7, "seq": 16})  # still at 14: lost
    view.view = {"id": 7, "seq": 16}  # a snapshot repaired it
    assert not view.behind({"type": "heartbeat", "game": 7, "seq": 16})
    assert not view.behind({"type": "heartbeat", "game": 8, "seq": 1})  # a new deal...
    assert view.behind({"type": "heartbeat", "game": 8, "seq": 2})  # ...never heard of


@pytest.mark.django_db(transaction=True)
def test_bots_still_move_while_the_game_is_marked_undelivered(settings):
    settings.GAMES_BOT_THINK_SECONDS = 30  # bots wait for their deadline
    room = make_room(turn_seconds=TURN_SECONDS, first_turn_seconds=TURN_SECONDS)
    alice = make_person("alice")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        (a,) = await connect_all(table_id, alice)
        game_id = await start_game([a])
        if (await db(record_of)(game_id)).turn == a.seat:
            await a.play_turn()
            await a.expect("events")
        await db(mark_undelivered)(game_id)
        before = await db(record_of)(game_id)
        await db(expire_turn)(game_id)
        moved = await db(sweeps.sweep_deadlines)()
        after = await db(record_of)(game_id)
        await a.close()
        return a.seat, before, moved, after

    seat, before, moved, after = run(scenario)
    assert before.turn != seat and before.turn in before.bot_seats
    assert moved == 1 and after.seq > before.seq  # the bot played (or passed) on time
    assert events_of(after.pk)[before.seq]["by"] == "bot"
    assert after.undelivered_since is not None  # only a re-announcement clears the mark
