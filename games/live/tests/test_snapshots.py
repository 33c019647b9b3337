"""What a table looks like to its readers (games.live.snapshots)."""

import pytest

from accounts.models import User
from accounts.tests.helpers import make_player, post_points
from games.live.seating import room_quick_join
from games.live.snapshots import table_state
from games.models import BotPlayer
from games.testing.room_helpers import make_room, start_game_with_bots

pytestmark = pytest.mark.django_db


def test_a_tables_seats_carry_the_computed_level():
    room = make_room("等级桌")
    climber, newbie = make_player("climber"), make_player("newbie")
    post_points(climber, 300)
    table = room_quick_join(user=climber, room_id=room.pk).table
    room_quick_join(user=newbie, room_id=room.pk)

    seats = {seat["user"]: seat["level"] for seat in table_state(table)["seats"]}

    assert seats == {climber.pk: 4, newbie.pk: 1, None: None}


def test_a_tables_state_is_one_query_with_names_levels_and_bots(django_assert_num_queries):
    room = make_room("机器人桌", bots_allowed=True)
    person = make_player("person")
    post_points(person, 300)
    table = start_game_with_bots(person, room).table

    with django_assert_num_queries(1):
        seats = table_state(table)["seats"]

    bots = set(BotPlayer.objects.values_list("user_id", flat=True))
    assert len(seats) == 4 and len(bots & {seat["user"] for seat in seats}) == 3
    for seat in seats:
        assert seat["bot"] == (seat["user"] in bots)
        assert seat["name"] == str(User.objects.get(pk=seat["user"]))
        assert seat["level"] == (4 if seat["user"] == person.pk else 1)
