"""At a deal each seat's snapshot comes built, in its seat's message
(games.live.lifecycle.deal.game_start): the sockets send it without a trip to the process's
one database thread, where four reads at every deal queued ahead of every table's
actions. Real consumer, real Redis channel layer, real PostgreSQL."""

import asyncio
import json

import pytest
from channels.layers import get_channel_layer

from games.live import snapshots
from games.live.broadcast import seat_group, table_group
from games.live.lifecycle.deal import deal_snapshots
from games.live.seating import room_quick_join, table_ready
from games.models import GameRecord, Table
from games.testing import live_helpers
from games.testing.live_helpers import (
    RECEIVE_SECONDS,
    connect_all,
    db,
    events_of,
    make_person,
    make_room,
    run,
    start_game,
)

pytestmark = pytest.mark.django_db(transaction=True)
# Autouse: each test gets a channel-layer prefix of its own (see live_helpers).
private_channel_layer = live_helpers.private_channel_layer

SEED_WITHOUT_SWAP = 1  # checked in the test: nobody changes seats at this deal
SEED_WITH_SWAP = 4  # seats 0 and 3 swap (as in test_socket.py)


@pytest.fixture
def reads(monkeypatch) -> list[tuple[int, int]]:
    """Every snapshot the table sockets read from the database: (table, user)."""
    calls: list[tuple[int, int]] = []
    read = snapshots.table_snapshot

    def counted(table_id: int, user_id: int) -> dict:
        calls.append((table_id, user_id))
        return read(table_id, user_id)

    monkeypatch.setattr(snapshots, "table_snapshot", counted)
    return calls


def as_sent(message: dict) -> dict:
    """A message as a socket's client reads it (JSON)."""
    return json.loads(json.dumps(message))


def deal_snapshot(client) -> dict:
    return next(message for message in client.log
                if message["type"] == "snapshot" and message["game"])


def test_each_seat_hears_at_the_deal_the_snapshot_it_reads_right_after(monkeypatch, reads):
    monkeypatch.setattr("games.live.lifecycle.deal.deal_seed", lambda table: SEED_WITHOUT_SWAP)
    room = make_room()
    alice, bob = make_person("alice"), make_person("bob")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        a, b = await connect_all(table_id, alice, bob)
        await start_game([a, b])
        for client in (a, b):
            await client.expect("table")  # the seats' announcement, after the snapshots
        reads_at_the_deal = list(reads)
        del reads[:]
        heard = [deal_snapshot(client) for client in (a, b)]
        read = [as_sent(await db(snapshots.table_snapshot)(table_id, user.pk))
                for user in (alice, bob)]
        asked = []
        for client in (a, b):
            await client.send({"type": "snapshot"})
            asked.append(await client.expect("snapshot"))
        record = await db(GameRecord.objects.get)()  # before the closes put both in 托管
        for client in (a, b):
            await client.close()
        return reads_at_the_deal, heard, read, asked, record

    reads_at_the_deal, heard, read, asked, record = run(scenario)
    assert events_of(record.pk, "swap") == []  # each socket is in its player's seat group
    # The connect snapshots were read; the deal's were not.
    assert [user for _, user in reads_at_the_deal] == [alice.pk, bob.pk]
    for seat_heard, seat_read, seat_asked, user in zip(heard, read, asked, (alice, bob)):
        assert seat_heard == seat_read == seat_asked
        assert seat_heard["seq"] == record.seq and seat_heard["game"]["seq"] == record.seq
        assert seat_heard["game"]["seat"] == record.players.index(user.pk)
        assert seat_heard["game"]["status"] == "playing" and seat_heard["game"]["hand"]
        assert seat_heard["game"]["deadline"] is not None


