"""The heartbeat updates every socket row of a process at once (games.live.heartbeat):
those updates are HOT, adding no index entries (migration 0017; docs/performance.md,
"Socket rows updated in place"), and the rows still go stale and are found without an index
on what the beat writes."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.live.seating import room_quick_join
from games.live.socket_rows import _SEEN_SQL, live_sockets
from games.models import TableSocket
from games.testing.live_helpers import make_person, make_room

pytestmark = pytest.mark.django_db(transaction=True)


def _updates() -> tuple[int, int]:
    """The socket table's updates so far, and how many of them were HOT."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush()")
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables "
                       "WHERE relname = %s", [TableSocket._meta.db_table])
        return cursor.fetchone()


def _sockets(count: int) -> list[str]:
    room = make_room()
    channels = []
    for number in range(count):
        person = make_person(f"beat{number}")
        seat = room_quick_join(user=person, room_id=room.pk)
        TableSocket.objects.create(channel=f"beat-{number}", user=person,
                                   table_id=seat.table_id, process="here")
        channels.append(f"beat-{number}")
    return channels


def test_the_heartbeats_update_of_every_socket_row_is_hot():
    channels = _sockets(12)
    updates, hot = _updates()
    for _beat in range(3):
        with connection.cursor() as cursor:
            cursor.execute(_SEEN_SQL, {"channels": channels, "now": timezone.now()})
            assert cursor.rowcount == 12
    after_updates, after_hot = _updates()
    assert after_updates - updates == 36
    assert after_hot - hot == 36


def test_a_row_the_beat_left_behind_is_no_longer_live(settings):
    settings.GAMES_HEARTBEAT_SECONDS = 10  # rows go stale after 30 s unseen
    channels = _sockets(2)
    TableSocket.objects.filter(channel=channels[0]).update(
        seen_at=timezone.now() - timedelta(hours=1))
    assert set(live_sockets().values_list("channel", flat=True)) == {channels[1]}
