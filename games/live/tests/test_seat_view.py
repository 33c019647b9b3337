"""The clients' fold over the real socket: after a whole game with a 明牌 swap, the view
each TableClient folded from the public events (games.engine.seat_view) is the view the
server gives that user (games.selectors.game_view), for the players and a spectator."""

import asyncio

import pytest

from games.live.seating import room_quick_join
from games.live.snapshots import game_view
from games.models import GameRecord
from games.testing import live_helpers
from games.testing.live_helpers import (
    TableClient,
    events_of,
    make_person,
    make_room,
    run,
    start_game,
)

pytestmark = pytest.mark.django_db(transaction=True)
# Autouse: each test gets a channel-layer prefix of its own (see live_helpers).
private_channel_layer = live_helpers.private_channel_layer

VIEW_KEYS = {  # Game.view's
    "seq", "status", "rules", "players", "seat", "hand", "hand_counts", "turn", "leader",
    "current", "trick", "finish", "trustee", "timeouts", "revealed", "swapped", "escaped",
    "result", "history"}


def test_the_folded_views_are_the_servers_views_after_a_game_with_a_swap(monkeypatch):
    # Deal seed 4 swaps seats 0 and 3 (as in test_socket.py): alice moves from 0 to 3.
    monkeypatch.setattr("games.live.lifecycle.deal.deal_seed", lambda table: 4)
    room = make_room()
    alice, bob, carol = make_person("alice"), make_person("bob"), make_person("carol")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        a, b, c = (TableClient(user, table_id) for user in (alice, bob, carol))
        for client in (a, b, c):
            await client.connect()
        await start_game([a, b])
        await asyncio.gather(a.play_until_settled(), b.play_until_settled("first"),
                             c.follow_until_settled())
        for client in (a, b, c):
            await client.close()
        return a, b, c

    a, b, c = run(scenario)
    record = GameRecord.objects.get()
    assert events_of(record.pk, "swap")[0]["seats"] == [0, 3] and a.seat == 3
    # carol watched from before the deal: her view was folded from the deal on.
    assert all(message["game"] is None for message in c.log if message["type"] == "snapshot")
    assert c.hand is None and c.seat is None
    for client, user in ((a, alice), (b, bob), (c, carol)):
        assert client.gaps == 0 and client.errors == []
        server = game_view(record, user.pk)
        assert VIEW_KEYS <= set(client.view)
        for key in sorted(set(client.view) - {"deadline"}):
            assert client.view[key] == server[key], (user.nickname, key)
