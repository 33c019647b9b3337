"""Idempotency keys: a retry returns the first posting; other contents are an error
(GUIDE "Money", the Stripe rule)."""

import pytest

from ledger.audit import ledger_violations
from ledger.models import Currency, Hold, SystemAccount, Transaction
from ledger.services import (
    LedgerError,
    LegSpec,
    adjust_balance,
    balance_of,
    freeze_coins,
    grant_coins,
    ledger_post,
    system_account,
    user_account,
)
from ledger.tests.ledger_helpers import ledger_snapshot, make_user, system_balance, unique

pytestmark = pytest.mark.django_db


def test_the_same_key_with_the_same_contents_returns_the_first_transaction():
    user = make_user()
    key = unique("grant")
    first = grant_coins(user=user, amount=500, key=key)
    after_first = ledger_snapshot()
    again = grant_coins(user=user, amount=500, key=key)
    assert again.pk == first.pk
    assert ledger_snapshot() == after_first
    assert balance_of(user, Currency.COIN) == 500
    assert Transaction.objects.filter(key=key).count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_same_key_with_other_contents_raises_and_writes_nothing():
    user = make_user()
    key = unique("grant")
    grant_coins(user=user, amount=500, key=key)
    before = ledger_snapshot()
    with pytest.raises(LedgerError, match="内容不同"):
        grant_coins(user=user, amount=501, key=key)
    with pytest.raises(LedgerError, match="内容不同"):
        grant_coins(user=make_user(), amount=500, key=key)
    with pytest.raises(LedgerError, match="内容不同"):
        adjust_balance(user=user, currency=Currency.COIN, amount=500, reason="same key",
                       key=key)
    after = ledger_snapshot()
    assert after["transactions"] == before["transactions"]
    assert after["legs"] == before["legs"]
    assert {pk: balance for pk, balance in after["balances"].items() if balance} == {
        pk: balance for pk, balance in before["balances"].items() if balance}
    assert balance_of(user, Currency.COIN) == 500


def test_the_order_of_the_legs_does_not_change_the_contents():
    user = make_user()
    mine = user_account(user, Currency.COIN)
    issuance = system_account(SystemAccount.ISSUANCE, Currency.COIN)
    key = unique("post")
    first = ledger_post(key=key, kind="grant", legs=[LegSpec(mine, 7), LegSpec(issuance, -7)])
    again = ledger_post(key=key, kind="grant", legs=[LegSpec(issuance, -7), LegSpec(mine, 7)])
    assert again.pk == first.pk
    assert balance_of(user, Currency.COIN) == 7


def test_an_adjustment_retried_is_applied_once():
    user = make_user(coins=100)
    key = unique("adjust")
    first = adjust_balance(user=user, currency=Currency.POINT, amount=-30, reason="x", key=key)
    again = adjust_balance(user=user, currency=Currency.POINT, amount=-30, reason="x", key=key)
    assert again.pk == first.pk
    assert balance_of(user, Currency.POINT) == -30
    assert system_balance(SystemAccount.HOUSE, Currency.POINT) == 30


def test_freezing_twice_for_the_same_game_returns_the_first_hold():
    user = make_user(coins=10000)
    game_key = unique("game")
    first = freeze_coins(user=user, game_key=game_key, amount=4000)
    after_first = ledger_snapshot()
    again = freeze_coins(user=user, game_key=game_key, amount=4000)
    other_amount = freeze_coins(user=user, game_key=game_key, amount=9000)
    assert again.pk == first.pk == other_amount.pk
    assert other_amount.amount == 4000
    assert ledger_snapshot() == after_first
    assert Hold.objects.filter(game_key=game_key).count() == 1
    assert balance_of(user, Currency.COIN) == 6000


def test_unbalanced_or_empty_or_fractional_postings_are_refused_before_writing():
    user = make_user()
    mine = user_account(user, Currency.COIN)
    issuance = system_account(SystemAccount.ISSUANCE, Currency.COIN)
    points = user_account(user, Currency.POINT)
    before = ledger_snapshot()
    with pytest.raises(LedgerError, match="合计为"):
        ledger_post(key=unique("bad"), kind="grant", legs=[LegSpec(mine, 7),
                                                           LegSpec(issuance, -6)])
    with pytest.raises(LedgerError, match="合计为"):  # coins cannot pay for points
        ledger_post(key=unique("bad"), kind="grant", legs=[LegSpec(points, 7),
                                                           LegSpec(issuance, -7)])
    with pytest.raises(LedgerError, match="至少要有一条分录"):
        ledger_post(key=unique("bad"), kind="grant", legs=[])
    with pytest.raises(LedgerError, match="至少要有一条分录"):  # legs of zero are dropped
        ledger_post(key=unique("bad"), kind="grant", legs=[LegSpec(mine, 0)])
    with pytest.raises(LedgerError, match="整数"):
        ledger_post(key=unique("bad"), kind="grant", legs=[LegSpec(mine, 0.5),
                                                           LegSpec(issuance, -0.5)])
    assert ledger_snapshot() == before
    assert ledger_violations() == []


def test_settling_a_game_again_with_other_scores_is_refused_and_changes_nothing():
    from games.settlement.posting import settle_game

    players = [make_user() for _ in range(4)]
    game = unique("game")
    first = settle_game(game_key=game, players=players, scores=[4, 4, -4, -4])
    before = ledger_snapshot()
    assert settle_game(game_key=game, players=players, scores=[4, 4, -4, -4]).pk == first.pk
    with pytest.raises(LedgerError, match="不同的分数"):
        settle_game(game_key=game, players=players, scores=[2, -2, 2, -2])
    assert ledger_snapshot() == before
