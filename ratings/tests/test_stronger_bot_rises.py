"""The ratings find skill through the cards' luck: accounts played by the engine's table
bot end above accounts played by its 托管 (trustee) bot after a few hundred rated games
in mixed, shuffled foursomes (seeded). Each game goes to the settlement hook's receiver
itself (the ledger's postings, a quarter of a second a game on a busy machine, add
nothing here; test_rating_updates settles through the whole settlement)."""

import random
import statistics

import pytest

from games.testing.room_helpers import make_player
from ratings.models import Rating
from ratings.services import rate_settled_game
from ratings.testing import engine_game, rated_room

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

GAMES = 240
PEOPLE = 12


def test_the_stronger_bots_accounts_are_rated_above_the_weaker_ones():
    room = rated_room()
    people = [make_player(f"sim-{index}") for index in range(PEOPLE)]
    bots = {user.pk: "table" if index % 2 == 0 else "trustee"
            for index, user in enumerate(people)}
    rng = random.Random(25)
    for seed in range(GAMES):
        four = rng.sample(people, 4)  # partners and opponents change every game
        record = engine_game(room, four, bots, seed=seed)
        rate_settled_game(record=record, events=list(
            record.events.order_by("seq").values_list("data", flat=True)))

    ratings = {rating.user_id: rating for rating in Rating.objects.all()}
    strong = sorted(ratings[user.pk].rating for user in people if bots[user.pk] == "table")
    weak = sorted(ratings[user.pk].rating for user in people if bots[user.pk] == "trustee")
    print(f"table bot accounts: {strong}\ntrustee bot accounts: {weak}")
    assert min(strong) > max(weak)
    assert statistics.mean(strong) - statistics.mean(weak) > 200
    assert sum(rating.games for rating in ratings.values()) == 4 * GAMES
