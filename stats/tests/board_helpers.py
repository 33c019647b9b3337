"""What the boards' tests (stats', and friends' friends board) share: players, points
posted on a given day, and the rows a board's table shows."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta
from unittest import mock

from django.utils import timezone

from accounts.models import User
from ledger.services import adjust_balance

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
