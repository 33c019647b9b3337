"""``manage.py bench_ledger`` on the pooled settings (settings.base.pooled_postgres): its
forked workers must each build their own connections. Inheriting the parent's pool, a
worker failed with "can't change 'autocommit' now" and the parent waited for ever, so
the command runs in a process group of its own that the test kills at a time limit: a
hang fails the test instead of holding up the suite."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys

import pytest
from django.db import connection

from common.testing.server_helpers import ROOT, this_database_url
from ledger.audit import ledger_violations
from ledger.models import Kind, Transaction

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

GAMES = 12
# Far above what the command needs on a busy machine (a few seconds), and still a
# bound: the old command never ended.
LIMIT_SECONDS = 300


def run_command(*args: str) -> subprocess.CompletedProcess:
    """``manage.py *args`` on this test's database and settings, killed with every
    process it forked if it has not finished within LIMIT_SECONDS."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "shuangkou_site.settings.test",
           "DATABASE_URL": this_database_url()}
    process = subprocess.Popen([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=LIMIT_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)  # its own group: the command and its workers
        stdout, stderr = process.communicate()
        pytest.fail(f"{' '.join(args)} did not finish in {LIMIT_SECONDS} s\n{stdout}\n{stderr}")
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def test_bench_ledger_settles_every_game_with_forked_workers_on_the_pooled_settings():
    assert connection.settings_dict["OPTIONS"].get("pool"), "the test settings pool"

    done = run_command("bench_ledger", "--games", str(GAMES), "--workers", "2",
                       "--players", "8", "--pgbench-seconds", "1")

    print(done.stdout, done.stderr)
    assert done.returncode == 0, done.stderr
    assert f"settle: {GAMES} settlements by 2 workers" in done.stdout
    assert "audit: clean" in done.stdout
    assert Transaction.objects.filter(kind=Kind.SETTLEMENT,
                                      key__startswith="settle:bench:").count() == GAMES
    assert ledger_violations() == []


def test_bench_ledger_prints_pgbench_of_the_same_database_beside_it_and_leaves_no_tables():
    done = run_command("bench_ledger", "--games", "4", "--workers", "1", "--players", "4",
                       "--pgbench-seconds", "1")

    assert done.returncode == 0, done.stderr
    tps = re.search(r"^pgbench -N .*: ([\d.]+) TPS", done.stdout, re.MULTILINE)
    ratio = re.search(r"^settlements/s ÷ pgbench TPS = ([\d.]+)", done.stdout, re.MULTILINE)
    assert tps and float(tps.group(1)) > 0, done.stdout
    assert ratio and float(ratio.group(1)) > 0, done.stdout
    # The settlement's transaction, counted: the ORM-built path took 12 round trips.
    counted = re.search(r"^settlement transaction: (\d+) statements in (\d+) round trips"
                        r".*; the posting is one call of ledger_post_legs$",
                        done.stdout, re.MULTILINE)
    assert counted and int(counted.group(2)) == 4 and int(counted.group(1)) == 3, done.stdout
    # pgbench's tables lived in a scratch schema, dropped afterwards.
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_tables WHERE tablename LIKE 'pgbench%%'")
        assert cursor.fetchone()[0] == 0
        cursor.execute("SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'pgbench%%'")
        assert cursor.fetchone()[0] == 0
