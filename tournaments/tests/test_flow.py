"""Registration, the money of entries, refunds and prizes, and a whole tournament
played by 托管 and bots (no sockets: tournaments/tests/test_tournament_sockets.py has
the socket players)."""

import pytest

from games.errors import ActionError
from games.live.lifecycle.act import game_act
from games.models import GameRecord, Seat
from ledger.audit import ledger_violations
from ledger.models import Account, Currency, SystemAccount, Transaction
from ledger.services import balance_of
from tournaments import flow
from tournaments.models import Entry, Tournament
from tournaments.registration import register, withdraw
from tournaments.testing import (
    hands_by_board,
    make_due,
    make_people,
    make_template,
    open_scheduled,
    standings_from_logs,
)

pytestmark = pytest.mark.django_db


def pool() -> int:
    account = Account.objects.filter(system=SystemAccount.PRIZE_POOL,
                                     currency=Currency.COIN).first()
    return account.balance if account else 0


def fees() -> int:
    account = Account.objects.filter(system=SystemAccount.FEES, currency=Currency.COIN).first()
    return account.balance if account else 0


def test_entries_go_to_the_pool_with_the_fee_itemised_and_a_cancel_refunds_every_one():
    tournament = open_scheduled(make_template())
    people = make_people(5)
    for person in people:
        register(user=person, tournament_id=tournament.pk)
    assert [balance_of(person, Currency.COIN) for person in people] == [900] * 5
    assert (pool(), fees()) == (450, 50)
    entry = Transaction.objects.get(key=f"tournament:{tournament.pk}:entry:{people[0].pk}:1")
    assert sorted(entry.legs.values_list("amount", flat=True)) == [-100, 10, 90]
    # withdraw and come back: a refund, then a second entry with its own key
    withdraw(user=people[0], tournament_id=tournament.pk)
    assert balance_of(people[0], Currency.COIN) == 1000
    register(user=people[0], tournament_id=tournament.pk)
    assert Entry.objects.get(user=people[0]).number == 2
    assert flow.cancel(tournament.pk)
    assert [balance_of(person, Currency.COIN) for person in people] == [1000] * 5
    assert (pool(), fees()) == (0, 0)
    assert Transaction.objects.filter(key__startswith=f"tournament:{tournament.pk}:refund:") \
        .count() == 6
    assert not flow.cancel(tournament.pk)  # once
    assert ledger_violations() == []


def test_refusals_change_nothing():
    tournament = open_scheduled(make_template())
    poor, = make_people(1, coins=50)
    with pytest.raises(ActionError, match="无法报名"):
        register(user=poor, tournament_id=tournament.pk)
    assert not Entry.objects.exists() and balance_of(poor, Currency.COIN) == 50
    rich, = make_people(1)
    register(user=rich, tournament_id=tournament.pk)
    with pytest.raises(ActionError, match="已经报名"):
        register(user=rich, tournament_id=tournament.pk)
    with pytest.raises(ActionError, match="没有报名"):
        withdraw(user=poor, tournament_id=tournament.pk)
    assert balance_of(rich, Currency.COIN) == 900 and pool() == 90


def test_too_few_without_bots_cancels_at_the_start_with_refunds():
    tournament = open_scheduled(make_template(bots_for_no_shows=False))
    people = make_people(6)
    for person in people:
        register(user=person, tournament_id=tournament.pk)
    make_due(tournament)
    flow.sweep()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert [balance_of(person, Currency.COIN) for person in people] == [1000] * 6
    assert pool() == 0 and ledger_violations() == []


def play_by_trustee(tournament: Tournament, people) -> None:
    """Each person's seat to 托管 whenever they have a game: the bots and 托管 then
    play it out in the same step, and the tournament moves on."""
    for _step in range(500):
        tournament.refresh_from_db()
        if tournament.status != Tournament.Status.RUNNING:
            return
        moved = False
        for person in people:
            seat = Seat.objects.filter(user=person).select_related("table__current_game") \
                .first()
            game = seat.table.current_game if seat else None
            if game is not None and game.status == GameRecord.Status.PLAYING:
                game_act(user_id=person.pk, game_id=game.pk, action="trustee", on=True)
                moved = True
        assert moved, "nobody has a game and the tournament is still running"
    raise AssertionError("the tournament never ended")


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_tournament_with_bots_runs_to_the_end_and_pays_once():
    tournament = open_scheduled(make_template())
    people = make_people(3)
    for person in people:
        register(user=person, tournament_id=tournament.pk)
    make_due(tournament)
    assert flow.sweep() == 1
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert Entry.objects.filter(tournament=tournament, is_bot=True).count() == 13
    play_by_trustee(tournament, people)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    for hands in hands_by_board(tournament).values():
        assert len(hands) == 4 and all(table == hands[0] for table in hands)
    entrants = list(Entry.objects.filter(tournament=tournament).order_by("pk")
                    .values_list("user_id", flat=True))
    shown = list(Entry.objects.filter(tournament=tournament).order_by("place")
                 .values_list("user_id", "matchpoints", "score"))
    assert shown == standings_from_logs(tournament, entrants)
    # the people's places take the prizes (270 in the pool: 135, 81, 54)
    assert sorted(Entry.objects.filter(tournament=tournament, is_bot=False)
                  .values_list("prize", flat=True)) == [54, 81, 135]
    assert pool() == 0
    flow.advance(tournament.pk)
    flow.sweep()
    assert Transaction.objects.filter(kind="tournament_prize").count() == 3
    assert ledger_violations() == []
