"""One person and three bots play a whole points game over the real socket."""

import pytest
from channels.testing import WebsocketCommunicator

from games.live.seating import room_quick_join
from games.models import GameRecord
from games.testing.live_helpers import APPLICATION, RECEIVE_SECONDS, make_person, make_room, run
from ledger.audit import ledger_violations

pytestmark = pytest.mark.django_db(transaction=True)


async def settled_event(communicator: WebsocketCommunicator) -> dict:
    """Listen (托管 plays the person's turns) until the ``settled`` event arrives."""
    while True:
        message = await communicator.receive_json_from(timeout=RECEIVE_SECONDS)
        if message["type"] == "events":
            for event in message["events"]:
                if event["type"] == "settled":
                    return event


def test_one_person_and_three_bots_play_a_points_game_to_settlement():
    room = make_room()
    user = make_person("alice")
    seat = room_quick_join(user=user, room_id=room.pk)

    async def scenario():
        communicator = WebsocketCommunicator(APPLICATION, f"/ws/table/{seat.table_id}/")
        communicator.scope["user"] = user
        connected, _ = await communicator.connect()
        assert connected
        snapshot = await communicator.receive_json_from()
        assert snapshot["type"] == "snapshot"
        await communicator.send_json_to({"type": "ready"})
        await communicator.send_json_to({"type": "trustee", "on": True})
        settled = await settled_event(communicator)
        await communicator.disconnect()
        return settled

    settled = run(scenario, 30)
    record = GameRecord.objects.get()
    assert record.status == GameRecord.Status.ENDED and record.settled_at is not None
    assert settled["points"] == record.settlement["points"]
    assert ledger_violations() == []
