"""Settlement through the ledger on PostgreSQL (RULES §7–§8)."""

import pytest

from accounts.models import User
from accounts.selectors import levels_of
from games.settlement.posting import settle_game
from ledger.audit import ledger_violations
from ledger.models import Currency, Hold, Kind, SystemAccount, Transaction
from ledger.services import LedgerError, adjust_balance, balance_of, freeze_coins, system_account
from ledger.tests.ledger_helpers import (
    coins_of,
    install_level_ladder,
    ledger_snapshot,
    make_players,
    make_user,
    points_of,
    system_balance,
    unique,
)

pytestmark = pytest.mark.django_db


@pytest.mark.django_db(transaction=True)
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


def seat_coin_game(balances: list[int], max_loss: int) -> tuple[list[User], str]:
    """Four players with these coin balances, the room's max loss frozen (RULES §8)."""
    players = [make_user(coins) for coins in balances]
    game_key = unique("game")
    for user in players:
        freeze_coins(user=user, game_key=game_key, amount=max_loss)
    return players, game_key


# --- RULES §8: losses are capped at what was frozen ------------------------------------------

def test_freeze_is_capped_at_the_balance_when_the_balance_is_smaller_than_the_max_loss():
    players, game_key = seat_coin_game([10000, 3000, 10000, 10000], max_loss=5000)
    holds = [Hold.objects.get(game_key=game_key, user=user).amount for user in players]
    assert holds == [5000, 3000, 5000, 5000]
    assert coins_of(players) == [5000, 0, 5000, 5000]
    assert system_balance(SystemAccount.ESCROW) == 18000


def test_a_loss_is_capped_at_what_was_frozen():
    players, game_key = seat_coin_game([10000, 3000, 10000, 10000], max_loss=5000)
    # 双扣 at N = 1000: each loser owes 4000 + 50, but seat 1 only has 3000 frozen.
    settle_game(game_key=game_key, players=players, scores=[4, -4, 4, -4], coins=True,
                coefficient=1000, fee=50)
    assert coins_of(players) == [10000 + 3425, 0, 10000 + 3425, 10000 - 4050]
    assert system_balance(SystemAccount.FEES) == 200
    assert system_balance(SystemAccount.HOUSE) == 0
    assert system_balance(SystemAccount.ESCROW) == 0
    assert ledger_violations() == []


def test_winners_gains_shrink_pro_rata_in_whole_coins_when_a_losers_payment_is_capped():
    # Scores with contributions (10, 2 for the winners); seat 1 owes 600 + 10 but only
    # 309 was frozen: 301 coins are missing, cut 1000:200 → 250.83 : 50.17, so 251 and
    # 50 by largest remainder. The house pays nothing for the capped loss.
    players, game_key = seat_coin_game([5000, 309, 5000, 5000], max_loss=2000)
    settle_game(game_key=game_key, players=players, scores=[10, -6, 2, -6], coins=True,
                coefficient=100, fee=10)
    nets = [coins - start for coins, start in zip(coins_of(players), [5000, 309, 5000, 5000])]
    assert nets == [1000 - 251 - 10, -309, 200 - 50 - 10, -610]
    assert sum(nets) + system_balance(SystemAccount.FEES) == 0
    assert system_balance(SystemAccount.HOUSE) == 0
    assert ledger_violations() == []


def test_a_loser_whose_whole_balance_was_frozen_ends_at_zero_never_below():
    players, game_key = seat_coin_game([10000, 700, 10000, 10000], max_loss=10000)
    settle_game(game_key=game_key, players=players, scores=[4, -4, 4, -4], coins=True,
                coefficient=500, fee=50)
    assert coins_of(players)[1] == 0
    assert min(coins_of(players)) >= 0


# Committed for real: the refusal happens inside ledger_post's own transaction.
@pytest.mark.django_db(transaction=True)
def test_an_adjustment_that_would_take_a_players_coins_below_zero_is_refused():
    user = make_user(coins=100)
    before = ledger_snapshot()
    with pytest.raises(LedgerError, match="低于零"):
        adjust_balance(user=user, currency=Currency.COIN, amount=-101, reason="test",
                       key=unique("adjust"))
    assert ledger_snapshot() == before
    assert balance_of(user, Currency.COIN) == 100


# --- RULES §8: the house pays the non-zero-sum part of the score table -------------------

def test_house_pays_the_non_zero_sum_part_of_the_ping_kou_row():
    players, game_key = seat_coin_game([10000] * 4, max_loss=5000)
    # qq's 平扣 base is [1, 0, 0, 1]: the winners gain 500 each that nobody loses.
    settle_game(game_key=game_key, players=players, scores=[1, 0, 0, 1], coins=True,
                coefficient=500, fee=50)
    assert coins_of(players) == [10450, 9950, 9950, 10450]
    assert system_balance(SystemAccount.FEES) == 200
    assert system_balance(SystemAccount.HOUSE) == -1000
    assert points_of(players) == [1, 0, 0, 1]
    assert system_balance(SystemAccount.HOUSE, Currency.POINT) == -2
    assert ledger_violations() == []


# --- RULES §8: a game is settled exactly once --------------------------------------------

def test_settling_twice_returns_the_same_transaction_and_moves_nothing_more():
    players, game_key = seat_coin_game([10000] * 4, max_loss=5000)
    kwargs = dict(game_key=game_key, players=players, scores=[4, -4, 4, -4], coins=True,
                  coefficient=500, fee=50)
    first = settle_game(**kwargs)
    after_first = ledger_snapshot()
    second = settle_game(**kwargs)
    assert second.pk == first.pk
    assert ledger_snapshot() == after_first
    assert Transaction.objects.filter(key=f"settle:{game_key}").count() == 1
    holds = Hold.objects.filter(game_key=game_key)
    assert {(hold.status, hold.resolved_by_id) for hold in holds} == {
        (Hold.Status.SETTLED, first.pk)}


