"""A banned player's sit over the table socket is refused with the reason and the time
left, and seats nobody (real consumer, Redis channel layer, PostgreSQL)."""

from __future__ import annotations

import pytest

from fair_play.bans import ban_status
from games.live.lifecycle.act import game_act
from games.live.seating import table_create
from games.models import Room, Seat
from games.testing import live_helpers
from games.testing.live_helpers import connect_all, make_person, make_room, run
from games.testing.room_helpers import start_game_with_bots

pytestmark = pytest.mark.django_db(transaction=True)
private_channel_layer = live_helpers.private_channel_layer


def test_a_banned_players_socket_sit_is_refused(settings):
    settings.FAIR_PLAY_BAN_LADDER = ["600", "3600"]
    room = make_room(escape_mode=Room.EscapeMode.END_GAME)
    alice = make_person("alice")
    for _ in range(2):  # a warning, then a ban of 10 minutes
        record = start_game_with_bots(alice, room)
        game_act(user_id=alice.pk, game_id=record.pk, action="leave")
    assert ban_status(alice.pk).banned
    table_id = table_create(room).pk

    async def scenario():
        (a,) = await connect_all(table_id, alice)
        await a.send({"type": "sit", "seat": 0, "ref": "banned"})
        refused = await a.expect("error")
        await a.close()
        return refused

    refused = run(scenario)
    assert refused["code"] == "play_banned" and refused["ref"] == "banned"
    assert "10" in refused["message"]
    assert not Seat.objects.filter(user=alice).exists()
