"""Every error in the table socket is answered or closes the socket cleanly, and the
disconnect handling always runs: a socket that died on an exception left
its seat `connected` and wrote no 托管."""

import json

import pytest
from channels.layers import get_channel_layer

from games.live import seating, snapshots
from games.live.broadcast import table_group
from games.live.seating import room_quick_join, table_create
from games.live.table_socket import TableConsumer
from games.models import Seat
from games.testing.live_helpers import (
    connect_all,
    db,
    events_of,
    make_person,
    make_room,
    run,
    start_game,
)

pytestmark = pytest.mark.django_db(transaction=True)


def seat_row(user) -> Seat:
    return Seat.objects.get(user=user)


def test_a_deeply_nested_frame_is_refused_and_the_later_disconnect_puts_the_seat_in_trustee():
    room = make_room()
    alice = make_person("alice")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        (a,) = await connect_all(table_id, alice)
        game_id = await start_game([a])
        await a.drain()
        # 4,000 bytes: under the size limit, 2,000 levels deep (RecursionError in json.loads).
        await a.send_text("[" * 2000 + "]" * 2000)
        refused = await a.expect("error")
        await a.send({"type": "snapshot", "ref": "still-here"})
        answered = await a.expect("snapshot")
        await a.close()
        return game_id, refused, answered

    game_id, refused, answered = run(scenario)
    assert refused["message"].startswith("JSON nested too deeply")
    assert answered["ref"] == "still-here"
    assert seat_row(alice).connected is False
    assert [event["reason"] for event in events_of(game_id, "trustee")] == ["disconnect"]


def test_an_unexpected_exception_is_answered_with_server_error_and_the_seat_is_released(
        monkeypatch):
    room = make_room()
    alice = make_person("alice")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    async def scenario():
        (a,) = await connect_all(table_id, alice)
        connected = (await db(seat_row)(alice)).connected
        monkeypatch.setattr(seating, "ready_by_id", broken)
        await a.send({"type": "ready", "ref": 1})
        error = await a.expect("error")
        monkeypatch.undo()
        await a.send({"type": "snapshot"})
        await a.expect("snapshot")
        await a.close()
        return connected, error

    connected, error = run(scenario)
    assert connected is True
    assert error["code"] == "server_error" and error["message"]
    assert seat_row(alice).connected is False  # the disconnect handling ran


def test_a_sit_that_loses_the_race_for_the_users_one_seat_is_refused_not_dropped(
        monkeypatch):
    room = make_room()
    alice, bob = make_person("alice"), make_person("bob")
    first = room_quick_join(user=bob, room_id=room.pk).table_id
    second = table_create(room).pk
    check = seating._check_can_sit

    def other_socket_sits_meanwhile(user, room):
        # What alice's other socket does at the same moment at another table: both
        # sits passed the "already seated?" check under two different table locks.
        free = Seat.objects.filter(table_id=first, user__isnull=True).order_by("index").first()
        Seat.objects.filter(pk=free.pk).update(user=user)
        check(user, room)

    async def scenario():
        (a,) = await connect_all(second, alice)
        monkeypatch.setattr(seating, "_check_can_sit", other_socket_sits_meanwhile)
        await a.send({"type": "sit", "ref": "race"})
        refused = await a.expect("error")
        monkeypatch.undo()
        await a.send({"type": "snapshot"})
        answered = await a.expect("snapshot")
        await a.close()
        return refused, answered

    refused, answered = run(scenario)
    assert refused["code"] == "already_seated" and refused["ref"] == "race"
    assert refused["message"] == "you are already seated at another table; stand up first"
    assert alice.pk not in [seat["user"] for seat in answered["table"]["seats"]]


def not_json(constant: str):
    raise AssertionError(f"the server sent {constant}, which JSON.parse refuses")


def test_nan_in_a_frame_is_refused_and_never_echoed():
    room = make_room()
    alice = make_person("alice")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        (a,) = await connect_all(table_id, alice)
        await a.drain()  # the `table` message saying alice is connected
        heard = []
        for constant in ("NaN", "Infinity", "-Infinity"):
            await a.send_text('{"type": "snapshot", "ref": ' + constant + "}")
            heard.append(await a.communicator.receive_from())
        await a.close()
        return heard

    heard = run(scenario)
    for text, constant in zip(heard, ("NaN", "Infinity", "-Infinity")):
        # Strict JSON: a browser's JSON.parse reads what the server sends.
        message = json.loads(text, parse_constant=not_json)
        assert message == {"type": "error", "message": f"JSON does not allow {constant}"}


def test_the_table_socket_never_writes_nan():
    with pytest.raises(ValueError):
        run(lambda: TableConsumer.encode_json({"type": "error", "ref": float("nan")}))


def test_a_failing_channel_layer_handler_is_answered_and_the_seat_is_released(monkeypatch):
    room = make_room()
    alice = make_person("alice")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    def broken(*args):
        raise RuntimeError("the database went away")

    async def scenario():
        (a,) = await connect_all(table_id, alice)
        monkeypatch.setattr(snapshots, "table_snapshot", broken)
        layer = get_channel_layer()
        await layer.group_send(table_group(table_id), {"type": "game.snapshot"})
        error = await a.expect("error")
        monkeypatch.undo()
        await a.send({"type": "snapshot"})
        await a.expect("snapshot")
        await a.close()
        return error

    error = run(scenario)
    assert error["code"] == "server_error"
    assert seat_row(alice).connected is False  # the disconnect handling ran
