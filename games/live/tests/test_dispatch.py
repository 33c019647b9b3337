"""The plumbing every socket relies on: handler dispatch and sends after commit."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.consumer import AsyncConsumer
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games.live.broadcast import send_now
from games.live.dispatch import DirectDispatchMixin


class Probe(DirectDispatchMixin, AsyncConsumer):
    async def table_changed(self, message: dict) -> None:
        self.got = message


class PlainProbe(AsyncConsumer):
    async def table_changed(self, message: dict) -> None:
        self.got = message


def test_direct_dispatch_skips_the_database_thread_hop(monkeypatch):
    hops = []

    async def hop() -> None:
        hops.append(1)

    monkeypatch.setattr("channels.consumer.aclose_old_connections", hop)

    async def dispatch(consumer) -> dict:
        await consumer.dispatch({"type": "table.changed", "seq": 7})
        return consumer.got

    assert async_to_sync(dispatch)(Probe()) == {"type": "table.changed", "seq": 7}
    assert hops == []
    # Channels' own dispatch makes the hop: the probe above would notice a regression.
    assert async_to_sync(dispatch)(PlainProbe())["seq"] == 7
    assert hops == [1]


def test_direct_dispatch_refuses_a_message_without_a_handler():
    with pytest.raises(ValueError, match="table.unknown"):
        async_to_sync(Probe().dispatch)({"type": "table.unknown"})


# database_sync_to_async closes stale connections on its way in: with a connection a
# previous test left open (which one ran before depends on the xdist worker), that is
# database access, refused without the mark. Transactional: inside a test transaction
# the check would see autocommit off and close the connection under the test.
@pytest.mark.django_db(transaction=True)
def test_sends_from_the_server_threads_arrive_in_order():
    """send_now from a database thread returns at once; the loop sends in call order."""
    layer = get_channel_layer()

    def send_many() -> None:
        for seq in range(1, 51):
            send_now("sockets-test", {"type": "game.events", "seq": seq})

    async def scenario() -> list[int]:
        channel = await layer.new_channel()
        await layer.group_add("sockets-test", channel)
        await database_sync_to_async(send_many)()
        got = [(await asyncio.wait_for(layer.receive(channel), 5))["seq"] for _ in range(50)]
        await layer.group_discard("sockets-test", channel)
        return got

    assert async_to_sync(scenario)() == list(range(1, 51))


@pytest.mark.django_db(transaction=True)
def test_an_announce_that_cannot_be_sent_fails_neither_the_commit_nor_what_follows(
        monkeypatch):
    from django.db import transaction

    from games.live.broadcast import announce_table
    from games.live.seating import table_create
    from games.models import Room, RuleSetConfig
    from games.presets import rule_set_presets_load

    rule_set_presets_load()
    room = Room.objects.create(name="announce", rule_set=RuleSetConfig.objects.get(name="qq"))
    table = table_create(room)

    def refuse(group: str, message: dict) -> None:
        raise ConnectionError("layer down")

    monkeypatch.setattr("games.live.broadcast.send_now", refuse)
    after = []
    with transaction.atomic():
        announce_table(table.pk)
        transaction.on_commit(lambda: after.append("settle"))
    assert after == ["settle"]
