"""A table's seats read with SQL compiled once (games.live.seat_rows): the same rows
as the ORM's query, for whichever table is asked."""

import pytest

from games.live import seat_rows
from games.live.seating import room_quick_join
from games.testing.live_helpers import make_person, make_room

pytestmark = pytest.mark.django_db


def _orm_rows(table_id: int) -> list[dict]:
    return list(seat_rows._queryset(table_id))


def _table_of(room, names: list[str]) -> int:
    table_id = None
    for name in names:
        table_id = room_quick_join(user=make_person(name), room_id=room.pk).table_id
    return table_id


def test_each_table_gets_its_own_seats_as_the_orm_reads_them():
    first = _table_of(make_room(), ["alice", "bob"])
    second = _table_of(make_room(), ["carol"])
    for table_id, names in ((first, {"alice", "bob"}), (second, {"carol"})):
        rows = seat_rows.seat_rows(table_id)
        orm = _orm_rows(table_id)
        assert [row.index for row in rows] == [row["index"] for row in orm]
        for row, expected in zip(rows, orm, strict=True):
            for column, value in expected.items():
                assert getattr(row, column) == value, column
        assert {row.name for row in rows if row.user_id is not None} == names
        assert all(row.name is None for row in rows if row.user_id is None)


def test_the_query_is_built_once_and_then_only_bound(monkeypatch):
    first = _table_of(make_room(), ["alice"])
    second = _table_of(make_room(), ["bob"])
    seat_rows.seat_rows(first)

    def built_again(table_id):
        raise AssertionError("the seats' query was built again")

    monkeypatch.setattr(seat_rows, "_queryset", built_again)
    assert {row.name for row in seat_rows.seat_rows(second) if row.name} == {"bob"}