def test_settling_coins_without_a_hold_for_every_player_is_refused_and_writes_nothing():
    players = [make_user(10000) for _ in range(4)]
    game_key = unique("game")
    for user in players[:3]:
        freeze_coins(user=user, game_key=game_key, amount=5000)
    before = ledger_snapshot()
    with pytest.raises(LedgerError, match="未冻结"):
        settle_game(game_key=game_key, players=players, scores=[4, -4, 4, -4], coins=True,
                    coefficient=500, fee=50)
    assert ledger_snapshot() == before


def test_settling_in_points_only_a_game_with_frozen_coins_is_refused():
    players, game_key = seat_coin_game([10000] * 4, max_loss=5000)
    before = ledger_snapshot()
    with pytest.raises(LedgerError, match="只结算积分"):
        settle_game(game_key=game_key, players=players, scores=[4, -4, 4, -4])
    assert ledger_snapshot() == before


def test_settling_is_refused_while_someone_not_playing_holds_coins_for_the_game():
    # A fifth hold for the game would be marked settled with its coins left in escrow.
    players, game_key = seat_coin_game([10000] * 4, max_loss=5000)
    bystander = make_user(10000)
    freeze_coins(user=bystander, game_key=game_key, amount=5000)
    before = ledger_snapshot()
    with pytest.raises(LedgerError, match="不是本局玩家"):
        settle_game(game_key=game_key, players=players, scores=[4, -4, 4, -4], coins=True,
                    coefficient=500, fee=50)
    assert ledger_snapshot() == before
    assert ledger_violations() == []


def test_settling_with_a_player_listed_twice_is_refused():
    players, game_key = seat_coin_game([10000] * 4, max_loss=5000)
    before = ledger_snapshot()
    with pytest.raises(LedgerError, match="两次"):
        settle_game(game_key=game_key, players=[players[0], players[0], players[2], players[3]],
                    scores=[4, -4, 4, -4], coins=True, coefficient=500, fee=50)
    with pytest.raises(LedgerError, match="两次"):  # points: +4 and -4 would cancel out
        settle_game(game_key=unique("game"), players=[players[0], players[0], players[2],
                                                      players[3]], scores=[4, -4, 4, -4])
    assert ledger_snapshot() == before
    assert ledger_violations() == []


def test_the_settlement_transaction_resolves_every_hold_of_the_game():
    players, game_key = seat_coin_game([10000] * 4, max_loss=5000)
    posted = settle_game(game_key=game_key, players=players, scores=[2, -2, 2, -2],
                         coins=True, coefficient=10, fee=1)
    assert posted.kind == Kind.SETTLEMENT
    assert posted.game_key == game_key
    holds = list(Hold.objects.filter(game_key=game_key))
    assert len(holds) == 4
    assert all(hold.resolved_by_id == posted.pk and hold.resolved_at for hold in holds)
    assert sorted(posted.legs.filter(hold__isnull=False).values_list("amount", flat=True)) == [
        -5000] * 4


# --- RULES §7: points and levels ------------------------------------------------------------

def test_points_change_by_score_times_stake_unit_and_may_go_negative():
    players = [make_user() for _ in range(4)]
    settle_game(game_key=unique("game"), players=players, scores=[4, -4, 4, -4], stake_unit=3)
    assert points_of(players) == [12, -12, 12, -12]
    settle_game(game_key=unique("game"), players=players, scores=[-6, 2, 2, 2], stake_unit=3)
    assert points_of(players) == [-6, -6, 18, -6]
    assert coins_of(players) == [0, 0, 0, 0]
    assert system_balance(SystemAccount.HOUSE, Currency.POINT) == 0
    assert ledger_violations() == []


def test_a_points_game_that_ends_all_square_posts_nothing():
    players = [make_user() for _ in range(4)]
    before = ledger_snapshot()
    assert settle_game(game_key=unique("game"), players=players, scores=[0, 0, 0, 0]) is None
    assert ledger_snapshot() == before


def level_of(user: User) -> int:
    return levels_of([user.pk])[user.pk]


def test_levels_follow_points_up_and_down_the_ladder():
    install_level_ladder()
    players = [make_user() for _ in range(4)]
    climber = players[0]
    assert level_of(climber) == 1
    settle_game(game_key=unique("game"), players=players, scores=[4, -4, 4, -4], stake_unit=15)
    assert points_of(players) == [60, -60, 60, -60]
    assert [level_of(user) for user in players] == [2, 1, 2, 1]  # 60: 短工
    settle_game(game_key=unique("game"), players=players, scores=[4, -4, 4, -4], stake_unit=20)
    assert balance_of(climber, Currency.POINT) == 140
    assert level_of(climber) == 3  # 140: 长工
    adjust_balance(user=climber, currency=Currency.POINT, amount=-1, reason="test",
                   key=unique("adjust"))
    assert level_of(climber) == 2  # 139: back down to 短工
    adjust_balance(user=climber, currency=Currency.POINT, amount=-80, reason="test",
                   key=unique("adjust"))
    assert level_of(climber) == 1  # 59: 包身工
    adjust_balance(user=climber, currency=Currency.POINT, amount=1_000_000 - 59,
                   reason="test", key=unique("adjust"))
    assert level_of(climber) == 23  # 帝王
