"""The daily check-in (签到) with its streak, and the day's tasks, paid in coins from
issuance (docs/ledger.md, "A player's day"). Days run midnight to midnight in the
site's TIME_ZONE, as relief's do (ledger.relief.relief_day).

Each payment is one ledger posting of kind ``reward`` under a key naming the player,
the day and what it pays for, and is made under the lock of the player's coin
account: eight clicks at once pay once (the first posts, the others find its key).
A day's rewards together never pass ``DAILY_REWARD_CAP``: a reward that would is cut
to what is left, and refused when nothing is. Like relief, rewards wait for a
player's first finished game (a farmed sign-up collects nothing)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q, Sum
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.models import GameRecord
from games.settlement.report import bombs_played
from ledger.models import Account, Currency, Kind, Leg, SystemAccount, Transaction
from ledger.relief import has_played, relief_day
from ledger.services import LedgerError, LegSpec, ledger_post, system_account, user_account

from .models import CheckIn, GameDone


@dataclass(frozen=True)
class Task:
    name: str
    title: object  # lazy text
    target: int
    coins: int


TASKS = (
    Task("games3", _("完成 3 局对局"), 3, 300),
    Task("double", _("赢一局双扣"), 1, 500),
    Task("bomb6", _("打出一个 6★ 或更大的炸弹"), 1, 300),
)
TASKS_BY_NAME = {task.name: task for task in TASKS}


def checkin_key(user_id: int, day: date) -> str:
    return f"daily:{user_id}:{day.isoformat()}:checkin"


def task_key(user_id: int, day: date, task: str) -> str:
    return f"daily:{user_id}:{day.isoformat()}:task:{task}"


def checkin_coins(streak: int) -> int:
    """What the ``streak``-th day in a row pays: the base, plus a step a day up to the cap."""
    days = max(1, min(streak, settings.DAILY_CHECKIN_STREAK_CAP))
    return settings.DAILY_CHECKIN_BASE + settings.DAILY_CHECKIN_STEP * (days - 1)


# --- the settlement's hook -----------------------------------------------------------

def count_settled_game(*, record: GameRecord, events: Sequence[dict], **_signal) -> None:
    """games.hooks.signals.game_settled: what the game did towards each person's tasks
    (bots count for nothing). Once per game and player: a unique row."""
    result = record.result or {}
    winners = set(result.get("winners") or [])
    escaped = result.get("escaped")
    stars: dict[int, int] = {}
    for bomb in bombs_played(events):
        stars[bomb["seat"]] = max(stars.get(bomb["seat"], 0), bomb["stars"] or 0)
    day = relief_day()
    bots = set(record.bot_seats or [])
    GameDone.objects.bulk_create([
        GameDone(user_id=user_id, game=record, day=day, finished=seat != escaped,
                 won_double=seat in winners and result.get("kou") == "double",
                 best_bomb=stars.get(seat, 0))
        for seat, user_id in enumerate(record.players) if seat not in bots],
        ignore_conflicts=True)


# --- reading ---------------------------------------------------------------------------

@dataclass(frozen=True)
class TaskState:
    task: Task
    progress: int
    claimed: bool

    @property
    def done(self) -> bool:
        return self.progress >= self.task.target


@dataclass(frozen=True)
class DailyStatus:
    day: date
    checked_in: CheckIn | None
    streak: int  # today's, or the one a check-in today would make
    checkin_coins: int  # what today's check-in pays (or paid)
    tasks: list[TaskState]
    paid: int  # coins paid today by check-in and tasks
    cap: int
    played: bool


def task_progress(user_id: int, day: date) -> dict[str, int]:
    counts = GameDone.objects.filter(user_id=user_id, day=day).aggregate(
        games3=Count("pk", filter=Q(finished=True)),
        double=Count("pk", filter=Q(won_double=True)),
        bomb6=Count("pk", filter=Q(best_bomb__gte=6)))
    return {name: min(counts[name] or 0, TASKS_BY_NAME[name].target) for name in counts}


def daily_status(user: User, *, now: datetime | None = None) -> DailyStatus:
    day = relief_day(now)
    today = CheckIn.objects.filter(user=user, day=day).first()
    if today is not None:
        streak, coins = today.streak, today.coins
    else:
        yesterday = CheckIn.objects.filter(user=user, day=day - timedelta(days=1)).first()
        streak = yesterday.streak + 1 if yesterday else 1
        coins = checkin_coins(streak)
    claimed = set(Transaction.objects.filter(key__startswith=f"daily:{user.pk}:{day}:task:")
                  .values_list("key", flat=True))
    progress = task_progress(user.pk, day)
    return DailyStatus(
        day=day, checked_in=today, streak=streak, checkin_coins=coins,
        tasks=[TaskState(task, progress[task.name], task_key(user.pk, day, task.name) in claimed)
               for task in TASKS],
        paid=_paid_on(user.pk, day), cap=settings.DAILY_REWARD_CAP, played=has_played(user.pk))


# --- paying ----------------------------------------------------------------------------

def check_in(*, user: User, now: datetime | None = None) -> CheckIn:
    """Today's check-in: its streak (yesterday's plus one, else one) and its coins. The
    same day again returns the first check-in."""
    day = relief_day(now)
    with transaction.atomic():
        account = _locked_coins(user)
        existing = CheckIn.objects.filter(user=user, day=day).first()
        if existing is not None:
            return existing
        if not has_played(user.pk):
            raise LedgerError(_("先完成一局对局，才能签到领奖"))
        yesterday = CheckIn.objects.filter(user=user, day=day - timedelta(days=1)).first()
        streak = yesterday.streak + 1 if yesterday else 1
        coins = min(checkin_coins(streak), _left_today(user.pk, day))
        checked = CheckIn.objects.create(user=user, day=day, streak=streak, coins=coins)
        if coins > 0:
            _pay(account, coins, checkin_key(user.pk, day), "签到奖励")
    return checked


def claim_task(*, user: User, task: object, now: datetime | None = None) -> Transaction:
    """Today's reward of a task done. Claimed again: the first posting, paid once."""
    found = TASKS_BY_NAME.get(task) if isinstance(task, str) else None
    if found is None:
        raise LedgerError(_("没有这个任务：%(task)s"), {"task": repr(task)[:40]})
    day = relief_day(now)
    key = task_key(user.pk, day, found.name)
    with transaction.atomic():
        account = _locked_coins(user)
        existing = Transaction.objects.filter(key=key).first()
        if existing is not None:
            return existing
        if task_progress(user.pk, day)[found.name] < found.target:
            raise LedgerError(_("任务还没有完成"))
        coins = min(found.coins, _left_today(user.pk, day))
        if coins <= 0:
            raise LedgerError(_("今天的奖励已达上限（%(cap)d 游戏币），明天再来"),
                              {"cap": settings.DAILY_REWARD_CAP})
        return _pay(account, coins, key, "每日任务奖励")


def _locked_coins(user: User) -> Account:
    """The player's coin account, locked: their daily payments one at a time."""
    account = user_account(user, Currency.COIN)
    return Account.objects.select_for_update().get(pk=account.pk)


def _paid_on(user_id: int, day: date) -> int:
    return Leg.objects.filter(account__user_id=user_id, account__currency=Currency.COIN,
                              transaction__key__startswith=f"daily:{user_id}:{day}:") \
        .aggregate(total=Sum("amount"))["total"] or 0


def _left_today(user_id: int, day: date) -> int:
    return max(0, settings.DAILY_REWARD_CAP - _paid_on(user_id, day))


def _pay(account: Account, coins: int, key: str, memo: str) -> Transaction:
    return ledger_post(key=key, kind=Kind.REWARD, memo=memo, legs=[
        LegSpec(account, coins),
        LegSpec(system_account(SystemAccount.ISSUANCE, Currency.COIN), -coins)])
