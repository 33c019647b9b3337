"""The statements of the posting path, written as plain SQL and sent several to a
round trip; the posting itself is one call of the database's ledger_post_legs
(migration 0008).

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


@dataclass(frozen=True)
class Posting:
    """Everything one ledger_post writes. ``legs`` are (account, amount, hold) in
    account id order: a player's balance after each of its legs follows that order."""

    key: str
    kind: str
    fingerprint: str
    memo: str
    game_key: str
    reverses_id: int | None
    created_by_id: int | None
    created_at: datetime
    legs: Sequence[tuple[int, int, int | None]]
    resolve_holds: Sequence[int] = ()  # pending holds this posting resolves
    hold_status: str = ""


@dataclass(frozen=True)
class Posted:
    """What ledger_post_legs did: wrote ``transaction_id`` (resolving ``resolved``
    holds), or found the key taken (``found_fingerprint``: nothing written), or
    found a player's coins short (``short_account`` would end at ``short_balance``:
    nothing written)."""

    transaction_id: int | None
    found_fingerprint: str | None
    short_account: int | None
    short_balance: int | None
    resolved: int


def post_legs(posting: Posting) -> Posted:
    """One round trip: the function of migration 0008 locks the players' accounts,
    checks the key and the players' coins under the locks, then writes the
    transaction, its legs, the balances and the holds it resolves."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT * FROM ledger_post_legs(%s, %s, %s, %s, %s, %s, %s, %s, "
            "%s::bigint[], %s::bigint[], %s::bigint[], %s::bigint[], %s)",
            [posting.key, posting.kind, posting.fingerprint, posting.memo, posting.game_key,
             posting.reverses_id, posting.created_by_id, posting.created_at,
             [leg[0] for leg in posting.legs], [leg[1] for leg in posting.legs],
             [leg[2] for leg in posting.legs], list(posting.resolve_holds),
             posting.hold_status])
        return Posted(*cursor.fetchone())
