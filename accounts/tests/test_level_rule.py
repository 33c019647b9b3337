"""The level is computed from points (RULES §7): level_for_points in Python and level_at
in SQL give the same answers, levels_of reads many players' levels in one query, and a
table's seats show them."""

import pytest
from django.db.models import BigIntegerField, Value

from accounts.levels import level_at, level_for_points
from accounts.models import Level, User
from accounts.selectors import levels_of
from accounts.tests.helpers import make_player, post_points

pytestmark = pytest.mark.django_db


def sql_level(user: User, points: int) -> tuple[int, str]:
    """level_at's number and title for ``points``."""
    return (User.objects.filter(pk=user.pk)
            .annotate(points=Value(points, output_field=BigIntegerField()))
            .annotate(number=level_at("points"), title=level_at("points", "title"))
            .values_list("number", "title").get())


def python_level(points: int) -> tuple[int, str]:
    rungs = list(Level.objects.values_list("number", "title", "min_points"))
    number = level_for_points(points, [(number, needed) for number, _, needed in rungs])
    return number, next((title for rung, title, _ in rungs if rung == number), "")


def points_around_every_rung() -> list[int]:
    needed = sorted(Level.objects.values_list("min_points", flat=True))
    return sorted({-1_000, -1, 0, 10**9, *(n + d for n in needed for d in (-1, 0, 1))})


@pytest.mark.parametrize("ladder", ["shipped", "starts above 0", "no level 1", "empty"])
def test_sql_and_python_give_the_same_level_and_title(ladder):
    if ladder == "starts above 0":
        Level.objects.filter(number=1).update(min_points=10)
    elif ladder == "no level 1":
        Level.objects.filter(number=1).delete()
    elif ladder == "empty":
        Level.objects.all().delete()
    user = make_player("ruler")

    for points in points_around_every_rung():
        assert sql_level(user, points) == python_level(points), points


def test_the_rule_on_the_shipped_ladder():
    user = make_player("ruler")

    assert sql_level(user, -500) == (1, "包身工")
    assert sql_level(user, 59) == (1, "包身工")
    assert sql_level(user, 60) == (2, "短工")
    assert sql_level(user, 999_999) == (22, "丞相")
    assert sql_level(user, 1_000_000) == (23, "帝王")
    Level.objects.filter(number=1).delete()
    assert sql_level(user, 0) == (2, "短工")  # below every level: the lowest one


def test_levels_of_reads_many_players_in_one_query(django_assert_num_queries):
    players = [make_player(f"p{index}") for index in range(4)]
    for player, points in zip(players, [300, 60, -40]):
        post_points(player, points)
    # No points account counts as 0 points, which this ladder puts at level 2.
    Level.objects.filter(number=1).update(min_points=-50)
    Level.objects.filter(number=2).update(min_points=0)

    with django_assert_num_queries(1):
        levels = levels_of([player.pk for player in players] + [10**9])

    assert levels == {players[0].pk: 4, players[1].pk: 2, players[2].pk: 1,
                      players[3].pk: 2}


def test_levels_of_no_one_asks_the_database_nothing(django_assert_num_queries):
    with django_assert_num_queries(0):
        assert levels_of([]) == {}


def test_a_ladder_edit_moves_levels_at_once():
    player = make_player("climber")
    post_points(player, 120)
    assert levels_of([player.pk]) == {player.pk: 2}

    Level.objects.filter(number=3).update(min_points=100)

    assert levels_of([player.pk]) == {player.pk: 3}
