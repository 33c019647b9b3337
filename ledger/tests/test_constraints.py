"""PostgreSQL itself refuses what would break the ledger, even around the ORM
(migration 0002 triggers, model CHECK and unique constraints; GUIDE "Money")."""

import pytest
from django.db import IntegrityError, connection, transaction

from games.settlement.posting import settle_game
from ledger.audit import ledger_violations
from ledger.models import Account, Currency, Hold, Leg, SystemAccount, Transaction
from ledger.services import adjust_balance, freeze_coins, system_account, user_account
from ledger.tests.ledger_helpers import ledger_snapshot, make_user, unique

pytestmark = pytest.mark.django_db


def sql(statement: str, params: tuple = ()) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.fetchall() if cursor.description else []


def insert_transaction(key: str) -> int:
    return sql("INSERT INTO ledger_transaction (key, kind, fingerprint, memo, game_key, "
               "created_at) VALUES (%s, 'grant', '', '', '', now()) RETURNING id", (key,))[0][0]


def insert_leg(transaction_id: int, account: Account, amount: int) -> None:
    insert_legs(transaction_id, [(account, amount)])


def insert_legs(transaction_id: int, legs: list[tuple[Account, int]]) -> None:
    """Legs written by one statement, as a transaction's legs are."""
    sql("INSERT INTO ledger_leg (transaction_id, account_id, amount, balance_after) VALUES "
        + ", ".join("(%s, %s, %s, 0)" for _ in legs),
        tuple(value for account, amount in legs for value in (transaction_id, account.pk, amount)))


@pytest.fixture
def granted():
    """A user with a grant, some points and a settled game: rows to attack."""
    players = [make_user(coins=10000) for _ in range(4)]
    game_key = unique("game")
    for user in players:
        freeze_coins(user=user, game_key=game_key, amount=5000)
    settle_game(game_key=game_key, players=players, scores=[4, -4, 4, -4], coins=True,
                coefficient=100, fee=10)
    adjust_balance(user=players[0], currency=Currency.POINT, amount=-50, reason="test",
                   key=unique("adjust"))
    assert ledger_violations() == []
    return players


def refused(statement: str, params: tuple = (), match: str = "") -> None:
    """Run one raw statement in its own transaction and see PostgreSQL refuse it,
    leaving every ledger row as it was."""
    before = ledger_snapshot()
    with pytest.raises(IntegrityError, match=match), transaction.atomic():
        sql(statement, params)
    assert ledger_snapshot() == before
    assert ledger_violations() == []


# --- append-only legs and transactions ------------------------------------------------------

def test_updating_a_legs_amount_is_refused(granted):
    leg = Leg.objects.first()
    refused("UPDATE ledger_leg SET amount = amount + 1 WHERE id = %s", (leg.pk,),
            match="append-only")
    assert Leg.objects.get(pk=leg.pk).amount == leg.amount


def test_updating_a_legs_account_is_refused(granted):
    leg = Leg.objects.filter(amount__gt=0).first()
    other = system_account(SystemAccount.FEES, Currency.COIN)
    refused("UPDATE ledger_leg SET account_id = %s WHERE id = %s", (other.pk, leg.pk),
            match="append-only")


def test_deleting_a_leg_is_refused(granted):
    leg = Leg.objects.first()
    refused("DELETE FROM ledger_leg WHERE id = %s", (leg.pk,), match="append-only")
    assert Leg.objects.filter(pk=leg.pk).exists()


def test_updating_a_transaction_is_refused(granted):
    posted = Transaction.objects.first()
    refused("UPDATE ledger_transaction SET memo = 'rewritten' WHERE id = %s", (posted.pk,),
            match="append-only")
    refused("UPDATE ledger_transaction SET key = 'stolen' WHERE id = %s", (posted.pk,),
            match="append-only")
    assert Transaction.objects.get(pk=posted.pk).memo == posted.memo


