"""A game's postings to the ledger (RULES §7–§8, §10): its points and coins, settled
exactly once from the holds frozen for it, and the starting grant a player's first
settled game brings. The arithmetic is games.settlement.coin_plan; the ledger
(ledger.services) checks, posts and resolves."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser as User  # any user model
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games.models import BotPlayer
from games.settlement.coin_plan import CoinRules, Escape, plan_game_coins, plan_points
from ledger import sql
from ledger.models import Account, Currency, Hold, Kind, SystemAccount, Transaction
from ledger.services import (
    LedgerError,
    LegSpec,
    accounts_of,
    grant_starting_coins,
    ledger_post,
    starting_grant_key,
)


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
    currencies = [Currency.POINT, Currency.COIN] if coins else [Currency.POINT]
    systems = [SystemAccount.HOUSE, SystemAccount.FEES, SystemAccount.ESCROW] if coins \
        else [SystemAccount.HOUSE]
    with transaction.atomic():
        holds, accounts = _holds_and_accounts(game_key, players, systems, currencies)
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
                             memo="逃跑结算" if escape else "对局结算",
                             resolves=(list(holds.values()), Hold.Status.SETTLED))
    return posted


def _holds_and_accounts(game_key: str, players: Sequence[User], systems: list[str],
                        currencies: list[str]) -> tuple[dict[int, Hold], dict]:
    """The game's holds, locked, by player id, and the accounts the settlement posts
    to, keyed as accounts_of keys them: one round trip when every account exists
    (accounts_of makes the missing ones, a player's first game)."""
    hold_rows, account_rows = sql.holds_and_accounts(
        game_key=game_key, user_ids=[user.pk for user in players], systems=systems,
        currencies=currencies)
    holds = {}
    for row in hold_rows:
        hold = Hold(**dict(zip(("id", "game_key", "user_id", "amount", "status", "freeze_id"),
                               row, strict=True)))
        hold._state.adding, hold._state.db = False, "default"
        holds[hold.user_id] = hold
    accounts = {}
    for pk, user_id, system, currency, balance in account_rows:
        account = Account(id=pk, user_id=user_id, system=system, currency=currency,
                          balance=balance)
        account._state.adding, account._state.db = False, "default"
        accounts[(user_id or system, currency)] = account
    if len(accounts) < (len(players) + len(systems)) * len(currencies):
        accounts = accounts_of(users=players, systems=systems, currencies=currencies)
    return holds, accounts


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


def grant_starting_coins_after_game(player_ids: Iterable[int]) -> list[Transaction]:
    """The starting grant of each human player among ``player_ids`` who has not had it
    yet: new coins enter the economy after a player's first settled game, not at
    sign-up, so an account made only to collect coins must sit a whole game first
    (docs/ledger.md, "How coins enter the economy"). Bots (users with a BotPlayer row)
    never get it. Call inside the settlement's transaction. Players who have it are
    skipped by key before posting, so a later change of LEDGER_STARTING_COINS is not a
    conflicting repost of the same key."""
    humans = get_user_model().objects.filter(pk__in=list(player_ids)) \
        .exclude(pk__in=BotPlayer.objects.values("user_id")).order_by("pk")
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
