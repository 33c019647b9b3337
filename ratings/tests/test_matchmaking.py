"""Rated matchmaking: quick join in a rated room seats people of close rating, the
window widening with the table's wait; bots only after the rated wait (ratings.matchmaking,
games.live.seating)."""

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from games.live.seating import room_quick_join, table_ready
from games.live.sweeps import sweep_tables
from games.models import Seat, Table
from games.testing.room_helpers import make_player, make_room
from ratings.matchmaking import Terms, window_after
from ratings.models import Family, Rating
from ratings.rating_math import from_shown
from ratings.testing import rated_room

pytestmark = pytest.mark.django_db


def player(name: str, rating: int | None = None):
    user = make_player(name)
    if rating is not None:
        Rating.objects.create(user=user, family=Family.FOUR, mu=from_shown(rating))
    return user


def waited(table: Table, seconds: float) -> None:
    Table.objects.filter(pk=table.pk).update(
        waiting_since=timezone.now() - timedelta(seconds=seconds))


@override_settings(RATINGS_MATCH_WINDOW=150, RATINGS_MATCH_WIDEN_PER_SECOND=10)
def test_a_player_far_in_rating_opens_a_table_until_the_first_has_waited_long_enough():
    room = rated_room()
    first = room_quick_join(user=player("r1500", 1500), room_id=room.pk).table
    waited(first, 1)

    far = room_quick_join(user=player("r1900", 1900), room_id=room.pk)
    assert far.table_id != first.pk  # 400 apart: window 160 after 1 s
    close = room_quick_join(user=player("r1600", 1600), room_id=room.pk)
    assert close.table_id == first.pk  # 100 apart

    waited(first, 30)  # window 150 + 300 = 450
    waited(far.table, 0)
    later = room_quick_join(user=player("r1200", 1200), room_id=room.pk)
    assert later.table_id == first.pk  # mean 1550, 350 apart (the other table: 700)


@override_settings(RATINGS_MATCH_WINDOW=150, RATINGS_MATCH_WIDEN_PER_SECOND=10)
def test_the_closest_table_in_reach_comes_first():
    room = rated_room()
    low = room_quick_join(user=player("low", 1400), room_id=room.pk).table
    high = room_quick_join(user=player("high", 1700), room_id=room.pk).table
    assert low.pk != high.pk
    assert room_quick_join(user=player("joiner", 1650), room_id=room.pk).table_id == high.pk


def test_a_newcomer_counts_as_1500():
    room = rated_room()
    first = room_quick_join(user=player("new-1"), room_id=room.pk).table
    assert room_quick_join(user=player("new-2"), room_id=room.pk).table_id == first.pk
    assert room_quick_join(user=player("veteran", 2200), room_id=room.pk).table_id != first.pk


def test_a_casual_room_seats_anyone_at_the_first_free_table():
    room = make_room("休闲")
    first = room_quick_join(user=player("c1", 1000), room_id=room.pk).table
    assert room_quick_join(user=player("c2", 2500), room_id=room.pk).table_id == first.pk


@override_settings(GAMES_BOT_FILL_SECONDS=0, GAMES_RATED_BOT_FILL_SECONDS=30)
def test_bots_fill_a_rated_table_only_after_the_rated_wait():
    room = rated_room()
    casual = make_room("休闲 bots")
    user = player("waiting", 1500)
    seat = room_quick_join(user=user, room_id=room.pk)
    table_ready(user=user)
    # a casual room's table fills at once (GAMES_BOT_FILL_SECONDS = 0), a rated one waits
    other = player("casual")
    room_quick_join(user=other, room_id=casual.pk)
    table_ready(user=other)
    assert Seat.objects.get(user=other).table.status == Table.Status.PLAYING
    assert Seat.objects.filter(table=seat.table, user__isnull=True).count() == 3

    waited(seat.table, 20)
    sweep_tables()
    assert Seat.objects.filter(table=seat.table, user__isnull=True).count() == 3

    waited(seat.table, 31)
    sweep_tables()
    assert Seat.objects.filter(table=seat.table, user__isnull=True).count() == 0
    assert Table.objects.get(pk=seat.table_id).status == Table.Status.PLAYING


def test_a_rated_rooms_bots_never_fill_where_the_room_allows_none():
    room = rated_room(bots_allowed=False)
    user = player("alone", 1500)
    seat = room_quick_join(user=user, room_id=room.pk)
    table_ready(user=user)
    waited(seat.table, 3600)
    sweep_tables()
    assert Seat.objects.filter(table=seat.table, user__isnull=True).count() == 3


@override_settings(RATINGS_MATCH_WINDOW=100, RATINGS_MATCH_WIDEN_PER_SECOND=5,
                   GAMES_RATED_BOT_FILL_SECONDS=45)
def test_the_window_widens_with_the_wait_as_the_settings_say():
    assert window_after(0) == 100
    assert window_after(20) == 200
    assert Terms.now() == Terms(window=100, widen_per_second=5, bot_seconds=45)


@override_settings(RATINGS_MATCH_WINDOW=120, RATINGS_MATCH_WIDEN_PER_SECOND=8,
                   GAMES_RATED_BOT_FILL_SECONDS=40)
def test_the_player_is_told_the_window_and_the_wait(client):
    from django.urls import reverse

    user = player("told", 1500)
    client.force_login(user)
    rated = room_quick_join(user=user, room_id=rated_room().pk).table
    page = client.get(reverse("table", args=[rated.pk])).content.decode()
    assert 'class="note rated-note" data-window="120" data-widen="8" data-bot-seconds="40"' \
        in page
    lobby = client.get(reverse("lobby")).content.decode()
    assert 'data-window="120" data-widen="8" data-bot-seconds="40"' in lobby
    assert 'class="rated-tag"' in lobby

    casual = make_room("休闲 told")
    client.force_login(player("casual-told"))
    table = room_quick_join(user=player("casual-seated"), room_id=casual.pk).table
    assert "rated-note" not in client.get(reverse("table", args=[table.pk])).content.decode()
