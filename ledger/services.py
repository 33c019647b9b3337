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
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User

from . import sql
from .models import MAY_GO_NEGATIVE, Account, Currency, Hold, Kind, SystemAccount, Transaction
from .settlement import CoinRules, Escape, plan_game_coins, plan_points


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
    missing = wanted - set(found)
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
                created_by: User | None = None) -> Transaction:
    """Post a balanced transaction once.

    Players' accounts are locked in id order, their new balances checked and
    written; the shared system accounts (fees, house, escrow, issuance) are only
    incremented, one by one in id order, as the last statements, so their row
    locks last just until commit and every posting takes locks in the same order
    (players by id, then system accounts by id): no deadlocks, little waiting."""
    legs = _merge(legs)
    _check_balanced(legs)
    fingerprint = _fingerprint(kind, legs)
    # No savepoint when called inside a service's transaction: a refusal rolls back all.
    with transaction.atomic(savepoint=False):
        players = {account.pk: account for account in Account.objects.select_for_update()
                   .filter(pk__in={leg.account.pk for leg in legs if not leg.account.system})
                   .order_by("pk")}
        # Checked under the locks: a racer with the same contents has committed by now.
        existing = Transaction.objects.filter(key=key).first()
        if existing is not None:
            return _same_or_raise(existing, fingerprint)
        rows = []
        system_deltas: dict[int, int] = {}
        for leg in sorted(legs, key=lambda leg: leg.account.pk):
            account = players.get(leg.account.pk)
            if account is None:
                system_deltas[leg.account.pk] = system_deltas.get(leg.account.pk, 0) + leg.amount
                rows.append((leg, None))
            else:
                account.balance += leg.amount
                rows.append((leg, account.balance))
        for account in players.values():
            _check_allowed(account, account.balance)
        try:
            posted = Transaction.objects.create(
                key=key, kind=kind, fingerprint=fingerprint, memo=memo[:300],
                game_key=game_key, reverses=reverses, created_by=created_by)
        except IntegrityError:
            # Only a posting on other accounts can race past the locks: other contents.
            raise LedgerError(_("幂等键 “%(key)s” 已被另一笔记账使用，或该交易已冲正过"),
                              {"key": key}) from None
        sql.insert_legs([(posted.pk, leg.account.pk, leg.amount, after,
                          leg.hold.pk if leg.hold else None) for leg, after in rows])
        sql.set_balances({pk: account.balance for pk, account in players.items()})
        _increment_system_accounts(system_deltas)
    return posted


def _increment_system_accounts(deltas: dict[int, int]) -> None:
    for pk in sorted(deltas):
        try:
            sql.add_to_balance(pk, deltas[pk])
        except IntegrityError:  # the balance CHECK: escrow and fees never go negative
            raise LedgerError(_("系统账户 %(account)s 的余额将低于零"),
                              {"account": pk}) from None


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


def _check_allowed(account: Account, balance: int) -> None:
    if balance < 0 and account.currency == Currency.COIN \
            and account.system not in MAY_GO_NEGATIVE:
        raise LedgerError(_("%(account)s 的余额将低于零（%(balance)d）"),
                          {"account": account, "balance": balance})


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


def grant_starting_coins_after_game(player_ids: Iterable[int]) -> list[Transaction]:
    """The starting grant of each human player among ``player_ids`` who has not had it
    yet: new coins enter the economy after a player's first settled game, not at
    sign-up, so an account made only to collect coins must sit a whole game first
    (docs/ledger.md, "How coins enter the economy"). Bots (users with a BotPlayer row)
    never get it. Call inside the settlement's transaction. Players who have it are
    skipped by key before posting, so a later change of LEDGER_STARTING_COINS is not a
    conflicting repost of the same key."""
    humans = User.objects.filter(pk__in=list(player_ids), bot_player__isnull=True) \
        .order_by("pk")
    keys = {player.pk: starting_grant_key(player.pk) for player in humans}
    if not keys:
        return []
    granted = set(Transaction.objects.filter(key__in=keys.values())
                  .values_list("key", flat=True))
    posted = []
    for player in humans:
        if keys[player.pk] not in granted:
            grant = grant_starting_coins(player)
            if grant is not None:
                posted.append(grant)
    return posted


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
        posted = ledger_post(
            key=f"release:{hold.pk}", kind=Kind.RELEASE, game_key=hold.game_key, memo="解冻",
            legs=_hold_return_legs(hold))
        _resolve([hold], Hold.Status.RELEASED, posted)
    return hold


def _hold_return_legs(hold: Hold) -> list[LegSpec]:
    return [
        LegSpec(system_account(SystemAccount.ESCROW, Currency.COIN), -hold.amount, hold),
        LegSpec(user_account(hold.user, Currency.COIN), hold.amount),
    ]


def _resolve(holds: Sequence[Hold], status: str, posted: Transaction) -> None:
    # A pending hold is resolved exactly once: only rows still pending change.
    now = timezone.now()
    changed = Hold.objects.filter(pk__in=[hold.pk for hold in holds],
                                  status=Hold.Status.PENDING).update(
        status=status, resolved_by=posted, resolved_at=now)
    if changed != len(holds):
        raise LedgerError(_("本局已有一笔冻结了结过"))
    for hold in holds:
        hold.status, hold.resolved_by, hold.resolved_at = status, posted, now


