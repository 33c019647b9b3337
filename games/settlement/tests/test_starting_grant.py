"""The starting grant enters the economy after a player's first settled game,
once, for people only: never at sign-up, never for bots."""

import pytest

from accounts.services import player_sign_up
from games.live.lifecycle.act import game_act
from games.models import BotPlayer, GameRecord
from games.settlement.posting import grant_starting_coins_after_game
from games.testing.room_helpers import make_room, start_game_with_bots
from ledger.audit import ledger_violations
from ledger.models import Currency, Transaction
from ledger.services import balance_of

PASSWORD = "Tea-house-2048"


def play_to_the_end(user, room) -> GameRecord:
    record = start_game_with_bots(user, room)
    game_act(user_id=user.pk, game_id=record.pk, action="trustee", on=True)
    record.refresh_from_db()
    assert record.status == GameRecord.Status.ENDED and record.settled_at is not None
    return record


@pytest.mark.django_db(transaction=True)
def test_the_grant_follows_the_first_settled_game_exactly_once(settings):
    settings.LEDGER_STARTING_COINS = 2500
    alice = player_sign_up(username="alice", nickname="Alice", password=PASSWORD)
    assert balance_of(alice, Currency.COIN) == 0

    record = play_to_the_end(alice, make_room("积分场"))

    # A points room moves no coins: all she has is the grant.
    assert balance_of(alice, Currency.COIN) == 2500
    grant = Transaction.objects.get(key=f"grant:signup:{alice.pk}")
    assert grant.created_at >= record.created_at
    # The bots she played with got nothing.
    bots = [user_id for user_id in record.players if user_id != alice.pk]
    assert BotPlayer.objects.filter(user_id__in=bots).count() == 3
    assert not Transaction.objects.filter(
        key__in=[f"grant:signup:{bot}" for bot in bots]).exists()

    # A changed setting and a second call (a retried settlement): still one grant.
    settings.LEDGER_STARTING_COINS = 9999
    assert grant_starting_coins_after_game([alice.pk]) == []
    assert Transaction.objects.filter(key__startswith="grant:signup:").count() == 1
    assert balance_of(alice, Currency.COIN) == 2500
    assert ledger_violations() == []


@pytest.mark.django_db(transaction=True)
def test_a_player_who_escapes_their_first_game_gets_no_grant(settings):
    settings.LEDGER_STARTING_COINS = 2500
    alice = player_sign_up(username="alice", nickname="Alice", password=PASSWORD)
    record = start_game_with_bots(alice, make_room("积分场"))  # escaping ends the game

    game_act(user_id=alice.pk, game_id=record.pk, action="leave")

    record.refresh_from_db()
    assert record.settled_at is not None
    assert record.result["escaped"] == record.players.index(alice.pk)
    # Sitting down and leaving must not pay: only a finished game brings the grant.
    assert not Transaction.objects.filter(key=f"grant:signup:{alice.pk}").exists()
    assert balance_of(alice, Currency.COIN) == 0
