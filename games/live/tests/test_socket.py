"""The table socket (docs/protocol.md) end to end: real consumer, real Redis channel
layer, real PostgreSQL. Two people play real moves beside two server bots; a third
person watches without sitting."""

import asyncio

import pytest
from channels.testing import WebsocketCommunicator

from games.engine.tests.game_helpers import codes_in
from games.live.seating import room_quick_join
from games.models import GameRecord, Seat, Table
from games.testing import live_helpers
from games.testing.live_helpers import (
    APPLICATION,
    CARD_BY_CODE,
    TableClient,
    connect_all,
    events_of,
    make_person,
    make_room,
    run,
    start_game,
)
from ledger.audit import ledger_violations
from ledger.models import Currency
from ledger.services import balance_of

pytestmark = pytest.mark.django_db(transaction=True)
# Autouse: each test gets a channel-layer prefix of its own (see live_helpers).
private_channel_layer = live_helpers.private_channel_layer


# --- connecting ---------------------------------------------------------------------------

async def connect_and_close(communicator: WebsocketCommunicator) -> tuple[bool, dict]:
    connected, _ = await communicator.connect()
    return connected, await communicator.receive_output(timeout=5)


def test_an_anonymous_socket_is_closed_with_4401():
    room = make_room()
    table_id = room_quick_join(user=make_person("alice"), room_id=room.pk).table_id

    async def scenario():
        communicator = WebsocketCommunicator(APPLICATION, f"/ws/table/{table_id}/")
        return await connect_and_close(communicator)

    # Accepted, then closed with the code: a close before the accept would reach the
    # browser as a bare HTTP 403, without the code (ASGI spec).
    assert run(scenario) == (True, {"type": "websocket.close", "code": 4401})


def test_a_socket_for_an_unknown_table_is_closed_with_4404():
    user = make_person("alice")

    async def scenario():
        communicator = WebsocketCommunicator(APPLICATION, "/ws/table/987654321/")
        communicator.scope["user"] = user
        return await connect_and_close(communicator)

    assert run(scenario) == (True, {"type": "websocket.close", "code": 4404})


def test_sitting_and_standing_over_the_socket_tell_the_whole_table():
    room = make_room()
    alice, bob = make_person("alice"), make_person("bob")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        a, b = TableClient(alice, table_id), TableClient(bob, table_id)
        first = await a.connect()
        await b.connect()
        await b.send({"type": "sit", "seat": 2})
        sat = await a.expect("table", lambda m: m["table"]["seats"][2]["user"] == bob.pk)
        await b.expect("table", lambda m: m["table"]["seats"][2]["connected"])
        await a.drain()
        await b.drain()
        await b.send({"type": "sit", "seat": 0, "ref": "again"})
        # bob is seated already: sitting again at this table keeps his seat, silently
        assert await a.silent() and await b.silent()
        await b.send({"type": "stand"})
        stood = await a.expect("table")
        await b.expect("table")
        await b.send({"type": "snapshot", "ref": 7})
        snapshot = await b.expect("snapshot")
        await a.close()
        await b.close()
        return first, sat, stood, snapshot

    first, sat, stood, snapshot = run(scenario)
    assert first["game"] is None and first["seq"] == 0
    assert [seat["user"] for seat in first["table"]["seats"]] == [alice.pk, None, None, None]
    assert [seat["user"] for seat in sat["table"]["seats"]] == [alice.pk, None, bob.pk, None]
    assert [seat["user"] for seat in stood["table"]["seats"]] == [alice.pk, None, None, None]
    assert snapshot["ref"] == 7 and snapshot["type"] == "snapshot"


# --- a whole game ---------------------------------------------------------------------------

def play_a_game(room):
    """Two people (alice with card codes and the 托管 move, bob with rank text and the
    first legal move) and two bots play to the settlement; carol only watches."""
    alice, bob, carol = make_person("alice"), make_person("bob"), make_person("carol")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        a, b = TableClient(alice, table_id), TableClient(bob, table_id)
        c = TableClient(carol, table_id)
        await a.connect()
        await b.connect()
        await c.connect()
        await start_game([a, b])
        await asyncio.gather(a.play_until_settled("trustee", as_codes=True),
                             b.play_until_settled("first", as_codes=False),
                             c.follow_until_settled())
        for client in (a, b, c):
            await client.close()
        return a, b, c

    return (alice, bob, carol), run(scenario)


