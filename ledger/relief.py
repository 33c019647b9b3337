"""The daily relief grant (救济金): a player whose coins are below
LEDGER_RELIEF_THRESHOLD may claim LEDGER_RELIEF_AMOUNT new coins from issuance, up to
LEDGER_RELIEF_PER_DAY times a day, days beginning at midnight in the site's TIME_ZONE
(docs/ledger.md).

A player's coins here are the available ones AND those frozen for running games
(pending holds, in escrow): they are still the player's, and most come back at the
settlement. Counting only the available ones paid relief to a player whose 10,000 coins
were all frozen at a deal (available 0), who then left the game with 11,790. Relief is
for players who ran out, not for players whose money is on the table. (Refusing every
claim while anything is frozen would have been simpler, but would also refuse a player
down to 300 coins with 100 of them in a game.) The claim reads both under the lock of
the player's coin account, which every posting that moves coins into or out of that
balance (a freeze, a release, a settlement paying them back) takes too, so it never
sees a coin twice or not at all; a settlement that pays the player nothing only
resolves the hold, and the claim sees the state before it or after it, both true.

The n-th claim of a day has the key ``relief:<user>:<date>:<n>``. The claim form and the
API send the n they mean (the page shows it), so a double click or a retried request
asks for the same key again and gets the first posting back: it never pays twice."""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import date, datetime

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser as User  # any user model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .models import Account, Currency, Kind, Leg, SystemAccount, Transaction
from .selectors import frozen_coins
from .services import (
    LedgerError,
    LegSpec,
    ledger_post,
    starting_grant_key,
    system_account,
    user_account,
)


@dataclass(frozen=True)
class ReliefStatus:
    day: date
    claimed: int  # claims posted today
    per_day: int
    remaining: int
    threshold: int
    amount: int
    balance: int  # available coins
    frozen: int  # coins frozen for running games: they count as the player's
    played: bool  # has finished a game (see has_played)
    eligible: bool  # has played, below the threshold (frozen coins too), with claims left

    @property
    def next_claim(self) -> int:
        return self.claimed + 1

    @property
    def coins(self) -> int:
        """What the threshold is compared with: available and frozen coins."""
        return self.balance + self.frozen


def relief_day(now: datetime | None = None) -> date:
    return timezone.localtime(now or timezone.now(),
                              zoneinfo.ZoneInfo(settings.TIME_ZONE)).date()


def relief_key(user_id: int, day: date, claim: int) -> str:
    return f"relief:{user_id}:{day.isoformat()}:{claim}"


def relief_status(user: User, *, now: datetime | None = None) -> ReliefStatus:
    day = relief_day(now)
    claimed = _claims_on(user.pk, day).count()
    per_day = max(0, settings.LEDGER_RELIEF_PER_DAY)
    balance = Account.objects.filter(user=user, currency=Currency.COIN) \
        .values_list("balance", flat=True).first() or 0
    frozen = frozen_coins(user.pk)
    remaining = max(0, per_day - claimed)
    played = has_played(user.pk)
    return ReliefStatus(
        day=day, claimed=claimed, per_day=per_day, remaining=remaining,
        threshold=settings.LEDGER_RELIEF_THRESHOLD, amount=settings.LEDGER_RELIEF_AMOUNT,
        balance=balance, frozen=frozen, played=played, eligible=played and remaining > 0
        and settings.LEDGER_RELIEF_AMOUNT > 0
        and balance + frozen < settings.LEDGER_RELIEF_THRESHOLD)


def has_played(user_id: int) -> bool:
    """Whether the player has finished a game: a settlement moved their coins or points,
    or they had the starting grant (posted after a first settled game). Relief is for
    players who ran out, not for fresh accounts: otherwise each farmed sign-up would
    collect it at once, what the starting grant already refuses."""
    return Transaction.objects.filter(key=starting_grant_key(user_id)).exists() \
        or Leg.objects.filter(account__user_id=user_id,
                              transaction__kind__in=(Kind.SETTLEMENT, Kind.ESCAPE_PENALTY)) \
        .exists()


def claim_relief(*, user: User, claim: int | str | None = None,
                 now: datetime | None = None) -> Transaction:
    """Post the player's ``claim``-th relief grant of today (the next one when None).
    The same claim again returns the first posting; a claim over the day's limit, above
    the threshold, or not the next one is refused with nothing written."""
    claim = _claim_number(claim)
    amount = settings.LEDGER_RELIEF_AMOUNT
    if amount <= 0 or settings.LEDGER_RELIEF_PER_DAY <= 0:
        raise LedgerError(_("救济金暂未开放"))
    day = relief_day(now)
    with transaction.atomic():
        account = user_account(user, Currency.COIN)
        # The player's account row serialises their claims: two clicks, one posting.
        account = Account.objects.select_for_update().get(pk=account.pk)
        if claim is not None:
            existing = Transaction.objects.filter(key=relief_key(user.pk, day, claim)).first()
            if existing is not None:
                return existing  # a double click or a retry: already paid
        claimed = _claims_on(user.pk, day).count()
        claim = claim or claimed + 1
        if claim > settings.LEDGER_RELIEF_PER_DAY or claimed >= settings.LEDGER_RELIEF_PER_DAY:
            raise LedgerError(_("今天的救济金已经领完了（每天 %(times)d 次），明天再来"),
                              {"times": settings.LEDGER_RELIEF_PER_DAY})
        if claim != claimed + 1:
            raise LedgerError(_("这次领取已经过期，请刷新页面再试"))
        if not has_played(user.pk):
            raise LedgerError(_("先完成一局对局，才能领取救济金"))
        # Under the account's lock: a freeze or settlement of this player's coins waits
        # for it, so the balance and the holds are read as one state.
        frozen = frozen_coins(user.pk)
        if account.balance + frozen >= settings.LEDGER_RELIEF_THRESHOLD:
            raise LedgerError(
                _("你的游戏币（可用 %(balance)d，冻结 %(frozen)d）不少于 %(threshold)d，"
                  "不能领取救济金"),
                {"balance": account.balance, "frozen": frozen,
                 "threshold": settings.LEDGER_RELIEF_THRESHOLD})
        return ledger_post(key=relief_key(user.pk, day, claim), kind=Kind.RELIEF,
                           memo="救济金", legs=[
                               LegSpec(account, amount),
                               LegSpec(system_account(SystemAccount.ISSUANCE, Currency.COIN),
                                       -amount)])


def _claims_on(user_id: int, day: date):
    return Transaction.objects.filter(key__startswith=f"relief:{user_id}:{day.isoformat()}:")


def _claim_number(claim: int | str | None) -> int | None:
    if claim in (None, ""):
        return None
    try:
        number = int(claim)
    except (TypeError, ValueError):
        number = 0
    if isinstance(claim, bool) or number < 1:
        raise LedgerError(_("领取序号须为正整数，不能是 %(claim)s"), {"claim": repr(claim)[:40]})
    return number
