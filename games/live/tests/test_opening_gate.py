"""A herd of table sockets opening at once is served in order of arrival
(games.live.opening_gate): a socket's row and its first snapshot, then the next
socket's, rather than every socket's row before any snapshot."""

import asyncio

import pytest

from games.live import opening_gate, presence, snapshots
from games.live.seating import room_quick_join
from games.testing.live_helpers import TableClient, make_person, make_room, run

pytestmark = pytest.mark.django_db(transaction=True)


def record_jobs(monkeypatch) -> list[tuple[str, int]]:
    """The opening jobs of the database thread, in the order they ran: (what, user)."""
    jobs: list[tuple[str, int]] = []
    open_socket, table_snapshot = presence.open_socket, snapshots.table_snapshot

    def opening(user, table_id, channel):
        jobs.append(("row", user.pk))
        return open_socket(user, table_id, channel)

    def snapshot(table_id, user_id):
        jobs.append(("snapshot", user_id))
        return table_snapshot(table_id, user_id)

    monkeypatch.setattr(presence, "open_socket", opening)
    monkeypatch.setattr(snapshots, "table_snapshot", snapshot)
    return jobs


def people_at_one_table(count: int) -> tuple[int, list]:
    people = [make_person(f"p{index}") for index in range(count)]
    room = make_room()
    table_id = room_quick_join(user=people[0], room_id=room.pk).table_id
    return table_id, people


def test_with_one_place_each_socket_gets_its_snapshot_before_the_next_opens(
        settings, monkeypatch):
    settings.GAMES_OPENINGS_AT_ONCE = 1
    table_id, people = people_at_one_table(4)
    jobs = record_jobs(monkeypatch)

    async def scenario():
        clients = [TableClient(person, table_id) for person in people]
        snapshots_heard = await asyncio.gather(*(client.connect() for client in clients))
        for client in clients:
            await client.close()
        return snapshots_heard

    heard = run(scenario)
    assert all(message["table"]["id"] == table_id for message in heard)
    assert len(jobs) == 8
    # Each socket's two jobs side by side, whatever order the sockets arrived in.
    pairs = [(jobs[index], jobs[index + 1]) for index in range(0, 8, 2)]
    assert [(row[0], snapshot[0]) for row, snapshot in pairs] == [("row", "snapshot")] * 4
    assert all(row[1] == snapshot[1] for row, snapshot in pairs)
    assert sorted(row[1] for row, _ in pairs) == sorted(person.pk for person in people)


def test_the_gate_has_the_configured_places_and_is_one_per_loop(settings):
    settings.GAMES_OPENINGS_AT_ONCE = 3

    async def places() -> tuple[list[bool], bool]:
        gate = opening_gate.opening_turn()
        full = []
        for _place in range(3):
            await gate.acquire()
            full.append(gate.locked())
        return full, opening_gate.opening_turn() is gate

    # A new loop gets a gate of its own, with all its places free again.
    first, second = asyncio.run(places()), asyncio.run(places())
    assert first == second == ([False, False, True], True)
