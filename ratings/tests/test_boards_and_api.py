"""The boards, the API and the pages show the stored ratings: the same figures, in
order, to anyone (anonymous and strangers too); a private player's history only to
them and staff."""

from datetime import timedelta

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games.live.lifecycle.end import game_settle
from games.live.seating import room_quick_join
from games.live.snapshots import table_state
from games.testing.room_helpers import make_player, make_room
from ratings.models import Family, Rating, RatingChange, Season
from ratings.rating_math import from_shown, shown
from ratings.testing import rated_game, rated_room

pytestmark = pytest.mark.django_db

SETTLED = 3.0  # a sigma under RATINGS_PROVISIONAL_SIGMA (6)


@pytest.fixture
def played():
    """Three rated games of eight people, and every rating made settled."""
    room = rated_room()
    people = [make_player(f"board-{index}") for index in range(8)]
    for seed, four in ((3, people[:4]), (6, people[4:]), (3, people[2:6])):
        game_settle(game_id=rated_game(room, four, seed=seed).pk)
    Rating.objects.update(sigma=SETTLED)
    return people


def stored_board(family=Family.FOUR):
    return [(rating.user.username, shown(rating.mu), rating.games)
            for rating in Rating.objects.filter(family=family).select_related("user")
            .order_by("-mu", "user_id")]


def test_the_api_board_is_the_stored_ratings_in_order_to_a_stranger(played):
    body = APIClient().get("/api/ratings/leaderboard").json()

    assert body["season"] is None and body["family"] == "four"
    assert [(row["username"], row["rating"], row["games"]) for row in body["rows"]] == \
        stored_board()
    ranks = [row["rank"] for row in body["rows"]]
    assert ranks[0] == 1 and ranks == sorted(ranks)


def test_the_board_page_shows_the_same_figures_to_an_anonymous_visitor(client, played):
    page = client.get(reverse("rating-leaderboard")).content.decode()
    for username, rating, _games in stored_board():
        user = Rating.objects.get(user__username=username).user_id
        assert f'data-user="{user}" data-rating="{rating}"' in page
    assert stored_board()  # not an empty board by accident


def test_provisional_ratings_stay_off_the_boards(played):
    newcomer = Rating.objects.get(user__username="board-0")
    newcomer.sigma = 7.0
    newcomer.save()
    usernames = [row["username"] for row in
                 APIClient().get("/api/ratings/leaderboard").json()["rows"]]
    assert "board-0" not in usernames and len(usernames) == 7


def test_a_players_ratings_in_the_api_are_the_stored_ones(played):
    player = played[2]  # two games
    stored = Rating.objects.get(user=player)
    body = APIClient().get(f"/api/players/{player.username}/ratings").json()

    four = next(row for row in body["ratings"] if row["family"] == "four")
    assert (four["rating"], four["deviation"], four["games"], four["provisional"]) == \
        (stored.rating, stored.deviation, 2, False)
    two = next(row for row in body["ratings"] if row["family"] == "two")
    assert (two["rating"], two["games"], two["provisional"]) == (1500, 0, True)
    history = body["history"]["four"]
    assert [point["rating"] for point in history] == \
        [change.rating for change in RatingChange.objects.filter(user=player).order_by("pk")]
    assert history[-1]["rating"] == stored.rating


def test_a_private_players_history_is_theirs_and_staffs_only(played):
    player = played[0]
    player.stats_public = False
    player.save()
    url = f"/api/players/{player.username}/ratings"
    assert APIClient().get(url).json()["history"] is None  # anonymous
    stranger = APIClient()
    stranger.force_authenticate(played[7])
    body = stranger.get(url).json()
    assert body["history"] is None and body["ratings"][0]["games"] == 1
    owner = APIClient()
    owner.force_authenticate(player)
    assert len(owner.get(url).json()["history"]["four"]) == 1


def test_bad_parameters_get_a_clear_error(played):
    api = APIClient()
    assert api.get("/api/ratings/leaderboard?family=five").status_code == 400
    assert api.get("/api/ratings/leaderboard?season=yesterday").status_code == 400
    assert api.get("/api/ratings/leaderboard?season=999").status_code == 404
    assert api.get("/api/ratings/leaderboard?season=current").status_code == 404
    assert api.get("/api/players/nobody/ratings").status_code == 404


@override_settings(RATINGS_SEASON_MIN_GAMES=2)
def test_the_season_board_ranks_the_seasons_games_only(played):
    now = timezone.now()
    Season.objects.create(name="S1", starts_at=now - timedelta(days=1),
                          ends_at=now + timedelta(days=1))
    # players 2 to 5 played twice; move player 4's first game out of the season
    first = RatingChange.objects.filter(user=played[4]).order_by("pk").first()
    RatingChange.objects.filter(pk=first.pk).update(created_at=now - timedelta(days=3))
    RatingChange.objects.update(sigma_after=SETTLED)

    body = APIClient().get("/api/ratings/leaderboard?season=current").json()

    assert body["season"]["name"] == "S1"
    expected = sorted(
        ((change.user.username, change.rating) for change in
         RatingChange.objects.filter(user__in=[played[2], played[3], played[5]])
         .order_by("user_id", "-pk").distinct("user_id").select_related("user")),
        key=lambda row: -row[1])
    assert [(row["username"], row["rating"]) for row in body["rows"]] == expected
    assert {row["games"] for row in body["rows"]} == {2}


def test_the_player_page_and_stats_page_draw_the_history(client, played):
    player = played[2]
    page = client.get(reverse("player-ratings", args=[player.username])).content.decode()
    assert page.count('class="points-chart rating-chart"') == 1  # one family played
    assert f'data-rating="{Rating.objects.get(user=player).rating}"' in page
    stats = client.get(reverse("player-stats", args=[player.username])).content.decode()
    assert 'class="ratings-panel"' in stats and "rating-chart" in stats


def test_the_table_state_carries_each_persons_rating():
    room = make_room("休闲 table")  # any room; a rated one would seat these two apart
    known = make_player("known")
    Rating.objects.create(user=known, family=Family.FOUR, mu=from_shown(1720), sigma=SETTLED)
    newcomer = make_player("newcomer")
    seat = room_quick_join(user=known, room_id=room.pk)
    room_quick_join(user=newcomer, room_id=room.pk)

    seats = {entry["user"]: entry for entry in table_state(seat.table)["seats"]}
    assert seats[known.pk]["rating"] == {"rating": 1720, "provisional": False}
    assert seats[newcomer.pk]["rating"] == {"rating": 1500, "provisional": True}
    assert seats[None]["rating"] is None