def test_each_players_hand_goes_to_the_group_their_sockets_are_in_even_after_a_swap(
        monkeypatch, reads):
    monkeypatch.setattr("games.live.lifecycle.deal.deal_seed", lambda table: SEED_WITH_SWAP)
    room = make_room()
    alice, bob = make_person("alice"), make_person("bob")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        layer = get_channel_layer()
        listeners = []
        for seat in range(4):  # what each seat's private group carries, bots' seats too
            channel = await layer.new_channel()
            await layer.group_add(seat_group(table_id, seat), channel)
            listeners.append(channel)
        a, b = await connect_all(table_id, alice, bob)
        del reads[:]
        await start_game([a, b])
        carried = [await asyncio.wait_for(layer.receive(channel), RECEIVE_SECONDS)
                   for channel in listeners]
        for client in (a, b):
            await client.expect("table")
        reads_at_the_deal = list(reads)
        record = await db(GameRecord.objects.get)()
        read = [as_sent(await db(snapshots.table_snapshot)(table_id, user))
                for user in record.players]
        for client in (a, b):
            await client.close()
        return carried, reads_at_the_deal, read, a.log

    carried, reads_at_the_deal, read, alice_heard = run(scenario)
    record = GameRecord.objects.get()
    assert events_of(record.pk, "swap")[0]["seats"] == [0, 3] and record.players[3] == alice.pk
    hands = [seat_read["game"]["hand"] for seat_read in read]
    before_swap = {0: 3, 3: 0, 1: 1, 2: 2}  # seat listened on -> the seat its player took
    for listened, message in enumerate(carried):
        seat = before_swap[listened]
        assert message["type"] == "game.snapshot" and message["game"] == record.pk
        assert message["user"] == record.players[seat]
        assert as_sent(message["snapshot"]) == read[seat]
        text = json.dumps(message)
        assert '"hands"' not in text and '"seed"' not in text
        for other, hand in enumerate(hands):
            if other != seat:
                assert not set(hand) & set(message["snapshot"]["game"]["hand"])
    # alice's socket was still in seat 0's group at the deal, and her own hand (seat 3's
    # now) came there: no socket read its snapshot from the database.
    assert reads_at_the_deal == []
    games = [message["game"] for message in alice_heard
             if message["type"] == "snapshot" and message["game"]]
    assert games and all(game["seat"] == 3 and game["hand"] == hands[3] for game in games)


def test_a_bare_game_snapshot_makes_the_socket_read_one(reads):
    room = make_room()
    alice = make_person("alice")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        (a,) = await connect_all(table_id, alice)
        del reads[:]
        # As games.live.delivery nudges a table that missed its events.
        await get_channel_layer().group_send(table_group(table_id),
                                             {"type": "game.snapshot", "game": None})
        snapshot = await a.expect("snapshot")
        reads_for_it = list(reads)
        read = as_sent(await db(snapshots.table_snapshot)(table_id, alice.pk))
        await a.close()
        return snapshot, reads_for_it, read

    snapshot, reads_for_it, read = run(scenario)
    assert reads_for_it == [(table_id, alice.pk)]
    assert snapshot == read


def test_a_carried_snapshot_is_sent_as_it_is_to_its_user_only(reads):
    room = make_room()
    alice, bob = make_person("alice"), make_person("bob")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id
    carried = {"type": "snapshot", "seq": 7, "table": {"id": table_id},
               "game": None, "marker": "carried"}

    async def scenario():
        (a,) = await connect_all(table_id, alice)
        del reads[:]
        layer = get_channel_layer()
        await layer.group_send(seat_group(table_id, 0), {
            "type": "game.snapshot", "game": 1, "user": alice.pk, "snapshot": carried})
        mine = await a.expect("snapshot")
        reads_for_mine = list(reads)
        await layer.group_send(seat_group(table_id, 0), {
            "type": "game.snapshot", "game": 1, "user": bob.pk, "snapshot": carried})
        not_mine = await a.expect("snapshot")
        await a.close()
        return mine, reads_for_mine, not_mine

    mine, reads_for_mine, not_mine = run(scenario)
    assert mine == carried and reads_for_mine == []
    # Someone else's seat snapshot (a socket left in a swapped seat's group) is not sent:
    # the socket reads its user's own.
    assert not_mine != carried and not_mine["seq"] == 0
    assert reads == [(table_id, alice.pk)]


def test_a_deals_snapshots_do_not_change_when_the_engine_moves_on():
    # The warm engine moves on in place at the next action, maybe before the layer has
    # encoded the deal's messages: they must share nothing with it.
    alice = make_person("alice")
    table_id = room_quick_join(user=alice, room_id=make_room().pk).table_id
    table_ready(user=alice)  # the test settings fill the table with bots at once
    table = Table.objects.get(pk=table_id)
    record = table.current_game
    game = snapshots._unshared_copy(snapshots.engine_snapshot(record))
    seat = record.players.index(alice.pk)

    built = deal_snapshots(table, record, game)
    before = json.dumps(built)
    game.set_trustee(seat, True, "player")
    game.hands[seat].clear()

    assert json.dumps(built) == before
    assert built[seat]["game"]["hand"] and built[seat]["game"]["trustee"][seat] is False


def test_a_deal_reads_the_bots_and_the_four_wallets_once_each(django_assert_max_num_queries):
    """The deal runs in one transaction while the table is locked, on the database
    thread every table of the process shares: the players' bot flags and coins are
    read for all four at once, not once per seat (29 queries before; 20 now)."""
    room = make_room()
    players = [make_person(f"p{index}") for index in range(4)]
    for player in players:
        room_quick_join(user=player, room_id=room.pk)
    for player in players[:3]:
        table_ready(user=player)
    with django_assert_max_num_queries(20):
        table_ready(user=players[3])
    assert GameRecord.objects.filter(room=room).count() == 1