def test_deleting_a_transaction_is_refused(granted):
    posted = Transaction.objects.first()
    refused("DELETE FROM ledger_transaction WHERE id = %s", (posted.pk,), match="append-only")
    assert Transaction.objects.filter(pk=posted.pk).exists()


# --- zero-sum transactions, checked at commit -----------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_an_unbalanced_transaction_is_refused_by_the_statement_that_writes_its_legs(granted):
    mine = user_account(granted[0], Currency.COIN)
    issuance = system_account(SystemAccount.ISSUANCE, Currency.COIN)
    key = unique("forged")
    before = ledger_snapshot()
    with pytest.raises(IntegrityError, match="does not balance"):
        with transaction.atomic():
            insert_legs(insert_transaction(key), [(mine, 5), (issuance, -4)])
    assert not Transaction.objects.filter(key=key).exists()
    assert ledger_snapshot() == before


@pytest.mark.django_db(transaction=True)
def test_legs_balanced_only_together_are_refused_when_written_one_at_a_time(granted):
    # Each statement must leave the transactions it touches balanced (migration 0010):
    # a transaction's legs are written together.
    mine = user_account(granted[0], Currency.COIN)
    issuance = system_account(SystemAccount.ISSUANCE, Currency.COIN)
    key = unique("forged")
    with pytest.raises(IntegrityError, match="does not balance"), transaction.atomic():
        posted = insert_transaction(key)
        insert_leg(posted, mine, 5)
        insert_leg(posted, issuance, -5)
    assert not Transaction.objects.filter(key=key).exists()


@pytest.mark.django_db(transaction=True)
def test_a_later_leg_that_unbalances_a_posted_transaction_is_refused(granted):
    mine = user_account(granted[0], Currency.COIN)
    issuance = system_account(SystemAccount.ISSUANCE, Currency.COIN)
    posted = Transaction.objects.filter(legs__account=mine).first()
    before = ledger_snapshot()
    with pytest.raises(IntegrityError, match="does not balance"), transaction.atomic():
        insert_legs(posted.pk, [(issuance, 7)])
    assert ledger_snapshot() == before


@pytest.mark.django_db(transaction=True)
def test_a_transaction_balanced_in_total_but_not_per_currency_is_refused(granted):
    coins = user_account(granted[0], Currency.COIN)
    points = system_account(SystemAccount.HOUSE, Currency.POINT)
    key = unique("forged")
    with pytest.raises(IntegrityError, match="does not balance"), transaction.atomic():
        insert_legs(insert_transaction(key), [(coins, 5), (points, -5)])
    assert not Transaction.objects.filter(key=key).exists()


@pytest.mark.django_db(transaction=True)
def test_a_transaction_without_legs_is_refused_at_commit(granted):
    key = unique("empty")
    with pytest.raises(IntegrityError, match="has no legs"), transaction.atomic():
        insert_transaction(key)
    assert not Transaction.objects.filter(key=key).exists()


@pytest.mark.django_db(transaction=True)
def test_a_balanced_transaction_written_by_hand_is_accepted(granted):
    # The control for the refusals above: the triggers refuse imbalance, not SQL.
    mine = user_account(granted[0], Currency.COIN)
    issuance = system_account(SystemAccount.ISSUANCE, Currency.COIN)
    key = unique("by-hand")
    with transaction.atomic():
        insert_legs(insert_transaction(key), [(mine, 5), (issuance, -5)])
        sql("UPDATE ledger_account SET balance = balance + 5 WHERE id = %s", (mine.pk,))
        sql("UPDATE ledger_account SET balance = balance - 5 WHERE id = %s", (issuance.pk,))
    assert Transaction.objects.get(key=key).legs.count() == 2
    assert ledger_violations() == []


def test_a_leg_of_zero_is_refused(granted):
    mine = user_account(granted[0], Currency.COIN)
    with pytest.raises(IntegrityError, match="leg_amount_not_zero"), transaction.atomic():
        posted = insert_transaction(unique("zero"))
        insert_leg(posted, mine, 0)


# --- balances and accounts ------------------------------------------------------------------

