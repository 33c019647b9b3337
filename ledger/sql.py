"""The few statements on the posting path written as plain SQL.

Every game's settlement runs them, and the ORM's expression machinery (CASE
builders, model instances) cost more CPU than the database work itself. They take
parameters, no string-built values.
"""

from __future__ import annotations

from django.db import connection


def set_balances(balances: dict[int, int]) -> None:
    """Write new balances of accounts this transaction has locked."""
    _set_by_id("ledger_account", "balance", balances)


def add_to_balance(account_id: int, amount: int) -> None:
    """Increment one balance without reading it (shared system accounts)."""
    with connection.cursor() as cursor:
        cursor.execute("UPDATE ledger_account SET balance = balance + %s WHERE id = %s",
                       [amount, account_id])


def _set_by_id(table: str, column: str, values: dict[int, int]) -> None:
    """One UPDATE setting ``column`` per row id (table and column are ours, not input)."""
    if not values:
        return
    ids = sorted(values)
    cases = " ".join("WHEN %s THEN %s" for _ in ids)
    placeholders = ", ".join("%s" for _ in ids)
    params = [value for pk in ids for value in (pk, values[pk])]
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET {column} = CASE id {cases} END "
                       f"WHERE id IN ({placeholders})", [*params, *ids])


def insert_legs(rows: list[tuple[int, int, int, int | None, int | None]]) -> None:
    """Insert legs: (transaction id, account id, amount, balance after, hold id)."""
    values = ", ".join("(%s, %s, %s, %s, %s)" for _ in rows)
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO ledger_leg (transaction_id, account_id, amount, "
                       f"balance_after, hold_id) VALUES {values}",
                       [value for row in rows for value in row])
