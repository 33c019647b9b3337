"""The weekly board (stats.boards, /boards/weekly/): points this week; staff and bots
never ranked. The friends board's tests are friends'."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from games.models import BotPlayer
from stats.boards import week_start, weekly_points
from stats.tests.board_helpers import ROW, person, points

pytestmark = pytest.mark.django_db


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
