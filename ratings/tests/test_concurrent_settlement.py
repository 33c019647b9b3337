"""One game settled by two processes at once (the settle task and the sweeper) rates it
once; two games with a player in common settled at once both count, in full."""

import pytest

from common.testing.threads import run_threads
from games.live.lifecycle.end import game_settle
from games.testing.room_helpers import make_player
from ratings.models import Rating, RatingChange
from ratings.services import rate_game
from ratings.testing import rated_game, rated_room

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_the_same_game_settled_twice_at_once_rates_once():
    record = rated_game(rated_room(), [make_player(f"twice-{seat}") for seat in range(4)],
                        seed=3)

    results = run_threads(2, lambda _index: game_settle(game_id=record.pk))

    assert sorted(results) == [False, True]
    assert RatingChange.objects.filter(game=record).count() == 4
    assert sorted(Rating.objects.values_list("games", flat=True)) == [1, 1, 1, 1]


def test_the_rating_receiver_twice_at_once_rates_once():
    """Below the settlement's own lock: the receiver itself is idempotent per game."""
    record = rated_game(rated_room(), [make_player(f"hook-{seat}") for seat in range(4)],
                        seed=3)

    run_threads(2, lambda _index: rate_game(record=record))

    assert RatingChange.objects.filter(game=record).count() == 4
    assert sorted(Rating.objects.values_list("games", flat=True)) == [1, 1, 1, 1]


def test_two_games_sharing_a_player_settled_at_once_both_count():
    room = rated_room()
    shared = make_player("shared")
    games = [rated_game(room, [shared, *[make_player(f"g{game}-{seat}") for seat in range(3)]],
                        seed=3) for game in range(2)]

    run_threads(2, lambda index: game_settle(game_id=games[index].pk))

    rating = Rating.objects.get(user=shared)
    assert rating.games == 2
    changes = list(RatingChange.objects.filter(user=shared).order_by("pk"))
    # the second update started from the first one's result: none was lost
    assert changes[1].mu_before == changes[0].mu_after
    assert rating.mu == changes[1].mu_after
