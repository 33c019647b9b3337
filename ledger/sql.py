"""The statements of the posting path, written as plain SQL and sent several to a
round trip.

Every game's settlement runs them, and the ORM's expression machinery (querysets,
model instances) cost more CPU than the database work itself, while each statement
sent alone waits for its answer before the next one leaves. Django's PostgreSQL
cursors bind parameters on the client, so one ``execute`` may carry several
statements separated by semicolons: PostgreSQL runs them in order, in the current
transaction, and the first error stops the rest (docs/performance.md, "Ledger").
They take parameters, no string-built values; only the number of placeholders
varies.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import connection

HOLD_COLUMNS = "id, game_key, user_id, amount, status, freeze_id"
ACCOUNT_COLUMNS = "id, user_id, system, currency, balance"


def holds_and_accounts(*, game_key: str, user_ids: Sequence[int], systems: Sequence[str],
                       currencies: Sequence[str]) -> tuple[list[tuple], list[tuple]]:
    """One round trip: the game's holds, locked in id order, and the accounts of
    ``user_ids`` and ``systems`` in ``currencies`` (not locked: ledger_post locks the
    players' ones). Rows in HOLD_COLUMNS and ACCOUNT_COLUMNS order."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {HOLD_COLUMNS} FROM ledger_hold WHERE game_key = %s "
            "ORDER BY id FOR UPDATE; "
            f"SELECT {ACCOUNT_COLUMNS} FROM ledger_account "
            "WHERE (user_id = ANY(%s) OR system = ANY(%s)) AND currency = ANY(%s)",
            [game_key, list(user_ids), [str(code) for code in systems],
             [str(currency) for currency in currencies]])
        holds = cursor.fetchall()
        cursor.nextset()
        return holds, cursor.fetchall()


def lock_balances_and_find_key(account_ids: Sequence[int], key: str
                               ) -> tuple[dict[int, int], int | None]:
    """One round trip: lock accounts in id order and return their balances, and the
    id of the transaction with ``key`` if one exists (checked under the locks)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id, balance FROM ledger_account WHERE id = ANY(%s) "
            "ORDER BY id FOR UPDATE; "
            "SELECT id FROM ledger_transaction WHERE key = %s",
            [sorted(account_ids), key])
        balances = dict(cursor.fetchall())
        cursor.nextset()
        found = cursor.fetchone()
        return balances, found[0] if found else None


@dataclass(frozen=True)
class Posting:
    """Everything one ledger_post writes, in the order it is written."""

    key: str
    kind: str
    fingerprint: str
    memo: str
    game_key: str
    reverses_id: int | None
    created_by_id: int | None
    created_at: datetime
    legs: Sequence[tuple[int, int, int | None, int | None]]  # account, amount, after, hold
    balances: dict[int, int]  # new balances of the locked (players') accounts
    system_deltas: dict[int, int]  # increments of the shared system accounts
    resolve_holds: Sequence[int] = ()  # pending holds this posting resolves
    hold_status: str = ""


def write_posting(posting: Posting) -> tuple[int, int]:
    """One round trip: the transaction and its legs (one statement), the players'
    new balances (one), each system account's increment in id order (their locks
    are taken last and held only until commit), then the holds it resolves (one).
    Returns the transaction's id and how many pending holds changed."""
    statements = [_transaction_and_legs(posting)]
    params = [posting.key, posting.kind, posting.fingerprint, posting.memo, posting.game_key,
              posting.reverses_id, posting.created_by_id, posting.created_at,
              *(value for leg in posting.legs for value in leg)]
    if posting.balances:
        ids = sorted(posting.balances)
        statements.append("UPDATE ledger_account SET balance = CASE id "
                          + " ".join("WHEN %s THEN %s" for _ in ids)
                          + " END WHERE id = ANY(%s)")
        params += [value for pk in ids for value in (pk, posting.balances[pk])]
        params.append(ids)
    for pk in sorted(posting.system_deltas):
        statements.append("UPDATE ledger_account SET balance = balance + %s WHERE id = %s")
        params += [posting.system_deltas[pk], pk]
    if posting.resolve_holds:
        statements.append(
            "UPDATE ledger_hold SET status = %s, resolved_by_id = "
            "(SELECT id FROM ledger_transaction WHERE key = %s), resolved_at = %s "
            "WHERE id = ANY(%s) AND status = 'pending'")
        params += [posting.hold_status, posting.key, posting.created_at,
                   list(posting.resolve_holds)]
    with connection.cursor() as cursor:
        cursor.execute("; ".join(statements), params)
        transaction_id = cursor.fetchone()[0]
        resolved = 0
        while cursor.nextset():
            resolved = cursor.rowcount
        return transaction_id, resolved if posting.resolve_holds else 0


def _transaction_and_legs(posting: Posting) -> str:
    legs = ", ".join("(%s::bigint, %s::bigint, %s::bigint, %s::bigint)" for _ in posting.legs)
    return ("WITH posted AS (INSERT INTO ledger_transaction (key, kind, fingerprint, memo, "
            "game_key, reverses_id, created_by_id, created_at) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING id), "
            "legs AS (INSERT INTO ledger_leg (transaction_id, account_id, amount, "
            "balance_after, hold_id) SELECT posted.id, leg.account_id, leg.amount, "
            f"leg.balance_after, leg.hold_id FROM posted, (VALUES {legs}) "
            "AS leg (account_id, amount, balance_after, hold_id)) "
            "SELECT id FROM posted")
