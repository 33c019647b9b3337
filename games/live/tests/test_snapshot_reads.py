"""Snapshots do not replay the whole log: one user's snapshot requests,
each a full replay on the process's one database thread, stalled every table."""

import pytest

from games.engine.game import Game
from games.live import snapshots
from games.live.lifecycle.act import game_act
from games.live.seating import room_quick_join, table_ready
from games.live.snapshots import game_view
from games.models import GameEvent, GameRecord, Table
from games.testing.live_helpers import make_person, make_room

pytestmark = pytest.mark.django_db


def replayed_view(record: GameRecord, seat: int) -> dict:
    events = GameEvent.objects.filter(game=record).order_by("seq").values_list("data", flat=True)
    return Game.replay(list(events)).view(seat)


def started_game(alice) -> GameRecord:
    room = make_room()
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id
    table_ready(user=alice)  # the test settings fill the table with bots at once
    return GameRecord.objects.get(pk=Table.objects.get(pk=table_id).current_game_id)


def test_a_second_snapshot_at_the_same_seq_reads_no_events(django_assert_num_queries):
    alice = make_person("alice")
    record = started_game(alice)
    seat = record.players.index(alice.pk)

    with django_assert_num_queries(1):  # the log, once
        first = game_view(record, alice.pk)
    with django_assert_num_queries(0):
        again = game_view(record, alice.pk)
    spectator = game_view(record, None)

    assert first == again == {**replayed_view(record, seat), "seq": record.seq, "id": record.pk,
                              "settlement": record.settlement,
                              "deadline": first["deadline"]}
    assert spectator["hand"] is None and spectator["seq"] == record.seq


def test_a_snapshot_after_new_events_reads_only_those_and_leaves_the_kept_game_alone(
        django_assert_num_queries):
    alice = make_person("alice")
    record = started_game(alice)
    seat = record.players.index(alice.pk)
    before = game_view(record, alice.pk)
    kept = snapshots.engine_snapshot(record)
    game_act(user_id=alice.pk, game_id=record.pk, action="trustee",
                       client_seq=None, on=True)
    later = GameRecord.objects.get(pk=record.pk)
    assert later.seq > record.seq

    with django_assert_num_queries(1) as context:
        after = game_view(later, alice.pk)

    (query,) = context.captured_queries
    assert '"seq" >' in query["sql"]  # only the events after the kept seq
    assert after["history"] == replayed_view(later, seat)["history"]
    assert after["trustee"][seat] is True
    # What earlier readers hold is unchanged: the kept game was copied, not moved on.
    assert len(kept.events) == record.seq and before["trustee"][seat] is False
    assert game_view(record, alice.pk) == before
