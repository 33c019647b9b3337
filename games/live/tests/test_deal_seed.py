"""Tests deal from a seed of their own (the root conftest.py sets settings.GAMES_DEAL_SEED
to the test's node id; games.live.lifecycle.deal.deal_seed derives each game's seed from it):
a test's games are the same on every run, in any order and on any xdist worker, and
another test gets other cards."""

import pytest
from django.db import transaction

from games.live.lifecycle.deal import deal_seed, derived_deal_seed
from games.live.seating import room_quick_join, table_ready
from games.models import GameEvent, Table
from games.testing.live_helpers import make_person, make_room

pytestmark = pytest.mark.django_db


class RolledBack(Exception):
    """Undoes a "run", as the end of a test does; ids handed out are not given back."""


def one_run() -> tuple[int, dict]:
    """A room, a person who sits and gets ready, bots fill the table: the game dealt,
    as its table's id and its deal event. Rolled back afterwards."""
    outcome = {}
    try:
        with transaction.atomic():
            make_room()  # another room first: the table's room is the second one
            room = make_room()
            alice = make_person("alice")
            seat = room_quick_join(user=alice, room_id=room.pk)
            table_ready(user=alice)  # bots fill the table, the game starts
            table = Table.objects.get(pk=seat.table_id)
            deal = GameEvent.objects.get(game=table.current_game, type="deal").data
            outcome = {"table": table.pk, "deal": deal}
            raise RolledBack
    except RolledBack:
        pass
    return outcome["table"], outcome["deal"]


def test_every_test_deals_from_its_own_node_id(request, settings):
    assert settings.GAMES_DEAL_SEED == request.node.nodeid


def test_two_runs_of_a_test_deal_the_same_hands_whatever_ids_the_database_gives(settings):
    first_table, first = one_run()
    second_table, second = one_run()

    assert second_table != first_table  # the second run's rows got other ids
    assert second["seed"] == first["seed"]
    assert second["hands"] == first["hands"]
    # The seed is the one derived from the test's seed and the table's place.
    assert first["seed"] == derived_deal_seed(settings.GAMES_DEAL_SEED, room=2,
                                              table_number=1, games=0)


def test_another_test_gets_other_cards(settings):
    _, mine = one_run()
    settings.GAMES_DEAL_SEED = "games/live/tests/test_other.py::test_other"
    _, theirs = one_run()

    assert theirs["seed"] != mine["seed"]
    assert theirs["hands"] != mine["hands"]


def test_each_game_and_table_of_a_test_gets_a_seed_of_its_own():
    seeds = {derived_deal_seed("test-a", room=room, table_number=number, games=games)
             for room in (1, 2) for number in (1, 2) for games in (0, 1)}

    assert len(seeds) == 8
    assert all(0 <= seed < 2**64 for seed in seeds)


def test_without_a_fixed_seed_every_deal_is_random(settings):
    settings.GAMES_DEAL_SEED = ""
    room = make_room()
    seat = room_quick_join(user=make_person("alice"), room_id=room.pk)
    table = Table.objects.get(pk=seat.table_id)

    assert len({deal_seed(table) for _ in range(5)}) == 5