# --- settlement ----------------------------------------------------------------------------

def settle_game(*, game_key: str, players: Sequence[User], scores: Sequence[int],
                stake_unit: int = 1, coins: bool = False, coefficient: int = 0, fee: int = 0,
                escape: Escape | None = None, coin_scores: Sequence[int] | None = None,
                coin_rules: CoinRules | None = None) -> Transaction | None:
    """Settle one game exactly once (key ``settle:<game_key>``): points by score ×
    stake unit, and in coin rooms coins by score × N − A from the frozen holds
    (RULES §7–§8). For an escape, ``scores`` are the contributions only and the
    penalty is charged and shared as §10 says. ``coin_scores`` are the scores coins
    follow where they differ (classic's capped multiplier); ``coin_rules``, where
    given, replace the flat ``fee`` (RULES §9). Every hold of the game is resolved
    in the same transaction. Returns None when nothing moves (no holds, all zero)."""
    key = f"settle:{game_key}"
    if len(players) != len(scores):
        raise LedgerError(_("每位玩家须有一个分数"))
    # A player listed twice would draw on the same hold twice (escrow legs of -2 × hold).
    if len({user.pk for user in players}) != len(players):
        raise LedgerError(_("有玩家被列出两次"))
    with transaction.atomic():
        holds = {hold.user_id: hold for hold in
                 Hold.objects.select_for_update().filter(game_key=game_key)}
        point_deltas, point_house = plan_points(scores, stake_unit)
        if escape is not None:
            point_deltas[escape.seat] -= escape.penalty_units * stake_unit
            point_house += escape.penalty_units * stake_unit
        # Pending holds (locked above) mean nobody settled yet; otherwise look.
        if not holds or any(hold.status != Hold.Status.PENDING for hold in holds.values()):
            existing = Transaction.objects.filter(key=key).first()
            if existing is not None:
                _same_points_or_raise(existing, players, point_deltas)
                return existing
        currencies = [Currency.POINT, Currency.COIN] if coins else [Currency.POINT]
        accounts = accounts_of(
            users=players, currencies=currencies,
            systems=[SystemAccount.HOUSE, SystemAccount.FEES, SystemAccount.ESCROW] if coins
            else [SystemAccount.HOUSE])
        legs = [LegSpec(accounts[(user.pk, Currency.POINT)], delta)
                for user, delta in zip(players, point_deltas)]
        legs.append(LegSpec(accounts[(SystemAccount.HOUSE, Currency.POINT)], point_house))
        if coins:
            legs += _coin_legs(players, scores if coin_scores is None else coin_scores, holds,
                               accounts, coefficient, coin_rules or CoinRules(fee=fee), escape)
        elif holds:
            raise LedgerError(_("只结算积分的对局却冻结了金币"))
        if not any(leg.amount for leg in legs):
            return None  # nothing moves: a points game that ended all square
        kind = Kind.ESCAPE_PENALTY if escape else Kind.SETTLEMENT
        posted = ledger_post(key=key, kind=kind, legs=legs, game_key=game_key,
                             memo="逃跑结算" if escape else "对局结算")
        _resolve(list(holds.values()), Hold.Status.SETTLED, posted)
    return posted


def _same_points_or_raise(existing: Transaction, players: Sequence[User],
                          point_deltas: Sequence[int]) -> None:
    """A retry must settle the same game the same way: its points are compared (the
    coins came out of holds that are resolved now)."""
    posted = dict(existing.legs.filter(account__currency=Currency.POINT,
                                       account__user__in=players)
                  .values_list("account__user_id", "amount"))
    asked = {user.pk: delta for user, delta in zip(players, point_deltas) if delta}
    if posted != asked:
        raise LedgerError(_("%(key)s 已按不同的分数结算过"), {"key": existing.key})


def _coin_legs(players: Sequence[User], scores: Sequence[int], holds: dict[int, Hold],
               accounts: dict, coefficient: int, rules: CoinRules,
               escape: Escape | None) -> list[LegSpec]:
    missing = [str(user) for user in players if user.pk not in holds]
    if missing:
        raise LedgerError(_("未冻结这些玩家的金币：%(players)s"),
                          {"players": ", ".join(missing)})
    # Every hold of the game is marked settled below: one of someone not playing would
    # be marked settled with its coins left in escrow. Release it first.
    if len(holds) != len(players):
        raise LedgerError(_("有不是本局玩家的人为本局冻结了金币"))
    if any(hold.status != Hold.Status.PENDING for hold in holds.values()):
        raise LedgerError(_("本局已有一笔冻结了结过"))
    plan = plan_game_coins(scores, [holds[user.pk].amount for user in players], coefficient,
                           rules, escape)
    escrow = accounts[(SystemAccount.ESCROW, Currency.COIN)]
    legs = []
    for user, net in zip(players, plan.net):
        hold = holds[user.pk]
        legs.append(LegSpec(escrow, -hold.amount, hold))
        legs.append(LegSpec(accounts[(user.pk, Currency.COIN)], hold.amount + net))
    legs.append(LegSpec(accounts[(SystemAccount.FEES, Currency.COIN)], plan.fees))
    legs.append(LegSpec(accounts[(SystemAccount.HOUSE, Currency.COIN)], plan.house))
    return legs


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
