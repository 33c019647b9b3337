"""Set-up shared by the accounts tests."""

import uuid

from accounts.models import User
from ledger.models import Currency
from ledger.services import adjust_balance

PASSWORD = "Tea-house-2048"


def make_player(username: str, *, nickname: str = "", password: str = PASSWORD,
                **extra) -> User:
    return User.objects.create_user(username=username, password=password, nickname=nickname,
                                    **extra)


def post_points(user: User, amount: int) -> None:
    adjust_balance(user=user, currency=Currency.POINT, amount=amount, reason="test",
                   key=f"test:{uuid.uuid4().hex}")


def post_coins(user: User, amount: int) -> None:
    adjust_balance(user=user, currency=Currency.COIN, amount=amount, reason="test",
                   key=f"test:{uuid.uuid4().hex}")
