"""Frozen coins (金币冻结): a pending hold, resolved exactly once (RULES §8)."""

import pytest

from games.settlement.posting import settle_game
from ledger.audit import ledger_violations
from ledger.models import Currency, Hold, Kind, SystemAccount, Transaction
from ledger.services import LedgerError, balance_of, freeze_coins, release_hold
from ledger.tests.ledger_helpers import (
    coins_of,
    ledger_snapshot,
    make_user,
    system_balance,
    unique,
)

pytestmark = pytest.mark.django_db


def test_freezing_moves_coins_from_the_player_to_escrow_in_a_freeze_transaction():
    user = make_user(coins=10000)
    game_key = unique("game")
    hold = freeze_coins(user=user, game_key=game_key, amount=4000)
    assert (hold.amount, hold.status, hold.resolved_by) == (4000, Hold.Status.PENDING, None)
    assert balance_of(user, Currency.COIN) == 6000
    assert system_balance(SystemAccount.ESCROW) == 4000
    freeze = Transaction.objects.get(pk=hold.freeze_id)
    assert freeze.kind == Kind.FREEZE
    assert freeze.game_key == game_key
    assert sorted(freeze.legs.values_list("amount", "hold")) == [(-4000, None), (4000, hold.pk)]
    assert ledger_violations() == []


def test_freezing_more_than_the_balance_freezes_the_whole_balance():
    user = make_user(coins=1234)
    hold = freeze_coins(user=user, game_key=unique("game"), amount=5000)
    assert hold.amount == 1234
    assert balance_of(user, Currency.COIN) == 0


def test_freezing_without_coins_is_refused_and_writes_nothing():
    broke = make_user(coins=0)
    before = ledger_snapshot()
    with pytest.raises(LedgerError):
        freeze_coins(user=broke, game_key=unique("game"), amount=100)
    assert Hold.objects.filter(user=broke).count() == 0
    assert ledger_snapshot()["transactions"] == before["transactions"]
    assert ledger_snapshot()["holds"] == before["holds"]


def test_a_negative_freeze_is_refused():
    user = make_user(coins=100)
    with pytest.raises(LedgerError):
        freeze_coins(user=user, game_key=unique("game"), amount=-5)
    assert balance_of(user, Currency.COIN) == 100
    assert Hold.objects.filter(user=user).count() == 0


def test_a_player_may_hold_coins_for_two_games_at_once():
    user = make_user(coins=10000)
    freeze_coins(user=user, game_key=unique("game"), amount=3000)
    freeze_coins(user=user, game_key=unique("game"), amount=9000)
    assert sorted(Hold.objects.filter(user=user).values_list("amount", flat=True)) == [3000,
                                                                                       7000]
    assert balance_of(user, Currency.COIN) == 0
    assert system_balance(SystemAccount.ESCROW) == 10000


def test_releasing_returns_the_frozen_coins_and_resolves_the_hold():
    user = make_user(coins=10000)
    hold = freeze_coins(user=user, game_key=unique("game"), amount=4000)
    released = release_hold(hold)
    assert released.status == Hold.Status.RELEASED
    assert released.resolved_by.kind == Kind.RELEASE
    assert released.resolved_at is not None
    assert balance_of(user, Currency.COIN) == 10000
    assert system_balance(SystemAccount.ESCROW) == 0
    assert ledger_violations() == []


def test_releasing_twice_changes_nothing():
    user = make_user(coins=10000)
    hold = freeze_coins(user=user, game_key=unique("game"), amount=4000)
    first = release_hold(hold)
    after_first = ledger_snapshot()
    second = release_hold(hold)
    assert second.resolved_by_id == first.resolved_by_id
    assert ledger_snapshot() == after_first


def test_release_hold_on_a_settled_hold_changes_nothing():
    players = [make_user(10000) for _ in range(4)]
    game_key = unique("game")
    holds = [freeze_coins(user=user, game_key=game_key, amount=5000) for user in players]
    posted = settle_game(game_key=game_key, players=players, scores=[4, -4, 4, -4], coins=True,
                         coefficient=500, fee=50)
    after_settlement = ledger_snapshot()
    returned = release_hold(holds[1])
    assert (returned.status, returned.resolved_by_id) == (Hold.Status.SETTLED, posted.pk)
    assert ledger_snapshot() == after_settlement
    assert coins_of(players) == [11950, 7950, 11950, 7950]


def test_settling_a_game_with_a_released_hold_is_a_second_resolution_and_raises():
    players = [make_user(10000) for _ in range(4)]
    game_key = unique("game")
    holds = [freeze_coins(user=user, game_key=game_key, amount=5000) for user in players]
    release_hold(holds[2])
    before = ledger_snapshot()
    with pytest.raises(LedgerError, match="了结过"):
        settle_game(game_key=game_key, players=players, scores=[4, -4, 4, -4], coins=True,
                    coefficient=500, fee=50)
    assert ledger_snapshot() == before
    assert Hold.objects.get(pk=holds[2].pk).status == Hold.Status.RELEASED
    assert Hold.objects.filter(game_key=game_key, status=Hold.Status.PENDING).count() == 3
    assert ledger_violations() == []


def test_each_hold_is_frozen_once_and_resolved_once_in_the_legs():
    players = [make_user(10000) for _ in range(4)]
    game_key = unique("game")
    for user in players:
        freeze_coins(user=user, game_key=game_key, amount=5000)
    settle_game(game_key=game_key, players=players, scores=[2, -2, 2, -2], coins=True,
                coefficient=100, fee=5)
    holds = list(Hold.objects.filter(game_key=game_key))
    assert len(holds) == 4  # one per player, or the loop below checks nothing
    for hold in holds:
        amounts = sorted(hold.legs.values_list("amount", flat=True))
        assert amounts == [-5000, 5000]
