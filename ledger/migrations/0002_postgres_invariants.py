"""PostgreSQL enforces the ledger's invariants itself (GUIDE "Money").

- The legs of a transaction sum to zero per currency, and a transaction has legs:
  deferred constraint triggers, checked at commit, so legs can be inserted one by one.
- Legs and transactions are append-only: UPDATE and DELETE are refused (corrections are
  reversing transactions).

The balance CHECK is a model constraint (migration 0001). The services assert the same
rules in Python too.
"""

from django.db import migrations

INSTALL = """
CREATE OR REPLACE FUNCTION ledger_check_transaction_balanced() RETURNS trigger AS $$
DECLARE
    unbalanced record;
    marker text := 'ledger.checked_' || NEW.transaction_id;
    legs_now bigint;
BEGIN
    -- One check covers every leg of the transaction present at that moment: at commit
    -- the first leg checks and the others skip, unless the number of legs changed.
    SELECT count(*) INTO legs_now FROM ledger_leg WHERE transaction_id = NEW.transaction_id;
    IF current_setting(marker, true) = legs_now::text THEN
        RETURN NULL;
    END IF;
    PERFORM set_config(marker, legs_now::text, true);
    SELECT a.currency, SUM(l.amount) AS total INTO unbalanced
      FROM ledger_leg l JOIN ledger_account a ON a.id = l.account_id
     WHERE l.transaction_id = NEW.transaction_id
     GROUP BY a.currency
    HAVING SUM(l.amount) <> 0
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'ledger transaction % does not balance: its % legs sum to %',
            NEW.transaction_id, unbalanced.currency, unbalanced.total
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE CONSTRAINT TRIGGER ledger_leg_balanced
    AFTER INSERT ON ledger_leg
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION ledger_check_transaction_balanced();

CREATE OR REPLACE FUNCTION ledger_check_transaction_has_legs() RETURNS trigger AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM ledger_leg WHERE transaction_id = NEW.id) THEN
        RAISE EXCEPTION 'ledger transaction % has no legs', NEW.id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE CONSTRAINT TRIGGER ledger_transaction_has_legs
    AFTER INSERT ON ledger_transaction
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION ledger_check_transaction_has_legs();

CREATE OR REPLACE FUNCTION ledger_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'ledger % rows are append-only: % refused', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'restrict_violation';
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER ledger_leg_append_only
    BEFORE UPDATE OR DELETE ON ledger_leg
    FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();

CREATE TRIGGER ledger_transaction_append_only
    BEFORE UPDATE OR DELETE ON ledger_transaction
    FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
"""

UNINSTALL = """
DROP TRIGGER IF EXISTS ledger_transaction_append_only ON ledger_transaction;
DROP TRIGGER IF EXISTS ledger_leg_append_only ON ledger_leg;
DROP FUNCTION IF EXISTS ledger_refuse_change();
DROP TRIGGER IF EXISTS ledger_transaction_has_legs ON ledger_transaction;
DROP FUNCTION IF EXISTS ledger_check_transaction_has_legs();
DROP TRIGGER IF EXISTS ledger_leg_balanced ON ledger_leg;
DROP FUNCTION IF EXISTS ledger_check_transaction_balanced();
"""


def _on_postgres(sql: str):
    def run(apps, schema_editor) -> None:
        # No parameters: psycopg sends the script as one simple query.
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [("ledger", "0001_initial")]

    operations = [migrations.RunPython(_on_postgres(INSTALL), _on_postgres(UNINSTALL))]
