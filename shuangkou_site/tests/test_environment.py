"""Settings read from the environment (shuangkou_site.environment): a bad value stops
the process, and what it prints names the variable, whatever kind of value it is."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from common.testing.server_helpers import ROOT

# Django set up as every process of the site starts (manage.py, uvicorn, Celery).
START = "import django; django.setup(); print('started')"


def start_with(settings_module: str, **variables: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": settings_module, **variables}
    return subprocess.run([sys.executable, "-c", START], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("name", "value"), [
    ("GAMES_SOCKETS_PER_USER", "eight"),       # a whole number
    ("GAMES_BOT_THINK_SECONDS", "1s"),         # a number
    ("GAMES_INPROCESS_SWEEPER", "maybe"),      # a flag: was quietly taken as off
    ("LEDGER_RELIEF_AMOUNT", ""),              # set, but empty
])
def test_a_bad_value_stops_the_process_with_the_variables_name(name, value):
    started = start_with("shuangkou_site.settings.test", **{name: value})
    assert started.returncode != 0 and "started" not in started.stdout
    last_line = started.stderr.strip().splitlines()[-1]
    assert f'"{name}"' in last_line and "invalid" in last_line, started.stderr


def test_production_stops_on_a_bad_value_too():
    started = start_with("shuangkou_site.settings.prod", DJANGO_SECRET_KEY="x" * 50,
                         ALLOWED_HOSTS="example.org", DATABASE_URL="postgres://u@db/site",
                         REDIS_URL="redis://redis:6379/0", SECURE_HSTS_SECONDS="a year")
    assert started.returncode != 0 and "started" not in started.stdout
    assert '"SECURE_HSTS_SECONDS"' in started.stderr.strip().splitlines()[-1]


def test_good_values_start_it():
    """The same start succeeds with values of the right kind (so the failures above are
    the values' doing)."""
    started = start_with("shuangkou_site.settings.test", GAMES_SOCKETS_PER_USER="8",
                         GAMES_BOT_THINK_SECONDS="0.5", GAMES_INPROCESS_SWEEPER="on")
    assert started.returncode == 0, started.stderr
    assert started.stdout.strip() == "started"
