"""What a table looks like to its readers (games.live.snapshots)."""

import pytest

from accounts.tests.helpers import make_player, post_points
from games.live.seating import room_quick_join
from games.live.snapshots import table_state
from games.testing.room_helpers import make_room

pytestmark = pytest.mark.django_db


def test_a_tables_seats_carry_the_computed_level():
    room = make_room("等级桌")
    climber, newbie = make_player("climber"), make_player("newbie")
    post_points(climber, 300)
    table = room_quick_join(user=climber, room_id=room.pk).table
    room_quick_join(user=newbie, room_id=room.pk)

    seats = {seat["user"]: seat["level"] for seat in table_state(table)["seats"]}

    assert seats == {climber.pk: 4, newbie.pk: 1, None: None}
