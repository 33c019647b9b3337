"""Legs are checked once per statement, not once per leg (docs/ledger.md, "What the
database enforces").

Migration 0002's check was a deferred row trigger: at commit every leg ran a query
to learn whether an earlier leg of its transaction had checked already, a quarter of a
settlement's server time. Now an AFTER INSERT statement trigger sees the statement's
new legs (a transition table) and requires them to sum to zero per transaction and
currency. Legs are never updated or deleted, so a transaction's legs are the sum of
what its statements added, each zero: every transaction balances, as before, and the
check reads only the new legs (not the growing leg table, whose plan a backend would
keep from when the table was small). Stricter than a check at commit: a
transaction's legs go in together, as ledger_post_legs writes them. A transaction
with no legs is still refused at commit.
"""

from importlib import import_module

from django.db import migrations

INSTALL = """
DROP TRIGGER IF EXISTS ledger_leg_balanced ON ledger_leg;
DROP FUNCTION IF EXISTS ledger_check_transaction_balanced();

CREATE OR REPLACE FUNCTION ledger_check_legs_balanced() RETURNS trigger AS $$
DECLARE
    unbalanced record;
BEGIN
    SELECT l.transaction_id, a.currency, SUM(l.amount) AS total INTO unbalanced
      FROM new_legs l JOIN ledger_account a ON a.id = l.account_id
     GROUP BY l.transaction_id, a.currency
    HAVING SUM(l.amount) <> 0
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'ledger transaction % does not balance: the % legs written sum to %',
            unbalanced.transaction_id, unbalanced.currency, unbalanced.total
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER ledger_legs_balanced
    AFTER INSERT ON ledger_leg
    REFERENCING NEW TABLE AS new_legs
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_check_legs_balanced();
"""

_FIRST = import_module("ledger.migrations.0002_postgres_invariants")
_on_postgres = _FIRST._on_postgres  # runs a script as one simple query
# Backwards: this check goes and 0002's row trigger (the first part of its script,
# before the check that a transaction has legs) comes back.
_ROW_CHECK = _FIRST.INSTALL.split(
    "CREATE OR REPLACE FUNCTION ledger_check_transaction_has_legs")[0]
UNINSTALL = """
DROP TRIGGER IF EXISTS ledger_legs_balanced ON ledger_leg;
DROP FUNCTION IF EXISTS ledger_check_legs_balanced();
""" + _ROW_CHECK


class Migration(migrations.Migration):
    dependencies = [("ledger", "0009_leaner_indexes")]

    operations = [migrations.RunPython(_on_postgres(INSTALL), _on_postgres(UNINSTALL))]
