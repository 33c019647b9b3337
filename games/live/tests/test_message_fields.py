"""The types of a message's fields on the table socket (games.live.message_fields,
docs/protocol.md "Messages"): a seat or a seq is a whole number, never JSON's true or
false (Python's bool is an int) nor a string or 1.0; a flag is true or false. Anything
else is refused with a message saying so, and nothing changes."""

import pytest

from games.errors import ActionError
from games.live.message_fields import is_whole_number
from games.live.seating import room_quick_join, table_sit
from games.models import Seat
from games.testing.live_helpers import TableClient, db, make_person, make_room, run, seat_users

pytestmark = pytest.mark.django_db(transaction=True)

NOT_SEATS = [True, False, "1", 1.0, [1], {"index": 1}]


def test_a_whole_number_is_an_int_and_not_a_bool():
    assert [is_whole_number(value) for value in (0, 3, -1)] == [True, True, True]
    assert not any(is_whole_number(value) for value in (True, False, None, *NOT_SEATS))


def test_a_seat_that_is_not_a_whole_number_is_refused_over_the_socket_and_nobody_sits():
    room = make_room(bots_allowed=False)
    alice, bob = make_person("alice"), make_person("bob")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        a, b = TableClient(alice, table_id), TableClient(bob, table_id)
        await a.connect()
        await b.connect()
        refusals = []
        for number, seat in enumerate(NOT_SEATS):
            await b.send({"type": "sit", "seat": seat, "ref": number})
            refusals.append(await b.expect("error"))
        seats = await db(seat_users)(table_id)
        await b.send({"type": "sit", "seat": 2})
        sat = await a.expect("table", lambda message: message["table"]["seats"][2]["user"]
                             == bob.pk)
        # What the table heard before the real sit (alice's own `connected`, maybe):
        # none of it seats bob.
        heard = [message["table"] for message in a.log[:a.log.index(sat)]
                 if message["type"] in ("table", "snapshot")]
        quiet = all(bob.pk not in [entry["user"] for entry in table["seats"]]
                    for table in heard)
        await a.close()
        await b.close()
        return refusals, quiet, seats

    refusals, quiet, seats = run(scenario)
    assert refusals[0] == {"type": "error", "code": "bad_seat", "ref": 0,
                           "message": "a seat is a whole number counted from 0, not true"}
    assert [refusal["message"].split(", not ", 1)[1] for refusal in refusals] == \
        ["true", "false", '"1"', "1.0", "[1]", '{"index": 1}']
    assert all(refusal["code"] == "bad_seat" for refusal in refusals)
    assert quiet and seats == [alice.pk, None, None, None]


def test_the_seating_service_refuses_a_bool_seat_whoever_calls_it():
    room = make_room(bots_allowed=False)
    alice = make_person("alice")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id
    bob = make_person("bob")

    with pytest.raises(ActionError) as refused:
        table_sit(user=bob, table_id=table_id, seat_index=True)

    assert refused.value.code == "bad_seat"
    assert not Seat.objects.filter(user=bob).exists()


def test_ready_must_be_true_or_false_and_a_refusal_leaves_the_seat_as_it_was():
    room = make_room(bots_allowed=False)
    alice = make_person("alice")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        a = TableClient(alice, table_id)
        await a.connect()
        refusals = []
        for value in ("false", 0, 1, None):
            await a.send({"type": "ready", "ready": value, "ref": "r"})
            refusals.append(await a.expect("error"))
        ready = await db(lambda: Seat.objects.get(user=alice).is_ready)()
        await a.send({"type": "ready"})  # left out: ready
        await a.expect("table", lambda message: message["table"]["seats"][0]["ready"])
        await a.close()
        return refusals, ready

    refusals, ready = run(scenario)
    assert {refusal["message"] for refusal in refusals} == {'"ready" must be true or false'}
    assert ready is False
