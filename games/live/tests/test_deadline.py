"""The turn's deadline in snapshots (docs/protocol.md, "snapshot"): a page that connects
or resyncs learns the countdown from the snapshot, as `events` messages give it."""

from datetime import datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.live.lifecycle.act import game_act
from games.live.seating import room_quick_join
from games.live.snapshots import game_view
from games.models import GameRecord
from games.testing import live_helpers
from games.testing.live_helpers import (
    TableClient,
    connect_all,
    db,
    make_person,
    make_room,
    run,
    start_game,
)
from games.testing.room_helpers import make_player, start_game_with_bots
from games.testing.room_helpers import make_room as make_checked_room

# Autouse: each test gets a channel-layer prefix of its own (see live_helpers).
private_channel_layer = live_helpers.private_channel_layer


@pytest.mark.django_db(transaction=True)
def test_a_snapshot_during_a_persons_turn_carries_the_deadline_of_the_game_row():
    room = make_room(turn_seconds=20, first_turn_seconds=30)
    alice, watcher = make_person("alice"), make_person("watcher")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        (a,) = await connect_all(table_id, alice)
        game_id = await start_game([a])  # bots move at once, up to alice's turn
        await a.drain(0.2)
        events = [m for m in a.log if m["type"] == "events" and m["seq"] == a.seq]
        # The page is reloaded: a new socket of the same player, and a spectator.
        again, spectator = TableClient(alice, table_id), TableClient(watcher, table_id)
        reconnected = await again.connect()
        watched = await spectator.connect()
        await a.send({"type": "snapshot", "ref": "resync"})
        asked = await a.expect("snapshot", lambda m: m.get("ref") == "resync")
        # Read before closing: a socket closing mid-game puts the seat in 托管 (§10).
        record = await db(GameRecord.objects.get)(pk=game_id)
        for client in (a, again, spectator):
            await client.close()
        return record, a.seat, events, [reconnected, watched, asked]

    record, seat, events, snapshots = run(scenario)
    assert record.status == GameRecord.Status.PLAYING and record.turn == seat
    assert record.deadline is not None and record.deadline > timezone.now()
    for snapshot in snapshots:
        game = snapshot["game"]
        assert (game["seq"], game["turn"]) == (record.seq, seat)
        assert game["deadline"] == record.deadline.isoformat()
        assert datetime.fromisoformat(game["deadline"]) == record.deadline
    # The same text the events message that led to this state carried.
    assert events and events[-1]["deadline"] == record.deadline.isoformat()


@pytest.mark.django_db(transaction=True)
def test_the_snapshot_of_a_finished_game_has_a_null_deadline():
    room = make_room(escape_mode="end_game")
    alice = make_person("alice")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        (a,) = await connect_all(table_id, alice)
        await start_game([a])
        await a.send({"type": "leave", "seq": a.seq})  # an escape ends the game
        await a.expect("events", lambda m: m["events"][-1]["type"] == "settled")
        await a.send({"type": "snapshot", "ref": "after"})
        after = await a.expect("snapshot", lambda m: m.get("ref") == "after")
        await a.close()
        return after

    game = run(scenario)["game"]
    assert game["status"] == "ended" and game["settlement"] is not None
    assert game["turn"] is None and game["deadline"] is None
    assert GameRecord.objects.get(pk=game["id"]).deadline is None


@pytest.mark.django_db
def test_game_view_and_the_games_api_carry_the_deadline(client):
    alice = make_player("alice")
    record = start_game_with_bots(alice, make_checked_room("qq 积分", turn_seconds=20,
                                                           first_turn_seconds=30))
    record.refresh_from_db()
    assert record.deadline is not None
    # A person's turn runs for the room's time limit (20 s, or 30 s for the first play).
    assert timedelta(seconds=1) < record.deadline - timezone.now() <= timedelta(seconds=30)

    assert game_view(record, alice.pk)["deadline"] == record.deadline.isoformat()
    assert game_view(record, None)["deadline"] == record.deadline.isoformat()
    api = client.get(reverse("api-game", args=[record.pk])).json()
    assert datetime.fromisoformat(api["deadline"].replace("Z", "+00:00")) == record.deadline

    game_act(user_id=alice.pk, game_id=record.pk, action="leave")
    record.refresh_from_db()
    assert record.status == GameRecord.Status.ENDED
    assert game_view(record, alice.pk)["deadline"] is None
    assert client.get(reverse("api-game", args=[record.pk])).json()["deadline"] is None
