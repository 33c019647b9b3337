"""Corrections are reversing transactions; legs are never changed (GUIDE "Money")."""

import pytest

from accounts.selectors import levels_of
from games.settlement.posting import settle_game
from ledger.audit import ledger_violations
from ledger.models import Currency, Hold, Kind, SystemAccount, Transaction
from ledger.services import (
    LedgerError,
    adjust_balance,
    correct_transaction,
    freeze_coins,
    grant_coins,
    release_hold,
)
from ledger.tests.ledger_helpers import (
    coins_of,
    install_level_ladder,
    ledger_snapshot,
    make_user,
    points_of,
    system_balance,
    unique,
)

pytestmark = pytest.mark.django_db


def settled_game(scores=(4, -4, 4, -4), stake_unit=1):
    players = [make_user(coins=10000) for _ in range(4)]
    game_key = unique("game")
    for user in players:
        freeze_coins(user=user, game_key=game_key, amount=5000)
    posted = settle_game(game_key=game_key, players=players, scores=list(scores), coins=True,
                         coefficient=500, fee=50, stake_unit=stake_unit)
    return players, game_key, posted


def test_correcting_a_settlement_posts_its_reversal_and_every_balance_returns():
    players, game_key, settled = settled_game(scores=(1, 0, 0, 1))
    assert coins_of(players) == [10450, 9950, 9950, 10450]
    correction = correct_transaction(original=settled, reason="wrong result")
    assert correction.kind == Kind.CORRECTION
    assert correction.reverses_id == settled.pk
    assert Transaction.objects.get(pk=settled.pk).reversed_by == correction
    assert correction.game_key == game_key
    assert correction.memo == "wrong result"
    assert coins_of(players) == [10000] * 4
    assert points_of(players) == [0] * 4
    for code in (SystemAccount.FEES, SystemAccount.HOUSE, SystemAccount.ESCROW):
        assert system_balance(code) == 0
    assert system_balance(SystemAccount.HOUSE, Currency.POINT) == 0
    assert ledger_violations() == []


def test_frozen_money_returns_to_its_owner_not_to_escrow_and_holds_stay_settled():
    players, game_key, settled = settled_game()
    correction = correct_transaction(original=settled, reason="test")
    assert not correction.legs.filter(account__system=SystemAccount.ESCROW).exists()
    assert not correction.legs.filter(hold__isnull=False).exists()
    assert system_balance(SystemAccount.ESCROW) == 0
    holds = Hold.objects.filter(game_key=game_key)
    assert {(hold.status, hold.resolved_by_id) for hold in holds} == {
        (Hold.Status.SETTLED, settled.pk)}
    # Each player's leg is the opposite of their net: the frozen 5000 came back in
    # the settlement already.
    assert sorted(correction.legs.filter(account__user__in=players,
                                         account__currency=Currency.COIN)
                  .values_list("amount", flat=True)) == [-1950, -1950, 2050, 2050]


def test_correcting_a_settlement_puts_levels_back():
    install_level_ladder()
    players, _, settled = settled_game(stake_unit=15)
    ids = [user.pk for user in players]
    assert levels_of(ids) == dict(zip(ids, [2, 1, 2, 1]))
    correct_transaction(original=settled, reason="test")
    assert levels_of(ids) == dict.fromkeys(ids, 1)


def test_a_transaction_is_corrected_at_most_once():
    players, _, settled = settled_game()
    correct_transaction(original=settled, reason="first")
    after_first = ledger_snapshot()
    with pytest.raises(LedgerError, match="这笔交易已冲正过"):
        correct_transaction(original=Transaction.objects.get(pk=settled.pk), reason="again")
    assert ledger_snapshot() == after_first
    assert coins_of(players) == [10000] * 4


def test_a_second_correction_with_the_same_object_in_hand_is_refused_too():
    _, _, settled = settled_game()
    correct_transaction(original=settled, reason="first")
    after_first = ledger_snapshot()
    with pytest.raises(LedgerError, match="这笔交易已冲正过"):
        correct_transaction(original=settled, reason="double click")
    assert ledger_snapshot() == after_first


def test_freezes_and_releases_cannot_be_corrected():
    user = make_user(coins=1000)
    hold = freeze_coins(user=user, game_key=unique("game"), amount=400)
    released = release_hold(hold)
    before = ledger_snapshot()
    for original in (Transaction.objects.get(pk=hold.freeze_id), released.resolved_by):
        with pytest.raises(LedgerError, match="不能冲正"):
            correct_transaction(original=original, reason="test")
    assert ledger_snapshot() == before


@pytest.mark.django_db(transaction=True)
def test_a_correction_that_would_take_a_players_coins_below_zero_is_refused():
    players, _, settled = settled_game()
    winner = players[0]
    # The winner's 11950 coins are all frozen in the next game: taking the 1950 back
    # would leave them at -1950.
    freeze_coins(user=winner, game_key=unique("game"), amount=11950)
    before = ledger_snapshot()
    with pytest.raises(LedgerError, match="低于零"):
        correct_transaction(original=settled, reason="test")
    assert ledger_snapshot() == before
    assert not Transaction.objects.filter(reverses=settled).exists()
    assert ledger_violations() == []


def test_a_correction_needs_a_reason():
    user = make_user()
    grant = grant_coins(user=user, amount=10, key=unique("grant"))
    before = ledger_snapshot()
    with pytest.raises(LedgerError, match="原因"):
        correct_transaction(original=grant, reason="  ")
    assert ledger_snapshot() == before


def test_grants_and_adjustments_are_corrected_against_their_own_accounts():
    user = make_user()
    grant = grant_coins(user=user, amount=300, key=unique("grant"))
    adjustment = adjust_balance(user=user, currency=Currency.POINT, amount=77, reason="test",
                                key=unique("adjust"))
    issuance = system_balance(SystemAccount.ISSUANCE)
    correct_transaction(original=adjustment, reason="test")
    correct_transaction(original=grant, reason="test")
    assert coins_of([user]) == [0]
    assert points_of([user]) == [0]
    assert system_balance(SystemAccount.ISSUANCE) == issuance + 300
    assert system_balance(SystemAccount.HOUSE, Currency.POINT) == 0
    assert ledger_violations() == []
