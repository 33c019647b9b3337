"""What keeps a live table going (RULES §10, docs/protocol.md): disconnects and
reconnects, turn and ready timeouts through the sweeper, and the sweep that settles
a game whose settlement task was lost."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine.game import TIMEOUT_WARNING
from games.live import sweeps
from games.live.seating import room_quick_join
from games.live.snapshots import engine_snapshot
from games.models import GameRecord, Seat, Table
from games.testing import live_helpers
from games.testing.live_helpers import (
    TableClient,
    connect_all,
    counts_of_codes,
    db,
    events_of,
    expire_turn,
    make_person,
    make_room,
    pump,
    run,
    seat_users,
    start_game,
)
from ledger.audit import ledger_violations
from ledger.models import Currency
from ledger.services import balance_of

pytestmark = pytest.mark.django_db(transaction=True)
# Autouse: each test gets a channel-layer prefix of its own (see live_helpers).
private_channel_layer = live_helpers.private_channel_layer


def engine_of(game_id: int):
    return engine_snapshot(GameRecord.objects.get(pk=game_id))


def seat_row(user) -> Seat:
    return Seat.objects.get(user=user)


# --- disconnect and reconnect -------------------------------------------------------------

def test_a_disconnected_seat_goes_to_trustee_and_the_player_takes_it_back_after_reconnecting():
    room = make_room()
    alice, bob = make_person("alice"), make_person("bob")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        a, b = await connect_all(table_id, alice, bob)
        game_id = await start_game([a, b])
        seat = a.seat
        await a.close()
        heard = await b.expect("events", lambda message: any(
            event["type"] == "trustee" for event in message["events"]))
        disconnected = await db(seat_row)(alice)
        # 托管 plays for alice while she is away: let bob play until it has.
        mark = heard["events"][0]["seq"]

        def trustee_moved() -> bool:
            return any(event["seq"] > mark and event.get("seat") == seat
                       and event["type"] in ("play", "pass") and event["by"] != "player"
                       for message in b.log if message["type"] == "events"
                       for event in message["events"])

        await pump([b], trustee_moved)
        again = TableClient(alice, table_id)
        snapshot = await again.connect()
        engine = await db(engine_of)(game_id)
        record = await db(GameRecord.objects.get)(pk=game_id)
        reconnected = await db(seat_row)(alice)
        await again.send({"type": "trustee", "on": False, "seq": again.seq})
        back = await b.expect("events")
        await again.expect("events")
        # Control is back: the game now waits for alice on her turns.
        await pump([again, b], lambda: again.my_turn)
        waiting = await db(GameRecord.objects.get)(pk=game_id)
        assert await again.silent(0.3)
        await again.play_turn()
        played = await again.expect("events")
        for client in (again, b):
            await client.close()
        return (seat, heard, disconnected, snapshot, engine, record, reconnected, back,
                waiting, played)

    (seat, heard, disconnected, snapshot, engine, record, reconnected, back, waiting,
     played) = run(scenario)
    assert heard["events"][0] == {"seq": heard["events"][0]["seq"], "type": "trustee",
                                  "seat": seat, "on": True, "reason": "disconnect"}
    assert disconnected.connected is False and reconnected.connected is True
    # The reconnect snapshot is the whole current state, with alice's own hand.
    game = snapshot["game"]
    assert snapshot["seq"] == game["seq"] == record.seq
    assert game["seat"] == seat and game["hand"] == engine.hands[seat]
    assert game["hand_counts"] == [len(hand) for hand in engine.hands]
    # Reconnecting alone does not cancel 托管 (RULES §10: the player may take it back).
    assert game["trustee"][seat] is True
    assert [(event["seq"], event["type"]) for event in game["history"]] == [
        (event["seq"], event["type"]) for event in engine.events]
    assert back["events"] == [{"seq": record.seq + 1, "type": "trustee", "seat": seat,
                               "on": False, "reason": "player"}]
    assert waiting.turn == seat and waiting.status == GameRecord.Status.PLAYING
    assert played["events"][0]["seat"] == seat and played["events"][0]["by"] == "player"


# --- turn timeouts ------------------------------------------------------------------------

def test_timeouts_warn_play_the_trustee_move_and_the_third_one_means_trustee():
    room = make_room(turn_seconds=20, first_turn_seconds=30)
    alice, bob = make_person("alice"), make_person("bob")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        a, b = await connect_all(table_id, alice, bob)
        game_id = await start_game([a, b])
        people = {a.seat, b.seat}
        seen = []
        while True:
            record = await db(GameRecord.objects.get)(pk=game_id)
            if record.status != GameRecord.Status.PLAYING:
                break
            assert record.turn in people  # bots and 托管 seats never hold the turn
            assert record.deadline > timezone.now() + timedelta(seconds=15)
            # Before the deadline the sweep leaves the turn alone.
            assert await db(sweeps.sweep_deadlines)() == 0
            engine = await db(engine_of)(game_id)
            seat = record.turn
            expected = engine.trustee_cards(seat)
            await db(expire_turn)(game_id)
            assert await db(sweeps.sweep_deadlines)() == 1
            message = await a.expect("events")
            await b.expect("events", lambda m, seq=message["seq"]: m["seq"] == seq)
            seen.append((seat, expected, message))
        settled = await a.expect("events", lambda m: m["events"][-1]["type"] == "settled")
        for client in (a, b):
            await client.close()
        return seen, settled

    seen, settled = run(scenario)
    counts: dict[int, int] = {}
    for seat, expected, message in seen:
        counts[seat] = counts.get(seat, 0) + 1
        events = message["events"]
        assert events[0] == {"seq": events[0]["seq"], "type": "timeout", "seat": seat,
                             "count": counts[seat],
                             "message": TIMEOUT_WARNING.format(count=counts[seat])}
        rest = events[1:]
        if counts[seat] == 3:
            assert rest[0] == {"seq": rest[0]["seq"], "type": "trustee", "seat": seat,
                               "on": True, "reason": "timeouts"}
            rest = rest[1:]
        move = rest[0]
        assert move["seat"] == seat and move["by"] == "timeout"
        if expected is None:
            assert move["type"] == "pass"
        else:
            assert move["type"] == "play"
            assert counts_of_codes(move["cards"]) == expected
    assert "请注意，你已经超时 1 次了，超时三次，系统将自动托管游戏" in str(seen[0][2])
    # Both people timed out three times; then 托管 and the bots finished the game.
    assert sorted(counts.values()) == [3, 3]
    record = GameRecord.objects.get()
    assert record.settled_at is not None and settled["events"][-1]["seq"] == record.seq
    assert ledger_violations() == []


# --- ready timeout --------------------------------------------------------------------------

def late(user) -> None:
    Seat.objects.filter(user=user).update(ready_deadline=timezone.now() - timedelta(seconds=1))


def test_a_person_who_does_not_get_ready_in_time_loses_the_seat():
    room = make_room()
    alice, bob = make_person("alice"), make_person("bob")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id
    room_quick_join(user=bob, room_id=room.pk)

    async def scenario():
        a, b = await connect_all(table_id, alice, bob)
        await db(sweeps.sweep_tables)()  # bots join alice and bob, who are not ready
        before = await db(seat_users)(table_id)
        await db(late)(bob)
        await db(sweeps.sweep_tables)()
        heard = await a.expect("table", lambda m: bob.pk not in
                               [seat["user"] for seat in m["table"]["seats"]])
        after_bob = await db(seat_users)(table_id)
        await db(late)(alice)
        await db(sweeps.sweep_tables)()
        emptied = await b.expect("table", lambda m: all(
            seat["user"] is None for seat in m["table"]["seats"]))
        for client in (a, b):
            await client.close()
        return before, heard, after_bob, emptied

    before, heard, after_bob, emptied = run(scenario)
    assert before[:2] == [alice.pk, bob.pk]
    # Bob was removed; alice (whose time is not up) stays, with bots around her.
    assert bob.pk not in after_bob and after_bob[0] == alice.pk
    assert [seat["user"] for seat in heard["table"]["seats"]][0] == alice.pk
    # When alice's time is up too, she goes and the bots stand up with her.
    assert seat_users(table_id) == [None] * 4
    assert Table.objects.get(pk=table_id).status == Table.Status.WAITING
    assert not GameRecord.objects.exists()


# --- the lost settlement --------------------------------------------------------------------

def lost(game_id: int) -> None:
    """The task was enqueued but never ran (a lost message, a crashed worker)."""


def broker_down(game_id: int) -> None:
    raise ConnectionError("the broker refused the task")


@pytest.mark.parametrize("enqueue", [lost, broker_down], ids=["lost", "broker_down"])
def test_a_game_whose_settlement_task_was_lost_is_settled_by_the_sweeper(
        enqueue, monkeypatch, settings):
    # Either way the player whose move ended the game keeps a working socket (the move
    # committed), and the sweeper settles the game after the grace period.
    monkeypatch.setattr("games.live.lifecycle.steps.enqueue_settlement", enqueue)
    room = make_room(stake_unit=5)
    alice = make_person("alice")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        a = TableClient(alice, table_id)
        await a.connect()
        await a.send({"type": "ready"})
        await a.expect("snapshot", lambda m: bool(m["game"] and m["game"]["hand"]))
        await a.send({"type": "trustee", "on": True})
        ended = await a.expect("events", lambda m: m["events"][-1]["type"] == "end")
        assert await a.silent(0.3)  # no settlement comes
        record = await db(GameRecord.objects.get)()
        table = await db(Table.objects.get)(pk=table_id)
        assert record.settled_at is None and table.status == Table.Status.PLAYING
        assert await db(sweeps.sweep_unsettled)() == 0  # still within the grace period
        settings.GAMES_SETTLE_GRACE_SECONDS = 0
        assert await db(sweeps.sweep_unsettled)() == 1
        settled = await a.expect("events")
        assert await db(sweeps.sweep_unsettled)() == 0  # exactly once
        await a.send({"type": "snapshot", "ref": "alive"})
        assert (await a.expect("snapshot"))["ref"] == "alive"
        await a.close()
        return ended, settled

    ended, settled = run(scenario)
    record = GameRecord.objects.get()
    assert record.settled_at is not None
    assert settled["events"] == [{"seq": ended["seq"] + 1, "type": "settled",
                                  **record.settlement}]
    assert record.settlement["points"] == [score * 5 for score in record.result["scores"]]
    seat = record.players.index(alice.pk)
    assert balance_of(alice, Currency.POINT) == record.result["scores"][seat] * 5
    assert Table.objects.get(pk=table_id).status == Table.Status.WAITING
    assert [event["type"] for event in events_of(record.pk)][-2:] == ["end", "settled"]
    assert ledger_violations() == []
