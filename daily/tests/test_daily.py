"""The daily check-in and tasks: streaks, progress from settled games, rewards paid
once from issuance under the day's keys, and the daily cap."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from daily.models import CheckIn, GameDone
from daily.services import check_in, checkin_key, claim_task, count_settled_game, daily_status
from games.models import GameRecord
from ledger.audit import ledger_violations
from ledger.models import Kind, SystemAccount, Transaction
from ledger.services import LedgerError, balance_of, system_account

from .helpers import a_game, played, player

pytestmark = pytest.mark.django_db

SHANGHAI = ZoneInfo("Asia/Shanghai")


@pytest.fixture
def four():
    users = [player() for _ in range(4)]
    played(users)
    return users


def at(day: int, hour: int = 12) -> datetime:
    return datetime(2026, 12, day, hour, tzinfo=SHANGHAI)


def test_a_check_in_pays_the_base_from_issuance_under_the_days_key(four):
    me = four[0]
    issuance_before = system_account(SystemAccount.ISSUANCE, "coin").balance

    done = check_in(user=me, now=at(3))

    assert (done.streak, done.coins) == (1, 100)
    assert balance_of(me, "coin") == 100
    posting = Transaction.objects.get(key=checkin_key(me.pk, at(3).date()))
    assert posting.kind == Kind.REWARD
    assert system_account(SystemAccount.ISSUANCE, "coin").balance == issuance_before - 100
    assert ledger_violations() == []


def test_the_same_day_again_returns_the_first_check_in_and_pays_nothing_more(four):
    first = check_in(user=four[0], now=at(3, 9))
    again = check_in(user=four[0], now=at(3, 23))
    assert again.pk == first.pk and balance_of(four[0], "coin") == 100


def test_days_in_a_row_grow_the_streak_up_to_the_cap_and_a_missed_day_starts_over(four):
    me = four[0]
    paid = [check_in(user=me, now=at(day)).coins for day in range(1, 10)]
    assert paid == [100, 150, 200, 250, 300, 350, 400, 400, 400]
    assert check_in(user=me, now=at(11)).streak == 1  # the 10th was missed


def test_the_day_turns_at_midnight_in_the_sites_time_zone(four):
    me = four[0]
    check_in(user=me, now=datetime(2026, 12, 3, 15, 59, tzinfo=ZoneInfo("UTC")))  # 23:59
    second = check_in(user=me, now=datetime(2026, 12, 3, 16, 1, tzinfo=ZoneInfo("UTC")))
    assert second.streak == 2 and CheckIn.objects.filter(user=me).count() == 2


def test_a_player_who_never_finished_a_game_gets_no_check_in():
    fresh = player()
    with pytest.raises(LedgerError):
        check_in(user=fresh)
    assert not CheckIn.objects.filter(user=fresh).exists()
    assert balance_of(fresh, "coin") == 0


def test_a_settled_game_counts_for_its_people_once_and_not_for_bots(four):
    record, events = a_game(four, kou="double", winners=(0, 2), bombs={0: 6, 1: 5},
                            bot_seats=(3,))
    count_settled_game(record=record, events=events)
    count_settled_game(record=record, events=events)  # a second send adds nothing

    rows = {row.user_id: row for row in GameDone.objects.filter(game=record)}
    assert set(rows) == {four[0].pk, four[1].pk, four[2].pk}
    assert rows[four[0].pk].won_double and rows[four[0].pk].best_bomb == 6
    assert not rows[four[1].pk].won_double and rows[four[1].pk].best_bomb == 5


def test_an_escaper_has_not_finished_the_game(four):
    record, events = a_game(four, kou="escape", winners=(1, 3), escaped=0)
    count_settled_game(record=record, events=events)
    assert not GameDone.objects.get(game=record, user=four[0]).finished
    assert GameDone.objects.get(game=record, user=four[1]).finished


def test_tasks_pay_when_done_and_once(four):
    me = four[0]
    with pytest.raises(LedgerError):
        claim_task(user=me, task="games3")
    for _ in range(3):
        record, events = a_game(four, kou="double", winners=(0, 2), bombs={0: 6})
        count_settled_game(record=record, events=events)

    status = daily_status(me)
    assert [(state.task.name, state.progress, state.done) for state in status.tasks] == [
        ("games3", 3, True), ("double", 1, True), ("bomb6", 1, True)]
    first = claim_task(user=me, task="games3")
    assert claim_task(user=me, task="games3").pk == first.pk
    claim_task(user=me, task="double")
    claim_task(user=me, task="bomb6")
    assert balance_of(me, "coin") == 300 + 500 + 300
    assert all(state.claimed for state in daily_status(me).tasks)
    assert ledger_violations() == []


def test_a_task_not_done_or_unknown_is_refused_and_writes_nothing(four):
    before = Transaction.objects.count()
    for task in ("double", "nope", None, 3):
        with pytest.raises(LedgerError):
            claim_task(user=four[0], task=task)
    assert Transaction.objects.count() == before


def test_the_days_rewards_stop_at_the_cap(four, settings):
    settings.DAILY_REWARD_CAP = 700
    me = four[0]
    record, events = a_game(four, kou="double", winners=(0, 2), bombs={0: 6})
    count_settled_game(record=record, events=events)
    check_in(user=me)  # 100
    claim_task(user=me, task="double")  # 500
    cut = claim_task(user=me, task="bomb6")  # 300 asked, 100 left
    assert cut.legs.get(account__user=me).amount == 100
    assert balance_of(me, "coin") == 700
    settings.DAILY_REWARD_CAP = 700
    assert daily_status(me).paid == 700


def test_tomorrow_the_tasks_start_again(four):
    record, events = a_game(four, kou="double", winners=(0, 2))
    count_settled_game(record=record, events=events)
    tomorrow = datetime.now(SHANGHAI) + timedelta(days=1)
    assert daily_status(four[0], now=tomorrow).tasks[1].progress == 0


@pytest.mark.django_db(transaction=True)  # the settlement runs once the game's step commits
def test_a_game_settled_at_a_table_counts_through_the_settlements_signal():
    from games.live.lifecycle.act import game_act
    from games.testing.room_helpers import make_room, start_game_with_bots

    me = player()
    record = start_game_with_bots(me, make_room("daily"))
    game_act(user_id=me.pk, game_id=record.pk, action="trustee", on=True)
    record.refresh_from_db()
    assert record.status == GameRecord.Status.ENDED and record.settled_at is not None
    (done,) = GameDone.objects.filter(game=record)  # me only: the bots count for nothing
    assert done.user_id == me.pk and done.finished
    assert daily_status(me).tasks[0].progress == 1
