"""A game settles by the terms it was dealt with, and its actions lock only its own row."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from games.live.lifecycle.act import game_act
from games.live.lifecycle.steps import locked_game
from games.models import GameRecord, Room
from games.testing.room_helpers import coin_room, make_player, start_game_with_bots
from ledger.models import Account, Currency, SystemAccount


def fees_collected() -> int:
    account = Account.objects.filter(system=SystemAccount.FEES, currency=Currency.COIN).first()
    return account.balance if account else 0


@pytest.mark.django_db
def test_an_edit_of_the_room_during_a_game_applies_to_the_next_game_only(
        django_capture_on_commit_callbacks):
    room = coin_room(coefficient=100, fee=10)
    alice = make_player("alice", coins=50_000)
    record = start_game_with_bots(alice, room)
    assert record.terms == {"coins": True, "stake_unit": 1, "coefficient": 100, "fee": 10}

    Room.objects.filter(pk=room.pk).update(coefficient=300, fee=90)  # the operator edits
    before = fees_collected()
    with django_capture_on_commit_callbacks(execute=True):  # the settlement task
        game_act(user_id=alice.pk, game_id=record.pk, action="trustee", on=True)  # to the end

    record.refresh_from_db()
    assert record.settled_at is not None
    # Every seat paid the fee it was dealt with (RULES §8), not the edited one.
    assert fees_collected() - before == 10 * len(record.players)
    # Every seat moves score × N − A with the N dealt (no loser here can hit max_loss).
    assert record.settlement["coins"] == [score * 100 - 10 for score in record.result["scores"]]
    nxt = GameRecord(room=room, terms=Room.objects.get(pk=room.pk).money_terms())
    assert nxt.terms["fee"] == 90 and nxt.terms["coefficient"] == 300


@pytest.mark.django_db(transaction=True)
def test_an_action_locks_its_game_row_and_not_the_room_row():
    """Every table of a room acts at once: a lock on the shared room row would queue them."""
    room = coin_room()
    record = start_game_with_bots(make_player("bob", coins=50_000), room)
    holding, release = threading.Event(), threading.Event()

    def hold_the_game() -> None:
        try:
            with transaction.atomic():
                locked_game(record.pk)
                holding.set()
                release.wait(10)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_the_game)
    holder.start()
    try:
        assert holding.wait(10)
        with transaction.atomic():
            # nowait: raises if another transaction holds the row.
            assert Room.objects.select_for_update(nowait=True).get(pk=room.pk) == room
            with pytest.raises(Exception, match="could not obtain lock"):
                with transaction.atomic():
                    GameRecord.objects.select_for_update(nowait=True).get(pk=record.pk)
    finally:
        release.set()
        holder.join()
