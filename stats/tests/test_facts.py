"""Each seat's facts are stored once: by the settlement, in its transaction, or by the
backfill for games settled before; never twice."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from accounts.models import User
from games.live.lifecycle.end import game_settle
from games.testing.room_helpers import coin_room, make_player, make_room
from games.testing.stored_games import stored_game
from stats.models import SeatBombs, SeatFacts
from stats.services import game_facts_record
from stats.tests.helpers import expected_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def players():
    return [make_player(f"p{index}") for index in range(4)]


def test_settling_a_game_stores_one_row_per_seat_with_its_bombs(players):
    room = make_room("qq 积分")
    record = stored_game(room, players, seed=1)

    assert game_settle(game_id=record.pk)

    record.refresh_from_db()
    facts = list(SeatFacts.objects.filter(game=record).order_by("seat"))
    assert [fact.user_id for fact in facts] == record.players
    assert [fact.won for fact in facts] == [seat in record.result["winners"]
                                            for seat in range(4)]
    assert {fact.kou for fact in facts} == {record.result["kou"]}
    for fact in facts:
        expected = expected_for(fact.user_id, [record])
        stored = dict(SeatBombs.objects.filter(facts=fact).values_list("stars", "count"))
        assert stored == expected["bombs"]
        assert fact.bombs == sum(expected["bombs"].values())
        assert fact.escaped == (record.result["escaped"] == fact.seat)
        assert fact.room_kind == "points" and fact.rule_set_name == "qq"


def test_storing_the_facts_again_writes_nothing(players):
    room = make_room("qq 积分")
    record = stored_game(room, players, seed=2)
    game_settle(game_id=record.pk)
    rows = SeatFacts.objects.count()
    bombs = SeatBombs.objects.count()

    assert game_facts_record(record=record) == 0
    assert not game_settle(game_id=record.pk)
    assert (SeatFacts.objects.count(), SeatBombs.objects.count()) == (rows, bombs)


def test_the_backfill_stores_games_settled_before_and_only_once(players):
    points, coins = make_room("qq 积分"), coin_room("qq 金币")
    old = [stored_game(points, players, seed=1, settled=True),
           stored_game(coins, players, seed=3, settled=True)]
    unsettled = stored_game(points, players, seed=2)  # ended, not settled: not counted

    call_command("stats_backfill", batch=1)

    assert set(SeatFacts.objects.values_list("game_id", flat=True)) == {r.pk for r in old}
    assert set(SeatFacts.objects.filter(game=old[1]).values_list("room_kind", flat=True)) \
        == {"coins"}
    rows = SeatFacts.objects.count()
    call_command("stats_backfill")
    assert SeatFacts.objects.count() == rows == 8
    assert not SeatFacts.objects.filter(game=unsettled).exists()


def test_the_backfill_refuses_a_batch_below_one():
    with pytest.raises(CommandError, match="at least 1"):
        call_command("stats_backfill", batch=0)


def test_the_admin_lists_the_facts_read_only(client, players):
    record = stored_game(make_room("qq 积分"), players, seed=3)
    game_settle(game_id=record.pk)
    client.force_login(User.objects.create_superuser(username="root", password="pw"))

    listing = client.get(reverse("admin:stats_seatfacts_changelist"))
    fact = SeatFacts.objects.get(game=record, seat=0)
    detail = client.get(reverse("admin:stats_seatfacts_change", args=[fact.pk]))

    assert listing.status_code == 200 and listing.content.decode().count("/change/") >= 4
    assert detail.status_code == 200 and 'name="_save"' not in detail.content.decode()
    assert client.get(reverse("admin:stats_seatfacts_add")).status_code == 403
