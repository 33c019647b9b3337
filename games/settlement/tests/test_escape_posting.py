"""Escape settlement in end_game mode through the ledger (RULES §10, §7–§8)."""

import pytest

from games.settlement.coin_plan import Escape
from games.settlement.posting import settle_game
from ledger.audit import ledger_violations
from ledger.models import Currency, Hold, Kind, SystemAccount
from ledger.services import freeze_coins
from ledger.tests.ledger_helpers import (
    coins_of,
    make_user,
    points_of,
    system_balance,
    unique,
)

pytestmark = pytest.mark.django_db

ESCAPE_RULE = dict(penalty_units=12, compensation_percent=70)


def seat_coin_game(balances: list[int], max_loss: int):
    players = [make_user(coins) for coins in balances]
    game_key = unique("game")
    for user in players:
        freeze_coins(user=user, game_key=game_key, amount=max_loss)
    return players, game_key


def test_escaper_pays_twelve_times_n_seventy_percent_shared_by_the_three_others():
    players, game_key = seat_coin_game([10000] * 4, max_loss=8000)
    # Seat 0 had played a 6-star bomb before seat 1 escaped: contributions stand.
    posted = settle_game(game_key=game_key, players=players, scores=[6, -2, -2, -2],
                         coins=True, coefficient=500, fee=50,
                         escape=Escape(seat=1, **ESCAPE_RULE))
    nets = [coins - 10000 for coins in coins_of(players)]
    # Penalty 12 × 500 = 6000: 4200 shared (1400 each), 1800 to 系统回收 with the fees.
    assert nets == [3000 - 50 + 1400, -1000 - 50 - 6000, -1000 - 50 + 1400, -1000 - 50 + 1400]
    assert system_balance(SystemAccount.FEES) == 4 * 50 + 1800
    assert system_balance(SystemAccount.HOUSE) == 0
    assert posted.kind == Kind.ESCAPE_PENALTY
    assert set(Hold.objects.filter(game_key=game_key).values_list("status", flat=True)) == {
        Hold.Status.SETTLED}
    assert ledger_violations() == []


def test_escape_points_charge_twelve_stake_units_plus_contributions():
    players, game_key = seat_coin_game([10000] * 4, max_loss=8000)
    settle_game(game_key=game_key, players=players, scores=[6, -2, -2, -2], stake_unit=2,
                coins=True, coefficient=500, fee=50, escape=Escape(seat=1, **ESCAPE_RULE))
    assert points_of(players) == [12, -4 - 24, -4, -4]
    assert system_balance(SystemAccount.HOUSE, Currency.POINT) == 24


def test_escape_from_a_points_room_moves_points_only():
    players = [make_user() for _ in range(4)]
    settle_game(game_key=unique("game"), players=players, scores=[0, 0, 0, 0], stake_unit=1,
                escape=Escape(seat=2, **ESCAPE_RULE))
    assert points_of(players) == [0, 0, -12, 0]
    assert coins_of(players) == [0, 0, 0, 0]
    assert ledger_violations() == []


def test_escape_penalty_is_capped_at_the_hold_and_the_odd_coins_go_to_the_fees():
    players, game_key = seat_coin_game([10000, 4001, 10000, 10000], max_loss=8000)
    settle_game(game_key=game_key, players=players, scores=[0, 0, 0, 0], coins=True,
                coefficient=500, fee=50, escape=Escape(seat=1, **ESCAPE_RULE))
    # The escaper's 4001 frozen coins: 50 fee, then 3951 of the 6000 penalty;
    # 70 % is 2765 (rounded down), 921 to each of the three, 2 left over.
    assert coins_of(players) == [10000 + 871, 0, 10000 + 871, 10000 + 871]
    assert system_balance(SystemAccount.FEES) == 4 * 50 + 3951 - 3 * 921
    assert system_balance(SystemAccount.HOUSE) == 0
    assert ledger_violations() == []


def test_an_escaper_owed_contributions_loses_no_more_than_was_frozen():
    # The escaper's bomb earned 3000 but the others had only 50 frozen each (their
    # whole balance), so the gain shrinks to nothing; the penalty takes the whole
    # 6000 hold and the fee must not reach into the 4000 left unfrozen.
    players, game_key = seat_coin_game([10000, 50, 50, 50], max_loss=6000)
    settle_game(game_key=game_key, players=players, scores=[6, -2, -2, -2], coins=True,
                coefficient=500, fee=50, escape=Escape(seat=0, **ESCAPE_RULE))
    assert coins_of(players) == [4000, 1400, 1400, 1400]
    assert system_balance(SystemAccount.FEES) == 3 * 50 + 1800
    assert system_balance(SystemAccount.HOUSE) == 0
    assert ledger_violations() == []


def test_an_escape_settled_twice_posts_once():
    players, game_key = seat_coin_game([10000] * 4, max_loss=8000)
    kwargs = dict(game_key=game_key, players=players, scores=[0, 0, 0, 0], coins=True,
                  coefficient=500, fee=50, escape=Escape(seat=3, **ESCAPE_RULE))
    first = settle_game(**kwargs)
    coins = coins_of(players)
    assert settle_game(**kwargs).pk == first.pk
    assert coins_of(players) == coins == [10000 + 1350, 10000 + 1350, 10000 + 1350,
                                          10000 - 6050]
