"""Every write to the ledger (RULES §7–§8). Each function is one database
transaction; amounts are whole numbers; the same idempotency key with the same
contents returns the first transaction, with different contents it raises."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser as User  # any user model
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from . import sql
from .models import Account, Currency, Hold, Kind, SystemAccount, Transaction


class LedgerError(ValueError):
    """A posting the ledger refuses; nothing was written.

    Like games.errors.ActionError, ``message`` is a lazy translation and ``params`` its
    parameters: ``str(error)`` renders it in the language active at that moment (an
    admin page's, or a table page's when a game cannot start; docs/i18n.md)."""

    def __init__(self, message: Any, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.params = params or {}

    def __str__(self) -> str:
        text = str(self.message)
        return text % self.params if self.params else text


@dataclass(frozen=True)
class LegSpec:
    account: Account
    amount: int
    hold: Hold | None = None


# --- accounts -----------------------------------------------------------------------

def system_account(code: SystemAccount | str, currency: Currency | str) -> Account:
    account, _ = Account.objects.get_or_create(system=code, currency=currency)
    return account


def user_account(user: User, currency: Currency | str) -> Account:
    account, _ = Account.objects.get_or_create(user=user, currency=currency)
    return account


def accounts_of(*, users: Sequence[User] = (), systems: Sequence[str] = (),
                currencies: Sequence[str]) -> dict[tuple[int | str, str], Account]:
    """Many accounts in one query, created where missing: keyed by (user id or
    system code, currency)."""
    wanted = {(user.pk, currency) for user in users for currency in currencies}
    wanted |= {(str(code), currency) for code in systems for currency in currencies}

    def fetch() -> dict[tuple[int | str, str], Account]:
        rows = Account.objects.filter(
            Q(user__in=[user.pk for user in users]) | Q(system__in=list(systems)),
            currency__in=list(currencies))
        return {(account.user_id or account.system, account.currency): account
                for account in rows}

    found = fetch()
    # In one order (players by id, then system codes): two transactions making some of
    # the same accounts otherwise wait on each other's new index entries, a deadlock
    # that failed one of them (ledger/tests/test_concurrency.py found it).
    missing = sorted(wanted - set(found),
                     key=lambda key: (isinstance(key[0], str), key[0], key[1]))
    if missing:
        Account.objects.bulk_create(
            [Account(user_id=owner, currency=currency) if isinstance(owner, int)
             else Account(system=owner, currency=currency) for owner, currency in missing],
            ignore_conflicts=True)
        found = fetch()
    return found


def balance_of(user: User, currency: Currency | str) -> int:
    account = Account.objects.filter(user=user, currency=currency).first()
    return account.balance if account else 0


# --- posting ----------------------------------------------------------------------------

def ledger_post(*, key: str, kind: Kind | str, legs: Sequence[LegSpec], memo: str = "",
                game_key: str = "", reverses: Transaction | None = None,
                created_by: User | None = None,
                resolves: tuple[Sequence[Hold], str] | None = None) -> Transaction:
    """Post a balanced transaction once.

    Players' accounts are locked in id order, their new balances checked and
    written; the shared system accounts (fees, house, escrow, issuance) are only
    incremented, one by one in id order, as the last statements, so their row
    locks last just until commit and every posting takes locks in the same order
    (players by id, then system accounts by id): no deadlocks, little waiting.
    ``resolves`` (pending holds, the status they take) are resolved by this posting
    in the same call, exactly once (resolve_holds). One round trip: the locks, the
    key's check, the players' coins and every write are one call of the database's
    ledger_post_legs (ledger.sql, migration 0008)."""
    legs = _merge(legs)
    _check_balanced(legs)
    fingerprint = _fingerprint(kind, legs)
    holds, status = resolves or ((), "")
    posted = Transaction(key=key, kind=kind, fingerprint=fingerprint, memo=memo[:300],
                         game_key=game_key, reverses=reverses, created_by=created_by,
                         created_at=timezone.now())
    # No savepoint when called inside a service's transaction: a refusal rolls back all.
    with transaction.atomic(savepoint=False):
        try:
            done = sql.post_legs(sql.Posting(
                key=key, kind=str(kind), fingerprint=fingerprint, memo=posted.memo,
                game_key=game_key, reverses_id=reverses.pk if reverses else None,
                created_by_id=created_by.pk if created_by else None,
                created_at=posted.created_at,
                legs=[(leg.account.pk, leg.amount, leg.hold.pk if leg.hold else None)
                      for leg in sorted(legs, key=lambda leg: leg.account.pk)],
                resolve_holds=[hold.pk for hold in holds], hold_status=status))
        except IntegrityError as error:
            raise _refusal(error, key, legs) from None
        # Found under the locks: a racer with the same contents has committed by now.
        if done.found_fingerprint is not None:
            existing = _same_or_raise(Transaction.objects.get(pk=done.transaction_id),
                                      fingerprint)
            if any(hold.status == Hold.Status.PENDING for hold in holds):
                resolve_holds(holds, status, existing)
            return existing
        if done.short_account is not None:
            short = next(leg.account for leg in legs if leg.account.pk == done.short_account)
            raise LedgerError(_("%(account)s 的余额将低于零（%(balance)d）"),
                              {"account": short, "balance": done.short_balance})
        posted.pk = done.transaction_id
        posted._state.adding, posted._state.db = False, connection.alias
        if len(holds) != done.resolved:
            raise LedgerError(_("本局已有一笔冻结了结过"))
        for hold in holds:
            hold.status, hold.resolved_by, hold.resolved_at = status, posted, posted.created_at
    return posted


def _refusal(error: IntegrityError, key: str, legs: list[LegSpec]) -> LedgerError:
    """The words for a write PostgreSQL refused: the balance CHECK can only fail on a
    system account (players' coins were checked under their locks); any other
    constraint is the key's or the reversal's (only a posting on other accounts can
    race past the locks: other contents)."""
    if getattr(getattr(error.__cause__, "diag", None), "constraint_name", "") \
            == "balance_not_negative":  # escrow and fees never go negative
        systems = sorted({leg.account.pk for leg in legs if leg.account.system})
        return LedgerError(_("系统账户 %(account)s 的余额将低于零"),
                           {"account": ", ".join(str(pk) for pk in systems)})
    return LedgerError(_("幂等键 “%(key)s” 已被另一笔记账使用，或该交易已冲正过"),
                       {"key": key})


def _merge(legs: Iterable[LegSpec]) -> list[LegSpec]:
    """One leg per account and hold; zero legs dropped."""
    totals: dict[tuple[int, int | None], LegSpec] = {}
    for leg in legs:
        if isinstance(leg.amount, bool) or not isinstance(leg.amount, int):
            raise LedgerError(_("金额须为整数，不能是 %(amount)s"), {"amount": repr(leg.amount)})
        key = (leg.account.pk, leg.hold.pk if leg.hold else None)
        if key in totals:
            leg = LegSpec(leg.account, totals[key].amount + leg.amount, leg.hold)
        totals[key] = leg
    return [leg for leg in totals.values() if leg.amount]


def _check_balanced(legs: list[LegSpec]) -> None:
    if not legs:
        raise LedgerError(_("一笔交易至少要有一条分录"))
    sums: dict[str, int] = {}
    for leg in legs:
        sums[leg.account.currency] = sums.get(leg.account.currency, 0) + leg.amount
    for currency, total in sums.items():
        if total:
            raise LedgerError(_("%(currency)s分录合计为 %(total)d，不为零"),
                              {"currency": Currency(currency).label, "total": total})


def _fingerprint(kind: str, legs: list[LegSpec]) -> str:
    content = [str(kind)] + sorted(
        [leg.account.pk, leg.amount, leg.hold.pk if leg.hold else None] for leg in legs)
    return hashlib.sha256(json.dumps(content).encode()).hexdigest()


def _same_or_raise(existing: Transaction, fingerprint: str) -> Transaction:
    if existing.fingerprint != fingerprint:
        raise LedgerError(_("幂等键 “%(key)s” 已用于内容不同的记账"), {"key": existing.key})
    return existing


# --- grants and adjustments --------------------------------------------------------------

def grant_coins(*, user: User, amount: int, key: str, memo: str = "") -> Transaction:
    """Coins from the issuance account (the starting grant, promotions)."""
    if amount <= 0:
        raise LedgerError(_("赠送的数额必须为正"))
    return ledger_post(key=key, kind=Kind.GRANT, memo=memo, legs=[
        LegSpec(user_account(user, Currency.COIN), amount),
        LegSpec(system_account(SystemAccount.ISSUANCE, Currency.COIN), -amount),
    ])


def starting_grant_key(user_id: int) -> str:
    return f"grant:signup:{user_id}"


def grant_starting_coins(user: User) -> Transaction | None:
    amount = settings.LEDGER_STARTING_COINS
    if amount <= 0:
        return None
    return grant_coins(user=user, amount=amount, key=starting_grant_key(user.pk),
                       memo="新玩家赠送")


def adjust_balance(*, user: User, currency: Currency | str, amount: int, reason: str,
                   key: str, actor: User | None = None) -> Transaction:
    """An operator's adjustment, against the house account."""
    if not reason.strip():
        raise LedgerError(_("调整须填写原因"))
    return ledger_post(key=key, kind=Kind.ADJUSTMENT, memo=reason, created_by=actor, legs=[
        LegSpec(user_account(user, currency), amount),
        LegSpec(system_account(SystemAccount.HOUSE, currency), -amount),
    ])


# --- holds (金币冻结) ----------------------------------------------------------------------

def freeze_coins(*, user: User, game_key: str, amount: int) -> Hold:
    """Freeze up to ``amount`` coins of one player for a game (see freeze_game_coins)."""
    return freeze_game_coins(game_key=game_key, stakes=[(user, amount)])[0]


def freeze_game_coins(*, game_key: str, stakes: Sequence[tuple[User, int]]) -> list[Hold]:
    """Freeze each player's stake for a game in one transaction, each capped at the
    player's balance (金币冻结, RULES §8). Calling again returns the first holds."""
    if any(amount <= 0 for _, amount in stakes):
        raise LedgerError(_("冻结的数额必须为正"))
    with transaction.atomic():
        existing = {hold.user_id: hold for hold in Hold.objects.filter(
            game_key=game_key, user__in=[user for user, _ in stakes])}
        if len(existing) == len(stakes):
            return [existing[user.pk] for user, _ in stakes]
        if existing:
            raise LedgerError(_("%(game)s 已有部分玩家的金币被冻结"), {"game": game_key})
        found = accounts_of(users=[user for user, _ in stakes], systems=[SystemAccount.ESCROW],
                            currencies=[Currency.COIN])
        escrow = found[(SystemAccount.ESCROW, Currency.COIN)]
        accounts = {account.user_id: account for account in Account.objects.select_for_update()
                    .filter(pk__in=[found[(user.pk, Currency.COIN)].pk for user, _ in stakes])
                    .order_by("pk")}
        holds, legs = [], []
        for user, amount in stakes:
            frozen = min(amount, accounts[user.pk].balance)
            if frozen <= 0:
                raise LedgerError(_("%(player)s 没有可冻结的金币"), {"player": user})
            hold = Hold(game_key=game_key, user=user, amount=frozen)
            holds.append(hold)
        try:
            Hold.objects.bulk_create(holds)
        except IntegrityError:
            raise LedgerError(_("%(game)s 的金币正在冻结中"), {"game": game_key}) from None
        for hold in holds:
            legs += [LegSpec(accounts[hold.user_id], -hold.amount),
                     LegSpec(escrow, hold.amount, hold)]
        # The key names the players: freeze_coins freezes one player of a table at a
        # time, and a key of the game alone made the second player's freeze "other
        # contents" under the first one's key.
        frozen_for = "-".join(str(pk) for pk in sorted(hold.user_id for hold in holds))
        posted = ledger_post(key=f"freeze:{game_key}:{frozen_for}", kind=Kind.FREEZE,
                             game_key=game_key, memo="金币冻结", legs=legs)
        Hold.objects.filter(pk__in=[hold.pk for hold in holds]).update(freeze=posted)
        for hold in holds:
            hold.freeze = posted
    return holds


def release_hold(hold: Hold) -> Hold:
    """Give frozen coins back untouched (a game that never started)."""
    with transaction.atomic():
        hold = Hold.objects.select_for_update().get(pk=hold.pk)
        if hold.status != Hold.Status.PENDING:
            return hold
        ledger_post(
            key=f"release:{hold.pk}", kind=Kind.RELEASE, game_key=hold.game_key, memo="解冻",
            legs=_hold_return_legs(hold), resolves=([hold], Hold.Status.RELEASED))
    return hold


def _hold_return_legs(hold: Hold) -> list[LegSpec]:
    return [
        LegSpec(system_account(SystemAccount.ESCROW, Currency.COIN), -hold.amount, hold),
        LegSpec(user_account(hold.user, Currency.COIN), hold.amount),
    ]


def resolve_holds(holds: Sequence[Hold], status: str, posted: Transaction) -> None:
    """Mark ``holds`` resolved by ``posted`` (settled or released). A pending hold is
    resolved exactly once: only rows still pending change, and any other refuses all."""
    now = timezone.now()
    changed = Hold.objects.filter(pk__in=[hold.pk for hold in holds],
                                  status=Hold.Status.PENDING).update(
        status=status, resolved_by=posted, resolved_at=now)
    if changed != len(holds):
        raise LedgerError(_("本局已有一笔冻结了结过"))
    for hold in holds:
        hold.status, hold.resolved_by, hold.resolved_at = status, posted, now


# --- corrections --------------------------------------------------------------------------

def correct_transaction(*, original: Transaction, reason: str,
                        actor: User | None = None) -> Transaction:
    """Reverse a transaction with a new one (legs are never changed). Money that was
    frozen goes back to its owner rather than into escrow, so holds stay resolved."""
    if not reason.strip():
        raise LedgerError(_("冲正须填写原因"))
    if original.kind in (Kind.FREEZE, Kind.RELEASE):
        raise LedgerError(_("冻结和解冻不能冲正：请结算或解冻这笔冻结"))
    if hasattr(original, "reversed_by"):
        raise LedgerError(_("这笔交易已冲正过"))
    legs = []
    for leg in original.legs.select_related("account", "hold__user"):
        account = leg.account
        if leg.hold is not None:
            account = user_account(leg.hold.user, Currency.COIN)
        legs.append(LegSpec(account, -leg.amount))
    return ledger_post(key=f"correct:{original.pk}", kind=Kind.CORRECTION, legs=legs,
                       memo=reason, game_key=original.game_key, reverses=original,
                       created_by=actor)
