"""Writes for the accounts app."""

from .models import User


def user_ensure(
    *, username: str, password: str, nickname: str = "", is_superuser: bool = False
) -> tuple[User, bool]:
    """Create the user unless one with that username exists; returns (user, created).

    An existing user is left exactly as it is, its password included.
    """
    user = User.objects.filter(username=username).first()
    if user is not None:
        return user, False
    create = User.objects.create_superuser if is_superuser else User.objects.create_user
    return create(username=username, password=password, nickname=nickname), True
