"""The reference figure beside ``manage.py bench_ledger``: ``pgbench -N`` (its simple
update: three writes and a read per transaction) on the database Django uses, with as
many clients as the benchmark had workers. A settlement rate alone depends on the
machine and whatever else runs on it; its ratio to this rate, measured in the same
sitting, does much less.

pgbench's tables are made in a schema of their own (``search_path`` through
``PGOPTIONS``), dropped afterwards: the project's tables are never touched.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import uuid

from django.db import connection


class PgbenchUnavailable(Exception):
    """pgbench is not installed, or it failed (its message says why)."""


def pgbench_tps(*, clients: int, seconds: int) -> float:
    """Transactions per second of ``pgbench -N`` on the default database."""
    if shutil.which("pgbench") is None:
        raise PgbenchUnavailable("not installed (Debian: apt-get install postgresql-client)")
    schema = f"pgbench_{uuid.uuid4().hex[:8]}"
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE SCHEMA {schema}")
    try:
        env = _environment(schema)
        _run(["pgbench", "--initialize", "--quiet", "--scale", "1"], env)
        output = _run(["pgbench", "--skip-some-updates", "--no-vacuum",
                       "--client", str(clients), "--jobs", str(clients),
                       "--time", str(seconds)], env)
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP SCHEMA {schema} CASCADE")
    found = re.search(r"^tps = ([\d.]+)", output, re.MULTILINE)
    if found is None:
        raise PgbenchUnavailable(f"no tps in its output:\n{output}")
    return float(found.group(1))


def _environment(schema: str) -> dict[str, str]:
    """libpq's variables for Django's database, the scratch schema first on the path."""
    database = connection.settings_dict
    values = {"PGDATABASE": database["NAME"], "PGHOST": database["HOST"],
              "PGPORT": str(database["PORT"] or ""), "PGUSER": database["USER"],
              "PGPASSWORD": database["PASSWORD"],
              "PGOPTIONS": f"-c search_path={schema}"}
    return {**os.environ, **{name: value for name, value in values.items() if value}}


def _run(command: list[str], env: dict[str, str]) -> str:
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise PgbenchUnavailable(f"{' '.join(command)} failed:\n{done.stderr}")
    return done.stdout
