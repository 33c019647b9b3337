"""Proofs that the ledger is whole (``manage.py ledger_audit``)."""

from __future__ import annotations

from django.db.models import Count, Q, Sum

from .models import Account, Currency, Hold, Leg, SystemAccount, Transaction


def ledger_violations() -> list[str]:
    """Every broken invariant, in words; empty when the ledger is clean."""
    return [*_balances(), *_transactions(), *_currencies(), *_holds()]


def _balances() -> list[str]:
    found = []
    sums = dict(Leg.objects.values("account").annotate(total=Sum("amount"))
                .values_list("account", "total"))
    for account in Account.objects.select_related("user"):
        total = sums.get(account.pk, 0)
        if account.balance != total:
            found.append(f"account {account.pk} ({account}): balance {account.balance} "
                         f"but its legs sum to {total}")
        if account.balance < 0 and account.currency == Currency.COIN \
                and account.system not in (SystemAccount.ISSUANCE, SystemAccount.HOUSE):
            found.append(f"account {account.pk} ({account}): negative coins {account.balance}")
    return found


def _transactions() -> list[str]:
    found = []
    unbalanced = (Leg.objects.values("transaction", "account__currency")
                  .annotate(total=Sum("amount")).exclude(total=0))
    for row in unbalanced:
        found.append(f"transaction {row['transaction']}: its {row['account__currency']} legs "
                     f"sum to {row['total']}")
    for txn in Transaction.objects.annotate(legs_count=Count("legs")).filter(legs_count=0):
        found.append(f"transaction {txn.pk} ({txn.key}) has no legs")
    return found


def _currencies() -> list[str]:
    found = []
    for row in Account.objects.values("currency").annotate(total=Sum("balance")):
        if row["total"]:
            found.append(f"{row['currency']} balances sum to {row['total']}, not zero")
    return found


def _holds() -> list[str]:
    """Each hold is frozen once and resolved at most once, and escrow holds exactly
    the pending holds."""
    found = []
    legs = (Leg.objects.filter(hold__isnull=False).values("hold")
            .annotate(credits=Count("id", filter=Q(amount__gt=0)),
                      debits=Count("id", filter=Q(amount__lt=0)), total=Sum("amount")))
    by_hold = {row["hold"]: row for row in legs}
    pending_total = 0
    for hold in Hold.objects.all():
        row = by_hold.get(hold.pk, {"credits": 0, "debits": 0, "total": 0})
        if row["credits"] != 1:
            found.append(f"hold {hold.pk}: frozen {row['credits']} times")
        if row["debits"] > 1:
            found.append(f"hold {hold.pk}: resolved {row['debits']} times")
        expected = hold.amount if hold.status == Hold.Status.PENDING else 0
        if row["total"] != expected or (hold.status == Hold.Status.PENDING) != (row["debits"] == 0):
            found.append(f"hold {hold.pk} ({hold.status}): escrow legs sum to {row['total']}, "
                         f"expected {expected}")
        if hold.status == Hold.Status.PENDING:
            pending_total += hold.amount
    escrow = Account.objects.filter(system=SystemAccount.ESCROW, currency=Currency.COIN).first()
    escrow_balance = escrow.balance if escrow else 0
    if escrow_balance != pending_total:
        found.append(f"escrow holds {escrow_balance} but pending holds total {pending_total}")
    return found
