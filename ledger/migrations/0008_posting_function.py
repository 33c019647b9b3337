"""A posting in one call: the function ``ledger_post_legs`` (docs/ledger.md, "The
posting path").

Python decides what a posting is (the legs, merged and balanced, the key and its
fingerprint); the function writes it where the rows are, in one round trip where it
took two, with its statements' plans kept by the backend between calls (sent as text,
each was parsed and planned again at every posting), and Python no longer builds the
statements, reads the balances back or computes them (a third of a settlement's
Python time). In order: the players' accounts locked in id order; the key looked up under the
locks; a player's coins that would go below zero reported, nothing written; the
transaction and its legs (a player's leg carries the balance after it); the players'
balances; each system account incremented in id order, so the shared rows are locked
last and only until commit; the holds it resolves, which must still be pending.
The database's triggers check the result as for any other write (0002; the balance
check per statement since 0010).
"""

from importlib import import_module

from django.db import migrations

# Runs a script as one simple query, as migration 0002 installs its own.
_on_postgres = import_module("ledger.migrations.0002_postgres_invariants")._on_postgres

INSTALL = """
CREATE OR REPLACE FUNCTION ledger_post_legs(
    p_key text, p_kind text, p_fingerprint text, p_memo text, p_game_key text,
    p_reverses_id bigint, p_created_by_id bigint, p_created_at timestamptz,
    p_accounts bigint[], p_amounts bigint[], p_holds bigint[],
    p_resolve_holds bigint[], p_hold_status text,
    OUT transaction_id bigint, OUT found_fingerprint text,
    OUT short_account bigint, OUT short_balance bigint, OUT resolved integer)
AS $$
DECLARE
    players bigint[];  -- the players' accounts, locked, in id order
    balances bigint[];  -- their balances before this posting
    coins boolean[];  -- whether each holds coins
    increment record;
BEGIN
    resolved := 0;
    SELECT coalesce(array_agg(locked.id), '{}'), array_agg(locked.balance),
           array_agg(locked.currency = 'coin')
      INTO players, balances, coins
      FROM (SELECT id, balance, currency FROM ledger_account
             WHERE id = ANY(p_accounts) AND system IS NULL ORDER BY id FOR UPDATE) AS locked;
    SELECT t.id, t.fingerprint INTO transaction_id, found_fingerprint
      FROM ledger_transaction t WHERE t.key = p_key;
    IF FOUND THEN
        RETURN;
    END IF;
    SELECT player.id, player.balance + moved.total INTO short_account, short_balance
      FROM unnest(players, balances, coins) AS player (id, balance, coin)
      JOIN (SELECT leg.account_id, sum(leg.amount)::bigint AS total
              FROM unnest(p_accounts, p_amounts) AS leg (account_id, amount)
             GROUP BY leg.account_id) AS moved ON moved.account_id = player.id
     WHERE player.coin AND player.balance + moved.total < 0
     ORDER BY player.id LIMIT 1;
    IF FOUND THEN
        RETURN;
    END IF;
    INSERT INTO ledger_transaction (key, kind, fingerprint, memo, game_key, reverses_id,
                                    created_by_id, created_at)
    VALUES (p_key, p_kind, p_fingerprint, p_memo, p_game_key, p_reverses_id,
            p_created_by_id, p_created_at)
    RETURNING id INTO transaction_id;
    -- A system account's leg has no balance after it (its balance is not read).
    INSERT INTO ledger_leg (transaction_id, account_id, amount, balance_after, hold_id)
    SELECT transaction_id, leg.account_id, leg.amount,
           player.balance + sum(leg.amount) OVER (PARTITION BY leg.account_id ORDER BY leg.n),
           leg.hold_id
      FROM unnest(p_accounts, p_amounts, p_holds)
           WITH ORDINALITY AS leg (account_id, amount, hold_id, n)
      LEFT JOIN unnest(players, balances) AS player (id, balance) ON player.id = leg.account_id
     ORDER BY leg.n;
    UPDATE ledger_account a SET balance = a.balance + moved.total
      FROM (SELECT leg.account_id, sum(leg.amount)::bigint AS total
              FROM unnest(p_accounts, p_amounts) AS leg (account_id, amount)
             WHERE leg.account_id = ANY(players)
             GROUP BY leg.account_id) AS moved
     WHERE a.id = moved.account_id;
    FOR increment IN
        SELECT leg.account_id, sum(leg.amount)::bigint AS total
          FROM unnest(p_accounts, p_amounts) AS leg (account_id, amount)
         WHERE NOT leg.account_id = ANY(players)
         GROUP BY leg.account_id ORDER BY leg.account_id
    LOOP
        UPDATE ledger_account SET balance = balance + increment.total
         WHERE id = increment.account_id;
    END LOOP;
    IF cardinality(p_resolve_holds) > 0 THEN
        UPDATE ledger_hold SET status = p_hold_status, resolved_by_id = transaction_id,
                               resolved_at = p_created_at
         WHERE id = ANY(p_resolve_holds) AND status = 'pending';
        GET DIAGNOSTICS resolved = ROW_COUNT;
    END IF;
END
$$ LANGUAGE plpgsql;
"""

UNINSTALL = "DROP FUNCTION IF EXISTS ledger_post_legs(text, text, text, text, text, bigint, " \
            "bigint, timestamptz, bigint[], bigint[], bigint[], bigint[], text);"


class Migration(migrations.Migration):
    dependencies = [("ledger", "0007_tournament_pool_and_kinds")]

    operations = [migrations.RunPython(_on_postgres(INSTALL), _on_postgres(UNINSTALL))]
