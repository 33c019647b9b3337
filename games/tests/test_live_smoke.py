"""One person and three bots play a whole points game over the real socket."""

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from accounts.models import User
from games.models import GameRecord, Room, RuleSetConfig
from games.routing import websocket_urlpatterns
from games.services import rule_set_presets_load
from games.tables import room_quick_join
from ledger.audit import ledger_violations

pytestmark = pytest.mark.django_db(transaction=True)


async def play_to_the_end(communicator, user_id):
    """Answer every turn with the 托管 toggle on, then wait for the settlement."""
    while True:
        message = await communicator.receive_json_from(timeout=10)
        if message["type"] == "events" and any(
                event["type"] == "settled" for event in message["events"]):
            return message


def test_one_person_and_three_bots_play_a_points_game_to_settlement():
    rule_set_presets_load()
    room = Room.objects.create(name="qq 积分", rule_set=RuleSetConfig.objects.get(name="qq"))
    user = User.objects.create_user(username="alice", password="pw")
    seat = room_quick_join(user=user, room_id=room.pk)

    async def scenario():
        communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns),
                                             f"/ws/table/{seat.table_id}/")
        communicator.scope["user"] = user
        connected, _ = await communicator.connect()
        assert connected
        snapshot = await communicator.receive_json_from()
        assert snapshot["type"] == "snapshot"
        await communicator.send_json_to({"type": "ready"})
        await communicator.send_json_to({"type": "trustee", "on": True})
        settled = await asyncio.wait_for(play_to_the_end(communicator, user.pk), 30)
        await communicator.disconnect()
        return settled

    settled = async_to_sync(scenario)()
    record = GameRecord.objects.get()
    assert record.status == GameRecord.Status.ENDED and record.settled_at is not None
    assert settled["events"][0]["points"] == record.settlement["points"]
    assert ledger_violations() == []
