"""One user, or one client address, holds at most so many table sockets on a process,
and one user's snapshot requests cost one database read at a time (200
sockets of one account asking for snapshots stalled every table of the process)."""

import time

import pytest
from channels.testing import WebsocketCommunicator

from games.live import snapshots, socket_caps, table_socket
from games.live.seating import room_quick_join
from games.testing.live_helpers import APPLICATION, connect_all, make_person, make_room, run

pytestmark = pytest.mark.django_db(transaction=True)


async def opened(user, table_id: int, address: str | None = None):
    """A socket's first answer: a snapshot if it was let in, else its close."""
    communicator = WebsocketCommunicator(APPLICATION, f"/ws/table/{table_id}/")
    communicator.scope["user"] = user
    if address is not None:
        communicator.scope["client"] = [address, 50000]
    connected, _ = await communicator.connect()
    assert connected
    first = await communicator.receive_output(timeout=5)
    return communicator, first


def test_a_user_past_the_cap_is_closed_with_4429_and_a_closed_socket_frees_its_place(settings):
    settings.GAMES_SOCKETS_PER_USER = 3
    room = make_room()
    alice, bob = make_person("alice"), make_person("bob")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        tabs = [await opened(alice, table_id) for _ in range(4)]
        other = await opened(bob, table_id)  # the cap is per user
        await tabs[0][0].disconnect()
        again = await opened(alice, table_id)
        for communicator, _ in [*tabs[1:3], other, again]:
            await communicator.disconnect()
        return [first for _, first in tabs], other[1], again[1]

    firsts, other, again = run(scenario)
    assert [first["type"] for first in firsts[:3]] == ["websocket.send"] * 3
    assert firsts[3] == {"type": "websocket.close", "code": 4429}
    assert other["type"] == again["type"] == "websocket.send"
    assert socket_caps.open_sockets(alice.pk) == socket_caps.open_sockets(bob.pk) == 0


def test_an_address_past_the_cap_is_closed_with_4429(settings):
    settings.GAMES_SOCKETS_PER_ADDRESS = 2
    room = make_room()
    people = [make_person(f"p{index}") for index in range(4)]
    table_id = room_quick_join(user=people[0], room_id=room.pk).table_id

    async def scenario():
        shared = [await opened(person, table_id, "203.0.113.7") for person in people[:3]]
        elsewhere = await opened(people[3], table_id, "198.51.100.9")
        for communicator, first in [*shared, elsewhere]:
            if first["type"] == "websocket.send":
                await communicator.disconnect()
        return [first for _, first in shared], elsewhere[1]

    shared, elsewhere = run(scenario)
    assert [first["type"] for first in shared[:2]] == ["websocket.send"] * 2
    assert shared[2] == {"type": "websocket.close", "code": 4429}
    assert elsewhere["type"] == "websocket.send"




def test_one_users_snapshot_requests_share_one_database_read(monkeypatch):
    room = make_room()
    alice, bob = make_person("alice"), make_person("bob")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id
    reads: list[int] = []
    read = snapshots.table_snapshot

    def slow_read(table_id, user_id):
        reads.append(user_id)
        time.sleep(0.5)  # long enough for the other tabs' requests to arrive meanwhile
        return read(table_id, user_id)

    async def scenario():
        tabs = await connect_all(table_id, alice, alice, alice, bob)
        monkeypatch.setattr(snapshots, "table_snapshot", slow_read)
        for index, tab in enumerate(tabs):
            await tab.send({"type": "snapshot", "ref": index})
        answers = [await tab.expect("snapshot") for tab in tabs]
        first_round = list(reads)
        await tabs[0].send({"type": "snapshot", "ref": "later"})
        later = await tabs[0].expect("snapshot")
        for tab in tabs:
            await tab.close()
        return answers, first_round, later

    answers, first_round, later = run(scenario)
    # Each tab has its answer with its own ref; alice's three tabs cost one read.
    assert [answer["ref"] for answer in answers] == [0, 1, 2, 3]
    assert sorted(first_round) == sorted([alice.pk, bob.pk])
    assert answers[0]["table"] == answers[1]["table"] == answers[2]["table"]
    # Nothing stays in flight: a later request reads again.
    assert later["ref"] == "later" and reads[len(first_round):] == [alice.pk]
    assert table_socket._snapshots_in_flight == {}


def test_behind_trusted_proxies_a_sockets_address_is_the_forwarded_one(settings):
    """Sockets count against the player's address by the rule pages use, not against
    the load balancer's: with one trusted proxy, the last X-Forwarded-For address."""
    scope = {"client": ["10.0.0.5", 40000],
             "headers": [(b"x-forwarded-for", b"6.6.6.6, 203.0.113.7")]}
    settings.ACCOUNTS_TRUSTED_PROXY_COUNT = 0
    assert socket_caps.client_address(scope) == "10.0.0.5"  # a forged header is ignored
    settings.ACCOUNTS_TRUSTED_PROXY_COUNT = 1
    assert socket_caps.client_address(scope) == "203.0.113.7"
    assert socket_caps.client_address({"client": None, "headers": []}) is None
