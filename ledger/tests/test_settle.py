"""Settlement through the ledger on PostgreSQL (RULES §7–§8)."""

import pytest

from accounts.models import User
from ledger.audit import ledger_violations
from ledger.models import Currency, Hold, SystemAccount
from ledger.services import (
    balance_of,
    freeze_coins,
    grant_coins,
    settle_game,
    system_account,
)

pytestmark = pytest.mark.django_db(transaction=True)


def make_players(coins: int = 10000) -> list[User]:
    players = []
    for seat in range(4):
        user = User.objects.create_user(username=f"p{seat}", password="pw")
        grant_coins(user=user, amount=coins, key=f"grant:test:{seat}")
        players.append(user)
    return players


def test_rules_worked_example_double_kou_with_coefficient_500_and_fee_50():
    players = make_players()
    for user in players:
        freeze_coins(user=user, game_key="g1", amount=5000)
    settle_game(game_key="g1", players=players, scores=[4, -4, 4, -4], coins=True,
                coefficient=500, fee=50)
    assert [balance_of(user, Currency.COIN) for user in players] == [11950, 7950, 11950, 7950]
    assert system_account(SystemAccount.FEES, Currency.COIN).balance == 200
    assert [balance_of(user, Currency.POINT) for user in players] == [4, -4, 4, -4]
    assert set(Hold.objects.values_list("status", flat=True)) == {Hold.Status.SETTLED}
    assert ledger_violations() == []
