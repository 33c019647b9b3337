"""A settlement's transaction waits on the database as few times as it can: the
holds and accounts in one send, the whole posting in one call of the database's
ledger_post_legs (ledger.sql), and it still posts what the ORM-built path posted
(docs/performance.md, "Ledger")."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.settlement.posting import settle_game
from ledger.audit import ledger_violations
from ledger.models import Currency, Hold, Leg, Transaction
from ledger.services import balance_of, freeze_coins, release_hold
from ledger.tests.ledger_helpers import make_players


@pytest.mark.django_db(transaction=True)
def test_a_coin_settlement_sends_twice_and_posts_every_leg_and_balance():
    players = make_players()
    for key in ("rt0", "rt1"):
        for user in players:
            freeze_coins(user=user, game_key=key, amount=5000)
    # The first game makes the accounts a coin settlement posts to.
    settle_game(game_key="rt0", players=players, scores=[0, 0, 0, 0], coins=True,
                coefficient=500, fee=50)
    before = [balance_of(user, Currency.COIN) for user in players]

    with CaptureQueriesContext(connection) as captured:
        posted = settle_game(game_key="rt1", players=players, scores=[4, -4, 4, -4],
                             coins=True, coefficient=500, fee=50)

    # The holds and accounts; then the locks, the key's check and every write in one
    # call. The ORM-built path sent ten (BEGIN and COMMIT, logged too, are not sends).
    sent = [query["sql"] for query in captured.captured_queries
            if query["sql"] not in ("BEGIN", "COMMIT")]
    assert len(sent) == 2, [sql[:80] for sql in sent]
    assert sent[1].startswith("SELECT * FROM ledger_post_legs(")
    assert [balance_of(user, Currency.COIN) - start for user, start in zip(players, before)] \
        == [6950, 2950, 6950, 2950]  # the hold back with the game's net (RULES §8)
    legs = Leg.objects.filter(transaction=posted)
    assert legs.filter(hold__isnull=False).count() == 4
    for leg in legs.filter(account__user__isnull=False):
        assert leg.balance_after is not None
    assert set(Hold.objects.filter(game_key="rt1").values_list("status", "resolved_by")) \
        == {(Hold.Status.SETTLED, posted.pk)}
    assert Transaction.objects.get(key="settle:rt1").pk == posted.pk
    assert ledger_violations() == []


@pytest.mark.django_db(transaction=True)
def test_a_release_resolves_its_hold_in_the_posting_and_a_second_release_changes_nothing():
    user = make_players()[0]
    hold = freeze_coins(user=user, game_key="rt2", amount=3000)

    released = release_hold(hold)
    again = release_hold(hold)

    assert released.status == again.status == Hold.Status.RELEASED
    stored = Hold.objects.get(pk=hold.pk)
    assert stored.resolved_by.key == f"release:{hold.pk}"
    assert Transaction.objects.filter(key=f"release:{hold.pk}").count() == 1
    assert balance_of(user, Currency.COIN) == 10000
    assert ledger_violations() == []
