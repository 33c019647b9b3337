"""Production's operational settings: optional error reporting, the beat schedule."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
PROBE = ("import django, sentry_sdk; django.setup(); from django.conf import settings; "
         "print(settings.ERROR_REPORTING, sentry_sdk.get_client().is_active())")


def production_process(**extra: str) -> str:
    """What PROBE prints in a process on the production settings."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("SENTRY_")}
    env.update({
        "DJANGO_SETTINGS_MODULE": "shuangkou_site.settings.prod",
        "DJANGO_SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "example.com",
        "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none",
        "REDIS_URL": "redis://127.0.0.1:1/0", **extra,
    })
    env.pop("GAMES_DEAL_SEED", None)
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60, check=True)
    return done.stdout.strip()


def test_sentry_is_not_started_without_a_dsn():
    assert production_process() == "False False"


def test_sentry_is_started_when_a_dsn_is_set():
    # A DSN nobody answers at: init sends nothing until there is an error to report.
    assert production_process(SENTRY_DSN="https://key@sentry.invalid/1") == "True True"


@pytest.mark.parametrize("name", sorted(settings.CELERY_BEAT_SCHEDULE))
def test_every_beat_sweep_expires_within_its_interval(name):
    entry = settings.CELERY_BEAT_SCHEDULE[name]
    expires = entry["options"]["expires"]
    assert 0 < expires <= entry["schedule"]


def pins(path: Path) -> dict[str, str]:
    """name → version of each ``name==version`` line (extras dropped, names normalised)."""
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if "==" in line:
            name, version = line.split("==")
            name = name.split("[")[0].strip().lower().replace("_", "-")
            found[name] = version.strip()
    return found


def test_the_lock_file_pins_every_requirement_at_its_own_version_and_asgiref():
    locked = pins(ROOT / "requirements.lock")
    wanted = {**pins(ROOT / "requirements.txt"), **pins(ROOT / "requirements-dev.txt")}

    assert {name: version for name, version in wanted.items()
            if locked.get(name) != version} == {}
    assert "asgiref" in wanted
    # Transitive ones too (Django's sqlparse, Celery's kombu, uvicorn's h11).
    assert {"sqlparse", "kombu", "h11"} <= set(locked)
    assert "-c requirements.lock" in (ROOT / "Makefile").read_text(encoding="utf-8")
