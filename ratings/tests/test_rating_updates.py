"""Every rated game moves its people's ratings once, from the team result, in the
settlement's transaction (ratings.services, docs/ratings.md)."""

import pytest
from django.test import override_settings

from games.live.lifecycle.end import game_settle
from games.models import GameRecord
from games.testing.room_helpers import make_player, make_room
from ratings.models import Family, RatedGame, Rating, RatingChange
from ratings.rating_math import START_MU, START_SIGMA
from ratings.services import rate_game
from ratings.testing import rated_game, rated_room

pytestmark = pytest.mark.django_db

# Sample games (games.engine.sample_games): qq seed 3 and 6 have no escape, seed 2 an
# end_game escape by seat 1, seed 1 an auto_play escape by seat 2; tcy seed 2 none.
CLEAN, ESCAPE_END, ESCAPE_AUTO = 3, 2, 1


@pytest.fixture
def four():
    return [make_player(f"rated-{seat}") for seat in range(4)]


def ratings_of(record: GameRecord) -> dict[int, Rating]:
    return {rating.user_id: rating for rating in Rating.objects.filter(
        user_id__in=record.players)}


def test_a_rated_game_moves_the_winners_up_and_the_losers_down(four):
    record = rated_game(rated_room(), four, seed=CLEAN)

    assert game_settle(game_id=record.pk) is True

    ratings = ratings_of(record)
    winners = {record.players[seat] for seat in record.result["winners"]}
    assert len(ratings) == 4
    for user_id, rating in ratings.items():
        assert rating.family == Family.FOUR and rating.games == 1
        assert rating.sigma < START_SIGMA
        assert (rating.mu > START_MU) == (user_id in winners)
        assert rating.wins == (user_id in winners)
    # partners move together, opponents by as much the other way
    moves = {user_id: rating.mu - START_MU for user_id, rating in ratings.items()}
    assert len({round(abs(move), 9) for move in moves.values()}) == 1
    changes = RatingChange.objects.filter(game=record)
    assert {(change.user_id, change.mu_after) for change in changes} == \
        {(user_id, rating.mu) for user_id, rating in ratings.items()}
    assert RatedGame.objects.get(game=record).outcome == RatedGame.Outcome.RATED


def test_the_two_player_family_is_rated_apart():
    room = rated_room("排位 tcy", "tcy")
    pair = [make_player("tcy-a"), make_player("tcy-b")]
    record = rated_game(room, pair, seed=2)

    game_settle(game_id=record.pk)

    assert set(Rating.objects.values_list("family", flat=True)) == {Family.TWO}
    winner = record.players[record.result["winners"][0]]
    ratings = ratings_of(record)
    assert ratings[winner].mu > START_MU > min(rating.mu for rating in ratings.values())


def test_a_casual_room_and_a_private_tables_game_change_no_rating(four):
    record = rated_game(make_room("休闲 qq"), four, seed=CLEAN)
    assert record.rated is False

    game_settle(game_id=record.pk)

    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert RatedGame.objects.get(game=record).outcome == RatedGame.Outcome.CASUAL


def test_settling_again_or_rating_again_changes_nothing(four):
    record = rated_game(rated_room(), four, seed=CLEAN)
    game_settle(game_id=record.pk)
    before = {rating.pk: (rating.mu, rating.sigma, rating.games)
              for rating in Rating.objects.all()}

    assert game_settle(game_id=record.pk) is False
    rate_game(record=record)

    assert {rating.pk: (rating.mu, rating.sigma, rating.games)
            for rating in Rating.objects.all()} == before
    assert RatingChange.objects.filter(game=record).count() == 4


@pytest.mark.parametrize("seed", [ESCAPE_END, ESCAPE_AUTO])
def test_an_escape_is_the_escapers_loss_and_leaves_the_partner_alone(four, seed):
    record = rated_game(rated_room(), four, seed=seed)
    escaper = next(event.data["seat"] for event in record.events.filter(type="escape"))
    partner = (escaper + 2) % 4

    game_settle(game_id=record.pk)

    ratings = ratings_of(record)
    assert ratings[record.players[escaper]].mu < START_MU
    assert RatingChange.objects.get(game=record, seat=escaper).escaped is True
    assert record.players[partner] not in ratings or \
        ratings[record.players[partner]].games == 0
    for seat in ((escaper + 1) % 4, (escaper + 3) % 4):
        assert ratings[record.players[seat]].mu > START_MU


def test_bots_are_rated_against_at_their_fixed_level_and_never_rated(four):
    room = rated_room(bot_level="easy")
    record = rated_game(room, four, seed=CLEAN, bot_seats=(1, 3))
    record.bot_level = "easy"
    record.save(update_fields=["bot_level"])

    game_settle(game_id=record.pk)

    rated = set(Rating.objects.values_list("user_id", flat=True))
    assert rated == {record.players[0], record.players[2]}
    assert RatingChange.objects.filter(game=record).count() == 2


def test_a_game_of_bots_only_rates_nobody(four):
    record = rated_game(rated_room(), four, seed=CLEAN, bot_seats=(0, 1, 2, 3))
    game_settle(game_id=record.pk)
    assert not Rating.objects.exists()
    assert RatedGame.objects.get(game=record).outcome == RatedGame.Outcome.NO_PEOPLE


@override_settings(RATINGS_REPEAT_FREE_GAMES=2)
def test_the_same_foursome_again_and_again_moves_ratings_less(four):
    room = rated_room()
    weights, moves = [], []
    for _ in range(6):
        record = rated_game(room, four, seed=CLEAN)
        winner = record.players[record.result["winners"][0]]
        game_settle(game_id=record.pk)
        change = RatingChange.objects.get(game=record, user_id=winner)
        weights.append(change.weight)
        moves.append(change.mu_after - change.mu_before)

    assert weights == [1.0, 1.0, 2 / 3, 2 / 4, 2 / 5, 2 / 6]
    # later games move less than the unweighted update would, and less and less
    assert moves[2] < moves[1] and moves[5] < moves[3]


@override_settings(RATINGS_REPEAT_FREE_GAMES=2)
def test_a_new_face_in_the_group_is_a_new_group(four):
    room = rated_room()
    for _ in range(3):
        game_settle(game_id=rated_game(room, four, seed=CLEAN).pk)
    record = rated_game(room, [*four[:3], make_player("newcomer")], seed=CLEAN)
    game_settle(game_id=record.pk)
    assert {change.weight for change in RatingChange.objects.filter(game=record)} == {1.0}
