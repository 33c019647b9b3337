"""The posting in one call (migration 0008, ledger_post_legs): what it refuses, and what
it writes, read back from the rows."""

import pytest

from ledger.audit import ledger_violations
from ledger.models import Currency, Leg, SystemAccount
from ledger.services import (
    LedgerError,
    LegSpec,
    balance_of,
    ledger_post,
    system_account,
    user_account,
)
from ledger.tests.ledger_helpers import ledger_snapshot, make_user, system_balance, unique

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_players_shortfall_names_the_player_and_the_balance_it_would_reach():
    user = make_user(coins=100)
    before = ledger_snapshot()
    with pytest.raises(LedgerError) as refused:
        ledger_post(key=unique("short"), kind="admin_adjustment", legs=[
            LegSpec(user_account(user, Currency.COIN), -101),
            LegSpec(system_account(SystemAccount.HOUSE, Currency.COIN), 101)])
    assert str(user) in str(refused.value) and "（-1）" in str(refused.value)
    assert ledger_snapshot() == before


def test_a_system_account_that_would_go_below_zero_is_named_and_nothing_is_written():
    user = make_user(coins=100)
    fees = system_account(SystemAccount.FEES, Currency.COIN)
    before = ledger_snapshot()
    with pytest.raises(LedgerError, match=f"系统账户 {fees.pk} 的余额将低于零"):
        ledger_post(key=unique("fees"), kind="admin_adjustment", legs=[
            LegSpec(user_account(user, Currency.COIN), system_balance(SystemAccount.FEES) + 1),
            LegSpec(fees, -(system_balance(SystemAccount.FEES) + 1))])
    assert ledger_snapshot() == before


def test_each_players_leg_carries_the_balance_after_it_and_system_legs_none():
    first, second = make_user(coins=500), make_user(coins=40)
    house = system_account(SystemAccount.HOUSE, Currency.COIN)
    posted = ledger_post(key=unique("move"), kind="admin_adjustment", legs=[
        LegSpec(user_account(first, Currency.COIN), -30),
        LegSpec(user_account(second, Currency.COIN), 25),
        LegSpec(house, 5)])
    after = {leg.account_id: leg.balance_after for leg in Leg.objects.filter(transaction=posted)}
    assert after == {user_account(first, Currency.COIN).pk: 470,
                     user_account(second, Currency.COIN).pk: 65, house.pk: None}
    assert (balance_of(first, Currency.COIN), balance_of(second, Currency.COIN)) == (470, 65)
    # Legs are written in account id order, so a statement reads in that order too.
    ids = list(Leg.objects.filter(transaction=posted).order_by("id")
               .values_list("account_id", flat=True))
    assert ids == sorted(ids)
    assert ledger_violations() == []


def test_a_retry_writes_nothing_and_other_contents_under_the_key_are_refused():
    user = make_user(coins=100)
    key = unique("retry")
    legs = [LegSpec(user_account(user, Currency.COIN), -10),
            LegSpec(system_account(SystemAccount.HOUSE, Currency.COIN), 10)]
    first = ledger_post(key=key, kind="admin_adjustment", legs=legs)
    after_first = ledger_snapshot()
    assert ledger_post(key=key, kind="admin_adjustment", legs=legs).pk == first.pk
    with pytest.raises(LedgerError, match="内容不同"):
        ledger_post(key=key, kind="admin_adjustment", legs=[
            LegSpec(legs[0].account, -11), LegSpec(legs[1].account, 11)])
    assert ledger_snapshot() == after_first