def test_two_people_and_two_bots_play_a_points_game_to_settlement():
    room = make_room(stake_unit=3)
    (alice, bob, carol), (a, b, c) = play_a_game(room)

    record = GameRecord.objects.get()
    assert record.status == GameRecord.Status.ENDED and record.settled_at is not None
    assert sorted(record.bot_seats) == sorted(set(range(4)) - {a.seat, b.seat})
    # The people really played: moves of theirs, not the bot's, are in the log.
    plays = events_of(record.pk, "play")
    for client in (a, b):
        assert any(event["seat"] == client.seat and event["by"] == "player" for event in plays)
    # Nobody saw a gap or an error, and everyone ended at the settlement's seq.
    for client in (a, b, c):
        assert client.errors == [] and client.gaps == 0
        assert client.seq == record.seq and client.settled["seq"] == record.seq
    # Points moved by the result (RULES §7): score × the room's stake unit.
    scores = record.result["scores"]
    assert record.settlement["points"] == [score * 3 for score in scores]
    assert a.settled["points"] == record.settlement["points"]
    for client, user in ((a, alice), (b, bob)):
        assert balance_of(user, Currency.POINT) == scores[client.seat] * 3
    assert balance_of(carol, Currency.POINT) == 0
    assert ledger_violations() == []
    # The spectator heard every event once, in order, ending with the end and settled.
    heard = [event for message in c.log if message["type"] == "events"
             for event in message["events"]]
    assert [event["seq"] for event in heard] == list(range(1, record.seq + 1))
    assert heard[-1] == {"seq": record.seq, "type": "settled", **record.settlement}
    assert heard[-2]["type"] == "end" and heard[-2]["result"] == record.result
    for event in heard:
        if event["type"] == "play":  # every play says how the rules read it (RULES §4.1)
            assert event["reading"]["type"] and isinstance(event["reading"]["text"], str)
            assert event["by"] in ("player", "bot", "timeout")
        elif event["type"] == "pass":
            assert event["by"] in ("player", "bot", "auto", "timeout")
    # The table is open again; the people must get ready for the next game.
    seats = {seat.user_id: seat for seat in Seat.objects.filter(table=record.table)}
    assert Table.objects.get(pk=record.table_id).status == Table.Status.WAITING
    assert not seats[alice.pk].is_ready and seats[alice.pk].ready_deadline is not None


def test_no_client_ever_receives_a_card_of_another_seats_hand():
    room = make_room()
    (alice, bob, carol), (a, b, c) = play_a_game(room)

    record = GameRecord.objects.get()
    deal = events_of(record.pk, "deal")[0]
    dealt = {player: set(hand) for player, hand in zip(deal["players"], deal["hands"])}
    public = set().union(*(event["cards"] for event in events_of(record.pk, "play")))
    for reveal in events_of(record.pk, "reveal"):  # the 明牌 is shown to all (RULES §2)
        public |= {reveal["card"], reveal["twin"]}
    # Once the game is over the cards left in each hand are public: the settled
    # event's report shows them (docs/protocol.md, "settled"). Never before the end.
    left = set().union(*(seat["left"] for seat in record.settlement["report"]["seats"]))
    assert left  # the losers held cards at the end: the check below can see them
    for client, user in ((a, alice), (b, bob)):
        end = next(index for index, message in enumerate(client.log)
                   if any(event["type"] == "end" for event in message.get("events", [])))
        seen = set().union(*(codes_in(message) for message in client.log[:end + 1]))
        later = set().union(*(codes_in(message) for message in client.log[end + 1:]))
        others = set().union(*(hand for player, hand in dealt.items() if player != user.pk))
        assert seen & (others - public) == set()
        assert later & (others - public - left) == set()
        assert dealt[user.pk] <= seen  # the check can see cards: its own hand came through
        assert any(message["type"] == "snapshot" and message["game"]
                   and message["game"]["hand"] for message in client.log)
    # The group messages (all a spectator gets) carry no hand at all before the end.
    end = next(index for index, message in enumerate(c.log)
               if any(event["type"] == "end" for event in message.get("events", [])))
    seen = set().union(*(codes_in(message) for message in c.log[:end + 1]))
    assert seen <= public and len(seen) > 20
    later = set().union(*(codes_in(message) for message in c.log[end + 1:]))
    assert left <= later <= public | left  # the hands left, in the settled report only
    deals = [event for message in c.log for event in message.get("events", [])
             if event["type"] == "deal"]
    assert len(deals) == 1  # the spectator heard the deal: the checks below saw it
    for message in c.log:
        assert "hands" not in str(message)
        if message["type"] == "snapshot" and message["game"]:
            assert message["game"]["hand"] is None and message["game"]["seat"] is None
        for event in message.get("events", []):
            if event["type"] == "deal":
                assert "hands" not in event and "seed" not in event
                assert event["hand_counts"] == [27, 27, 27, 27]



