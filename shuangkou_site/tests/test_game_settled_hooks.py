"""The apps above games hear of a settlement through games.hooks.signals.game_settled, inside
its transaction (README, "Layout"): what they write commits with the money or not at
all, and settling again writes nothing twice."""

import pytest

from games.hooks.signals import game_settled
from games.live.lifecycle.end import game_settle
from games.models import GameRecord
from games.testing.room_helpers import make_player, make_room
from games.testing.stored_games import stored_game
from ledger.models import Transaction
from stats.models import SeatFacts

pytestmark = pytest.mark.django_db


class SubscriberFailed(Exception):
    pass


@pytest.fixture
def ended_game() -> GameRecord:
    players = [make_player(f"hooked-{seat}") for seat in range(4)]
    return stored_game(make_room("hooks 积分"), players, seed=3)


@pytest.fixture
def failing_subscriber():
    def fail(**_signal):
        raise SubscriberFailed

    # Connected after the apps' receivers (ready() ran first): it fails once they wrote.
    game_settled.connect(fail, dispatch_uid="test.failing_subscriber")
    yield
    game_settled.disconnect(dispatch_uid="test.failing_subscriber")


def test_the_apps_subscribe_to_the_settlement():
    receivers = {lookup_key[0] for lookup_key, *_receiver in game_settled.receivers}
    assert {"stats.game_facts", "analysis.auto_analysis", "fair_play.record_escapes"} <= \
        receivers


def test_a_failing_subscriber_rolls_the_whole_settlement_back(ended_game, failing_subscriber):
    with pytest.raises(SubscriberFailed):
        game_settle(game_id=ended_game.pk)

    ended_game.refresh_from_db()
    assert ended_game.settled_at is None and ended_game.settlement is None
    assert not Transaction.objects.filter(game_key=ended_game.ledger_key).exists()
    assert not SeatFacts.objects.filter(game=ended_game).exists()


def test_a_settlement_after_a_failed_one_writes_everything_once(ended_game):
    def fail_once(**_signal):
        game_settled.disconnect(dispatch_uid="test.fail_once")
        raise SubscriberFailed

    game_settled.connect(fail_once, dispatch_uid="test.fail_once")
    with pytest.raises(SubscriberFailed):
        game_settle(game_id=ended_game.pk)

    assert game_settle(game_id=ended_game.pk) is True
    assert game_settle(game_id=ended_game.pk) is False

    ended_game.refresh_from_db()
    assert ended_game.settled_at is not None
    assert Transaction.objects.filter(game_key=ended_game.ledger_key).count() == 1
    assert SeatFacts.objects.filter(game=ended_game).count() == 4