def test_a_users_coin_balance_cannot_be_set_below_zero(granted):
    mine = user_account(granted[1], Currency.COIN)
    refused("UPDATE ledger_account SET balance = -1 WHERE id = %s", (mine.pk,),
            match="balance_not_negative")
    assert Account.objects.get(pk=mine.pk).balance == mine.balance


@pytest.mark.parametrize("code", [SystemAccount.FEES, SystemAccount.ESCROW])
def test_the_fee_and_escrow_accounts_cannot_go_below_zero(granted, code):
    account = system_account(code, Currency.COIN)
    refused("UPDATE ledger_account SET balance = -1 WHERE id = %s", (account.pk,),
            match="balance_not_negative")


def test_points_the_house_and_issuance_may_go_below_zero(granted):
    # The controls for the CHECK above (RULES §7: points may be negative).
    points = user_account(granted[1], Currency.POINT)
    house = system_account(SystemAccount.HOUSE, Currency.COIN)
    issuance = system_account(SystemAccount.ISSUANCE, Currency.COIN)
    assert points.balance < 0
    assert issuance.balance < 0
    with transaction.atomic():
        sql("UPDATE ledger_account SET balance = -7 WHERE id = %s", (house.pk,))
    assert Account.objects.get(pk=house.pk).balance == -7


def test_a_second_account_for_the_same_user_and_currency_is_refused(granted):
    mine = user_account(granted[0], Currency.COIN)
    refused("INSERT INTO ledger_account (user_id, currency, balance, created_at) "
            "VALUES (%s, 'coin', 0, now())", (granted[0].pk,),
            match="one_account_per_user_and_currency")
    assert Account.objects.filter(user=granted[0], currency=Currency.COIN).get() == mine


def test_a_second_system_account_for_the_same_currency_is_refused(granted):
    refused("INSERT INTO ledger_account (system, currency, balance, created_at) "
            "VALUES ('fees', 'coin', 0, now())", match="one_system_account_per_currency")


def test_an_account_with_two_owners_or_none_is_refused(granted):
    refused("INSERT INTO ledger_account (user_id, system, currency, balance, created_at) "
            "VALUES (%s, 'house', 'point', 0, now())", (granted[0].pk,),
            match="account_has_one_owner")
    refused("INSERT INTO ledger_account (currency, balance, created_at) "
            "VALUES ('point', 0, now())", match="account_has_one_owner")


# --- holds ----------------------------------------------------------------------------------

def test_a_hold_resolved_without_resolved_by_is_refused():
    user = make_user(coins=1000)
    hold = freeze_coins(user=user, game_key=unique("game"), amount=500)
    for status in (Hold.Status.SETTLED, Hold.Status.RELEASED):
        refused("UPDATE ledger_hold SET status = %s, resolved_at = now() WHERE id = %s",
                (status, hold.pk), match="hold_resolved_iff_not_pending")
    assert Hold.objects.get(pk=hold.pk).status == Hold.Status.PENDING


def test_a_pending_hold_naming_a_resolving_transaction_is_refused():
    user = make_user(coins=1000)
    hold = freeze_coins(user=user, game_key=unique("game"), amount=500)
    refused("UPDATE ledger_hold SET resolved_by_id = freeze_id WHERE id = %s", (hold.pk,),
            match="hold_resolved_iff_not_pending")


def test_a_second_hold_for_the_same_game_and_player_is_refused():
    user = make_user(coins=1000)
    hold = freeze_coins(user=user, game_key=unique("game"), amount=500)
    refused("INSERT INTO ledger_hold (game_key, user_id, amount, status, created_at) "
            "VALUES (%s, %s, 1, 'pending', now())", (hold.game_key, user.pk),
            match="one_hold_per_game_and_user")


def test_a_negative_hold_is_refused():
    user = make_user(coins=1000)
    refused("INSERT INTO ledger_hold (game_key, user_id, amount, status, created_at) "
            "VALUES (%s, %s, -1, 'pending', now())", (unique("game"), user.pk),
            match="hold_amount_not_negative")