def test_a_reveal_swap_moves_a_person_and_the_socket_follows_the_new_seat(monkeypatch):
    # Deal seed 4 reveals a card whose twin holder sits at seat 3: seats 0 and 3 swap
    # (RULES §2), so alice (seat 0) plays from seat 3 with the hand she was dealt.
    monkeypatch.setattr("games.live.lifecycle.deal.deal_seed", lambda table: 4)
    room = make_room()
    alice, bob = make_person("alice"), make_person("bob")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        a, b = await connect_all(table_id, alice, bob)
        await start_game([a, b])
        started = a.log[-1]
        table = await a.expect("table")
        await asyncio.gather(a.play_until_settled(), b.play_until_settled())
        for client in (a, b):
            await client.close()
        return a, b, started, table

    a, b, started, table = run(scenario)
    record = GameRecord.objects.get()
    deal = events_of(record.pk, "deal")[0]
    assert events_of(record.pk, "swap")[0]["seats"] == [0, 3]
    assert deal["players"][0] == alice.pk and record.players[3] == alice.pk
    assert started["game"]["seat"] == 3 and started["game"]["hand"] == sorted(
        deal["hands"][0], key=lambda code: (CARD_BY_CODE[code].rank, CARD_BY_CODE[code].suit
                                            or "", CARD_BY_CODE[code].copy))
    seats = {seat["index"]: seat for seat in table["table"]["seats"]}
    assert seats[3]["user"] == alice.pk and not seats[3]["bot"] and seats[3]["connected"]
    assert seats[0]["bot"] and seats[0]["user"] == deal["players"][3]
    # The connection flags moved with the players: the bot now at seat 0 has no socket.
    assert not seats[0]["connected"]
    assert a.seat == 3 and a.errors == [] and b.errors == []
    assert any(event["seat"] == 3 and event["by"] == "player"
               for event in events_of(record.pk, "play"))
    assert record.settled_at is not None and ledger_violations() == []


def test_the_next_game_at_the_table_starts_again_at_seq_one_under_a_new_id():
    room = make_room()
    alice = make_person("alice")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        a = TableClient(alice, table_id)
        await a.connect()
        games = []
        for _ in range(2):
            await a.send({"type": "ready"})
            await a.expect("snapshot", lambda m: bool(m["game"] and m["game"]["hand"]
                                                       and m["game"]["status"] == "playing"))
            games.append(a.game_id)
            await a.send({"type": "trustee", "on": True, "seq": a.seq})
            await a.follow_until_settled()
            # The table reopened (its `table` message comes just before `settled`).
            assert a.table["status"] == "waiting"
        await a.send({"type": "snapshot"})
        between = await a.expect("snapshot")
        await a.close()
        return a, games, between

    a, games, between = run(scenario)
    first, second = GameRecord.objects.order_by("pk")
    assert games == [first.pk, second.pk]
    assert a.errors == [] and a.gaps == 0
    # The second game's first events message began at seq 1 under the new id.
    openings = [message for message in a.log if message["type"] == "events"
                and message["events"][0]["type"] == "deal"]
    assert [(message["game"], message["events"][0]["seq"]) for message in openings] \
        == [(first.pk, 1), (second.pk, 1)]
    # Between games the snapshot shows the last game, settled, and the waiting table.
    assert between["game"]["id"] == second.pk and between["game"]["settlement"]
    assert between["table"]["status"] == "waiting" and between["table"]["game"] is None
    assert ledger_violations() == []


def connected_flags(message: dict) -> dict:
    return {seat["user"]: seat["connected"] for seat in message["table"]["seats"]
            if seat["user"] is not None}


def test_the_table_shows_who_is_connected():
    room = make_room()
    alice, bob = make_person("alice"), make_person("bob")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id
    room_quick_join(user=bob, room_id=room.pk)

    async def scenario():
        a, b = await connect_all(table_id, alice, bob)
        online = await a.expect("table", lambda m: connected_flags(m) == {
            alice.pk: True, bob.pk: True})
        await b.close()
        offline = await a.expect("table", lambda m: connected_flags(m)[bob.pk] is False)
        b = TableClient(bob, table_id)
        await b.connect()
        back = await a.expect("table", lambda m: connected_flags(m)[bob.pk] is True)
        await b.send({"type": "stand"})
        stood = await a.expect("table", lambda m: bob.pk not in connected_flags(m))
        # A bot that takes bob's old seat has no socket: it is not shown connected.
        await a.send({"type": "ready"})
        filled = await a.expect("table", lambda m: all(
            seat["user"] for seat in m["table"]["seats"]))
        for client in (a, b):
            await client.close()
        return online, offline, back, stood, filled

    online, offline, back, stood, filled = run(scenario)
    assert [seat["connected"] for seat in stood["table"]["seats"]][1] is False
    # (The game may have swapped alice's seat at the deal: the flags follow the players.)
    assert sorted((seat["bot"], seat["connected"]) for seat in filled["table"]["seats"]) == [
        (False, True), (True, False), (True, False), (True, False)]
    assert connected_flags(filled)[alice.pk] is True
