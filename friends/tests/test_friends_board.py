"""The friends board (/friends/board/): me and my friends by points this week and all
time (stats.boards); staff never ranked."""

from __future__ import annotations

import pytest

from friends import services as friends
from stats.boards import total_points, weekly_points
from stats.tests.board_helpers import ROW, person, points

pytestmark = pytest.mark.django_db


def test_the_friends_board_ranks_me_and_my_friends_only(client):
    me, pal, other, boss = (person(name) for name in ("me", "pal", "other", "boss"))
    boss.is_staff = True
    boss.save()
    for friend in (pal, boss):
        friends.friend_request(sender=me, recipient=friend)
        friends.friend_accept(user=friend, sender_id=me.pk)
    points(me, 50)
    points(pal, 70, days_ago=30)
    points(other, 999)
    points(boss, 999)

    assert [(row.user, row.points) for row in weekly_points(user_ids=[me.pk, pal.pk, boss.pk])] \
        == [(me, 50), (pal, 0)]
    assert [(row.user, row.points) for row in total_points(user_ids=[me.pk, pal.pk])] == [
        (pal, 70), (me, 50)]
    client.force_login(me)
    html = client.get("/friends/board/").content.decode()
    found = [(int(user), int(value)) for user, _rank, value in ROW.findall(html)]
    assert found == [(me.pk, 50), (pal.pk, 0), (pal.pk, 70), (me.pk, 50)]


def test_the_friends_board_needs_a_login(client):
    response = client.get("/friends/board/")
    assert response.status_code == 302 and "/login" in response["Location"]
