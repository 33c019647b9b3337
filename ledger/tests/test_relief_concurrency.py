"""The relief grant under simultaneous requests, each thread with its own connection:
the player's account lock serialises claims, so the day's limit and the one posting per
claim hold however the requests race."""

import pytest

from common.testing.threads import run_threads
from games.settlement.posting import settle_game
from ledger.audit import ledger_violations
from ledger.models import Kind, Transaction
from ledger.relief import claim_relief
from ledger.services import LedgerError, balance_of, freeze_coins, grant_coins
from ledger.tests.ledger_helpers import make_players, make_user, unique

pytestmark = pytest.mark.django_db(transaction=True)

AMOUNT = 300


@pytest.fixture(autouse=True)
def relief_settings(settings):
    settings.LEDGER_RELIEF_THRESHOLD = 1000
    settings.LEDGER_RELIEF_AMOUNT = AMOUNT
    settings.LEDGER_RELIEF_PER_DAY = 2


def a_player_who_played():
    player = make_user(coins=0)
    settle_game(game_key=unique("game"), players=[player, *make_players(coins=0, count=3)],
                scores=[1, 1, -1, -1])
    return player


def test_six_simultaneous_clicks_on_the_same_claim_pay_once():
    player = a_player_who_played()

    results = run_threads(6, lambda _index: claim_relief(user=player, claim=1).pk)

    assert len(set(results)) == 1 and all(isinstance(pk, int) for pk in results)
    assert balance_of(player, "coin") == AMOUNT
    assert ledger_violations() == []


def test_six_simultaneous_next_claims_post_the_days_two_and_refuse_the_rest():
    player = a_player_who_played()

    results = run_threads(6, lambda _index: claim_relief(user=player))

    posted = [result for result in results if isinstance(result, Transaction)]
    refused = [result for result in results if isinstance(result, LedgerError)]
    assert (len(posted), len(refused)) == (2, 4)
    assert Transaction.objects.filter(kind=Kind.RELIEF).count() == 2
    assert balance_of(player, "coin") == 2 * AMOUNT
    assert ledger_violations() == []


def test_eight_simultaneous_claims_with_the_whole_balance_frozen_pay_nothing():
    player = a_player_who_played()
    grant_coins(user=player, amount=10_000, key=unique("grant"))
    freeze_coins(user=player, game_key=unique("game"), amount=10_000)  # available: 0

    results = run_threads(8, lambda _index: claim_relief(user=player))

    assert all(isinstance(result, LedgerError) for result in results), results
    assert not Transaction.objects.filter(kind=Kind.RELIEF).exists()
    assert balance_of(player, "coin") == 0
    assert ledger_violations() == []


def test_eight_simultaneous_claims_stop_once_the_coins_frozen_included_reach_the_threshold():
    player = a_player_who_played()
    grant_coins(user=player, amount=900, key=unique("grant"))
    freeze_coins(user=player, game_key=unique("game"), amount=400)  # 500 + 400 frozen

    results = run_threads(8, lambda _index: claim_relief(user=player))

    # 900 is under 1000: one claim; 1200 is not: the day's second claim is refused.
    posted = [result for result in results if isinstance(result, Transaction)]
    assert len(posted) == 1 and all(isinstance(result, LedgerError)
                                    for result in results if result not in posted)
    assert balance_of(player, "coin") == 500 + AMOUNT
    assert ledger_violations() == []
