"""The weekly board (stats.boards, /boards/weekly/): points this week; staff and bots
never ranked. The friends board's tests are friends'."""

from __future__ import annotations

import re
import uuid
from datetime import datetime, timedelta
from unittest import mock
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from accounts.models import User
from games.models import BotPlayer
from ledger.services import adjust_balance
from stats.boards import week_start, weekly_points

pytestmark = pytest.mark.django_db

ROW = re.compile(r'data-user="(\d+)">\s*<td class="num rank">(\d+)</td>.*?'
                 r'<td class="num points">(-?\d+)</td>', re.S)


def person(name: str, **extra) -> User:
    return User.objects.create_user(username=f"{name}-{uuid.uuid4().hex[:4]}", nickname=name,
                                    password="pw", **extra)


def points(user: User, amount: int, *, days_ago: int = 0) -> None:
    """A posting of points made ``days_ago`` (the ledger is append-only: the clock is
    moved while it is written)."""
    then = timezone.now() - timedelta(days=days_ago)
    with mock.patch("django.utils.timezone.now", return_value=then):
        adjust_balance(user=user, currency="point", amount=amount, reason="test",
                       key=f"test:{uuid.uuid4().hex}")


def test_the_week_begins_on_monday_at_midnight_in_beijing():
    thursday = datetime(2026, 12, 3, 20, 0, tzinfo=ZoneInfo("UTC"))  # Fri 04:00 in Beijing
    start = week_start(thursday)
    assert start == datetime(2026, 11, 30, 0, 0, tzinfo=ZoneInfo("Asia/Shanghai"))


def test_the_weekly_board_counts_this_weeks_points_only_and_ranks_no_staff_or_bots(client):
    old_hand, rising, tied, loser = (person(name) for name in ("old", "rising", "tied", "loser"))
    admin = person("admin", is_staff=True, is_superuser=True)
    bot = person("bot")
    BotPlayer.objects.create(user=bot)
    points(old_hand, 5000, days_ago=30)
    points(old_hand, 10)
    points(rising, 300)
    points(tied, 10)
    points(loser, -20)
    points(admin, 9000)
    points(bot, 9000)

    rows = weekly_points()

    assert [(row.user, row.rank, row.points) for row in rows] == [
        (rising, 1, 300), (old_hand, 2, 10), (tied, 2, 10), (loser, 4, -20)]
    html = client.get("/boards/weekly/").content.decode()
    assert [(int(user), int(rank), int(value)) for user, rank, value in ROW.findall(html)] == [
        (rising.pk, 1, 300), (old_hand.pk, 2, 10), (tied.pk, 2, 10), (loser.pk, 4, -20)]
