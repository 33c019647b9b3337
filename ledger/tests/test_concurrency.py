"""Many threads, each with its own database connection, against one ledger
(RULES §8: a game is settled exactly once; GUIDE "Money": locks in a fixed order)."""

import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from common.testing.threads import run_threads
from games.settlement.posting import settle_game
from ledger.audit import ledger_violations
from ledger.models import Account, Currency, Hold, SystemAccount, Transaction
from ledger.services import (
    LedgerError,
    accounts_of,
    freeze_coins,
    grant_coins,
    release_hold,
    system_account,
)
from ledger.tests.ledger_helpers import (
    coin_total_outside_issuance,
    coins_of,
    make_user,
    system_balance,
    unique,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_eight_threads_settling_the_same_game_post_one_transaction():
    players = [make_user(coins=10000) for _ in range(4)]
    game_key = unique("game")
    for user in players:
        freeze_coins(user=user, game_key=game_key, amount=5000)

    def settle(_index: int) -> int:
        return settle_game(game_key=game_key, players=players, scores=[4, -4, 4, -4],
                           coins=True, coefficient=500, fee=50).pk

    results = run_threads(8, settle)
    assert all(isinstance(result, int) for result in results), results
    settled = Transaction.objects.get(key=f"settle:{game_key}")
    assert set(results) == {settled.pk}
    assert Transaction.objects.filter(game_key=game_key, kind="settlement").count() == 1
    holds = Hold.objects.filter(game_key=game_key)
    assert {(hold.status, hold.resolved_by_id) for hold in holds} == {
        (Hold.Status.SETTLED, settled.pk)}
    assert coins_of(players) == [11950, 7950, 11950, 7950]
    assert system_balance(SystemAccount.FEES) == 200
    assert ledger_violations() == []


def test_eight_threads_settling_the_same_points_game_post_one_transaction():
    players = [make_user() for _ in range(4)]
    game_key = unique("game")

    def settle(_index: int) -> int:
        return settle_game(game_key=game_key, players=players, scores=[2, -2, 2, -2]).pk

    results = run_threads(8, settle)
    assert all(isinstance(result, int) for result in results), results
    assert len(set(results)) == 1
    assert Transaction.objects.filter(key=f"settle:{game_key}").count() == 1
    assert ledger_violations() == []


def test_eight_threads_freezing_the_same_hold_freeze_it_once():
    user = make_user(coins=10000)
    game_key = unique("game")

    def freeze(_index: int):
        try:
            return freeze_coins(user=user, game_key=game_key, amount=3000).pk
        except LedgerError as error:  # a racer froze first: refused, nothing written
            return error

    results = run_threads(8, freeze)
    hold = Hold.objects.get(game_key=game_key, user=user)
    assert hold.pk in results
    assert all(result == hold.pk or isinstance(result, LedgerError) for result in results)
    assert coins_of([user]) == [7000]
    assert ledger_violations() == []


PLAYERS = 10
THREADS = 8
OPERATIONS = 50


@pytest.mark.slow  # thousands of random transfers from many threads
def test_many_threads_moving_coins_at_random_keep_the_ledger_whole():
    # The system accounts exist before the players sign up, as in production: their
    # ids are lower than the players' (lock order matters).
    for code in SystemAccount:
        system_account(code, "coin")
        system_account(code, "point")
    players = [make_user(coins=20000) for _ in range(PLAYERS)]
    total_before = coin_total_outside_issuance()
    granted = [0] * THREADS

    def play(index: int) -> dict:
        rng = random.Random(1000 + index)
        counts = {"grant": 0, "settled": 0, "released": 0, "refused": 0}
        for step in range(OPERATIONS):
            choice = rng.random()
            if choice < 0.15:
                amount = rng.randint(1, 3000)
                grant_coins(user=rng.choice(players), amount=amount,
                            key=f"grant:{index}:{step}")
                granted[index] += amount
                counts["grant"] += 1
                continue
            seats = rng.sample(players, 4)
            game_key = f"game:{index}:{step}"
            holds = []
            try:
                for user in seats:
                    holds.append(freeze_coins(user=user, game_key=game_key,
                                              amount=rng.randint(1000, 12000)))
            except LedgerError:  # someone had nothing left to freeze
                for hold in holds:
                    release_hold(hold)
                counts["refused"] += 1
                continue
            if choice < 0.3:
                for hold in holds:
                    release_hold(hold)
                counts["released"] += 1
                continue
            base = rng.choice([[4, -4, 4, -4], [2, -2, 2, -2], [1, 0, 0, 1], [-4, 4, -4, 4]])
            bombs = [rng.randrange(4) for _ in range(rng.randint(0, 2))]  # 6-star bombs
            scores = [score + sum(6 if seat == bomber else -2 for bomber in bombs)
                      for seat, score in enumerate(base)]
            settle_game(game_key=game_key, players=seats, scores=scores, coins=True,
                        coefficient=rng.choice([10, 100, 500, 1000]), fee=rng.randint(0, 60))
            counts["settled"] += 1
        return counts

    results = run_threads(THREADS, play)
    errors = [result for result in results if isinstance(result, BaseException)]
    assert errors == []
    assert sum(result["settled"] for result in results) > 100
    assert ledger_violations() == []
    assert Hold.objects.filter(status=Hold.Status.PENDING).count() == 0
    assert system_balance(SystemAccount.ESCROW) == 0
    assert coin_total_outside_issuance() == total_before + sum(granted)
    assert system_balance(SystemAccount.ISSUANCE) == -(total_before + sum(granted))
    assert min(coins_of(players)) >= 0


def test_missing_accounts_are_made_in_one_order_whatever_order_they_are_asked_in():
    """Two transactions making some of the same accounts at once deadlocked when each
    inserted them in its own order (the test above failed so, once): they are made
    players by id, then system accounts, in every call."""
    users = [make_user() for _ in range(4)]
    Account.objects.filter(user__in=users).delete()  # as before a player's first game
    asked = [users[2], users[0], users[3], users[1]]

    with CaptureQueriesContext(connection) as queries:
        made = accounts_of(users=asked, systems=[SystemAccount.FEES, SystemAccount.ESCROW],
                           currencies=[Currency.POINT, Currency.COIN])

    insert = next(query["sql"] for query in queries if query["sql"].startswith("INSERT"))
    # the rows' owners as inserted: the first array of the INSERT's UNNEST
    owners = re.search(r"UNNEST\(\('\{([^}]*)\}'", insert).group(1).split(",")
    inserted = [int(owner) for owner in owners if owner != "NULL"]
    assert inserted == sorted(inserted) and set(inserted) == {user.pk for user in users}
    assert owners[-4:] == ["NULL"] * 4  # the system accounts after the players'
    assert {(user.pk, currency) for user in users
            for currency in (Currency.POINT, Currency.COIN)} <= set(made)
