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


def level_for_points(points: int, ladder: list[tuple[int, int]] | None = None) -> int:
    """The highest level whose points the player has reached (RULES §7)."""
    ladder = ladder if ladder is not None else level_ladder()
    reached = [number for number, needed in ladder if points >= needed]
    return max(reached) if reached else min((number for number, _ in ladder), default=1)


def level_ladder() -> list[tuple[int, int]]:
    from .models import Level

    return list(Level.objects.values_list("number", "min_points"))


def levels_refresh(*, user_ids: list[int]) -> None:
    """Recompute the level of these players from their point balances; called by
    the ledger whenever points are posted (call inside its transaction)."""
    from ledger.models import Account, Currency

    ladder = level_ladder()
    points = dict(Account.objects.filter(user_id__in=user_ids, currency=Currency.POINT)
                  .values_list("user_id", "balance"))
    for user_id in user_ids:
        level = level_for_points(points.get(user_id, 0), ladder)
        User.objects.filter(pk=user_id).exclude(level=level).update(level=level)
