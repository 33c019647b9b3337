"""The audit proves the ledger whole and names what is broken (``manage.py ledger_audit``)."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, transaction

from games.settlement.posting import settle_game
from ledger.audit import ledger_violations
from ledger.models import Account, Currency, Hold, SystemAccount, Transaction
from ledger.services import (
    adjust_balance,
    correct_transaction,
    freeze_coins,
    grant_coins,
    release_hold,
    system_account,
    user_account,
)
from ledger.tests.ledger_helpers import make_user, unique

pytestmark = pytest.mark.django_db


def sql(statement: str, params: tuple = ()) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement, params)


@pytest.fixture
def busy_ledger():
    """Every kind of posting once: grants, a settled game, a released hold, a
    correction, adjustments in both currencies."""
    players = [make_user(coins=10000) for _ in range(4)]
    game_key = unique("game")
    for user in players:
        freeze_coins(user=user, game_key=game_key, amount=5000)
    settled = settle_game(game_key=game_key, players=players, scores=[1, 0, 0, 1],
                          coins=True, coefficient=500, fee=50)
    release_hold(freeze_coins(user=players[0], game_key=unique("game"), amount=300))
    pending = freeze_coins(user=players[1], game_key=unique("game"), amount=700)
    correct_transaction(original=settled, reason="test")
    adjust_balance(user=players[2], currency=Currency.POINT, amount=-9, reason="test",
                   key=unique("adjust"))
    adjust_balance(user=players[3], currency=Currency.COIN, amount=25, reason="test",
                   key=unique("adjust"))
    grant_coins(user=players[3], amount=1, key=unique("grant"))
    return players, pending


def test_a_clean_ledger_has_no_violations(busy_ledger):
    assert Transaction.objects.count() >= 10
    assert ledger_violations() == []


def test_an_empty_ledger_has_no_violations():
    assert Account.objects.count() == 0
    assert ledger_violations() == []


def test_a_balance_changed_without_legs_is_named(busy_ledger):
    points = user_account(busy_ledger[0][0], Currency.POINT)
    sql("UPDATE ledger_account SET balance = balance + 5 WHERE id = %s", (points.pk,))
    assert ledger_violations() == [
        f"account {points.pk} ({points}): balance {points.balance + 5} but its legs sum to "
        f"{points.balance}",
        "point balances sum to 5, not zero",
    ]


def test_money_moved_between_balances_by_hand_is_named_even_when_it_sums_to_zero(busy_ledger):
    escrow = system_account(SystemAccount.ESCROW, Currency.COIN)
    fees = system_account(SystemAccount.FEES, Currency.COIN)
    sql("UPDATE ledger_account SET balance = balance - 100 WHERE id = %s", (escrow.pk,))
    sql("UPDATE ledger_account SET balance = balance + 100 WHERE id = %s", (fees.pk,))
    violations = ledger_violations()
    assert f"account {escrow.pk} ({escrow}): balance {escrow.balance - 100} but its legs sum " \
           f"to {escrow.balance}" in violations
    assert f"account {fees.pk} ({fees}): balance {fees.balance + 100} but its legs sum to " \
           f"{fees.balance}" in violations
    assert f"escrow holds {escrow.balance - 100} but pending holds total 700" in violations
    assert len(violations) == 3


def test_legs_added_to_an_old_transaction_are_named(busy_ledger):
    # Balanced, so the trigger lets them in; the balances no longer match the legs.
    players = busy_ledger[0]
    grant = Transaction.objects.filter(kind="grant").first()
    mine, theirs = (user_account(user, Currency.COIN) for user in players[:2])
    sql("INSERT INTO ledger_leg (transaction_id, account_id, amount) VALUES "
        "(%s, %s, 40), (%s, %s, -40)", (grant.pk, mine.pk, grant.pk, theirs.pk))
    assert sorted(ledger_violations()) == sorted([
        f"account {mine.pk} ({mine}): balance {mine.balance} but its legs sum to "
        f"{mine.balance + 40}",
        f"account {theirs.pk} ({theirs}): balance {theirs.balance} but its legs sum to "
        f"{theirs.balance - 40}",
    ])


def test_a_settled_hold_set_back_to_pending_is_named(busy_ledger):
    hold = Hold.objects.filter(status=Hold.Status.SETTLED).first()
    sql("UPDATE ledger_hold SET status = 'pending', resolved_by_id = NULL, resolved_at = NULL "
        "WHERE id = %s", (hold.pk,))
    violations = ledger_violations()
    assert f"hold {hold.pk} (pending): escrow legs sum to 0, expected {hold.amount}" in violations
    assert f"escrow holds 700 but pending holds total {700 + hold.amount}" in violations
    assert len(violations) == 2


def test_a_hold_that_was_never_frozen_is_named(busy_ledger):
    user = busy_ledger[0][2]
    sql("INSERT INTO ledger_hold (game_key, user_id, amount, status, created_at) "
        "VALUES ('forged', %s, 100, 'pending', now())", (user.pk,))
    hold = Hold.objects.get(game_key="forged")
    assert ledger_violations() == [
        f"hold {hold.pk}: frozen 0 times",
        f"hold {hold.pk} (pending): escrow legs sum to 0, expected 100",
        "escrow holds 700 but pending holds total 800",
    ]


def test_a_pending_hold_marked_released_without_its_coins_returned_is_named(busy_ledger):
    _, pending = busy_ledger
    other = Transaction.objects.filter(kind="grant").first()
    sql("UPDATE ledger_hold SET status = 'released', resolved_by_id = %s, resolved_at = now() "
        "WHERE id = %s", (other.pk, pending.pk))
    assert ledger_violations() == [
        f"hold {pending.pk} (released): escrow legs sum to 700, expected 0",
        "escrow holds 700 but pending holds total 0",
    ]


def test_the_audit_command_prints_clean_for_a_clean_ledger(busy_ledger):
    out = io.StringIO()
    call_command("ledger_audit", stdout=out, stderr=io.StringIO())
    assert out.getvalue().strip() == "ledger audit clean"


def test_the_audit_command_fails_naming_each_violation(busy_ledger):
    points = user_account(busy_ledger[0][0], Currency.POINT)
    sql("UPDATE ledger_account SET balance = balance + 5 WHERE id = %s", (points.pk,))
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match="2 violation"):
        call_command("ledger_audit", stdout=out, stderr=err)
    lines = err.getvalue().splitlines()
    assert lines == [f"VIOLATION: {violation}" for violation in ledger_violations()]
    assert len(lines) == 2
    assert "ledger audit clean" not in out.getvalue()
