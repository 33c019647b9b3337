"""Shared set-up and read-outs for the ledger tests (real PostgreSQL, no mocks)."""

from __future__ import annotations

import importlib
import itertools
import re
import uuid
from dataclasses import dataclass

from accounts.models import Level, User
from accounts.selectors import levels_of
from ledger.models import Account, Currency, Hold, Leg, SystemAccount, Transaction
from ledger.services import balance_of, grant_coins

_serial = itertools.count()


def unique(prefix: str) -> str:
    """A name no other test, example or thread uses (the audit is global)."""
    return f"{prefix}-{uuid.uuid4().hex[:8]}-{next(_serial)}"


def make_user(coins: int = 0, prefix: str = "player") -> User:
    user = User.objects.create_user(username=unique(prefix), password="pw")
    if coins:
        grant_coins(user=user, amount=coins, key=unique("grant"))
    return user


def make_players(coins: int = 10000, count: int = 4) -> list[User]:
    return [make_user(coins) for _ in range(count)]


def coins_of(users: list[User]) -> list[int]:
    return [balance_of(user, Currency.COIN) for user in users]


def points_of(users: list[User]) -> list[int]:
    return [balance_of(user, Currency.POINT) for user in users]


def system_balance(code: SystemAccount, currency: Currency = Currency.COIN) -> int:
    account = Account.objects.filter(system=code, currency=currency).first()
    return account.balance if account else 0


def coin_total_outside_issuance() -> int:
    """Every coin that exists: users' balances plus the fee, house and escrow accounts."""
    accounts = Account.objects.filter(currency=Currency.COIN).exclude(system=SystemAccount.ISSUANCE)
    return sum(accounts.values_list("balance", flat=True))


def ledger_snapshot() -> dict:
    """Everything a refused write must leave untouched."""
    return {
        "transactions": sorted(Transaction.objects.values_list("pk", "key", "kind")),
        "legs": sorted(Leg.objects.values_list("pk", "transaction", "account", "amount")),
        # Accounts opened on the way with nothing in them are not a write of money.
        "balances": dict(Account.objects.exclude(balance=0).values_list("pk", "balance")),
        "holds": sorted(Hold.objects.values_list("pk", "status", "resolved_by", "amount")),
        # Computed from the balances and the ladder: a refused write moves no level.
        "levels": levels_of(User.objects.values_list("pk", flat=True)),
    }


RULES_LADDER = importlib.import_module("accounts.migrations.0003_level_table").LADDER


def install_level_ladder() -> None:
    """Transactional tests flush every table, the ladder loaded by migration 0003
    included; put RULES §7's ladder back."""
    for number, title, min_points in RULES_LADDER:
        Level.objects.update_or_create(number=number,
                                       defaults={"title": title, "min_points": min_points})


# --- the statement page (ledger.views) ---------------------------------------------------

@dataclass(frozen=True)
class Row:
    leg: int
    kind: str
    label: str
    amount: int
    balance: int
    what: str


ROW = re.compile(
    r'<tr class="entry kind-(?P<kind>[a-z_]+)" data-leg="(?P<leg>\d+)">.*?'
    r'<td class="kind">(?P<label>.*?)</td>.*?'
    r'<td class="num amount (?:plus|minus)">(?P<amount>[+-]\d+)</td>.*?'
    r'<td class="num balance-after">(?P<balance>-?\d+)</td>.*?'
    r'<td class="what">(?P<what>.*?)</td>', re.S)


def rows_of(response) -> list[Row]:
    assert response.status_code == 200
    return [Row(int(match["leg"]), match["kind"], match["label"].strip(), int(match["amount"]),
                int(match["balance"]), " ".join(match["what"].split()))
            for match in ROW.finditer(response.content.decode())]
