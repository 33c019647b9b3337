"""The load scripts that set Django up in their own process do it on settings that
start nothing: not the development settings, whose embedded PostgreSQL (`make run`'s)
would start in the checkout and stay running after the script."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[3] / "scripts"


def settings_after_import(script: str, data_dir: Path) -> str:
    """Import ``script`` in a fresh interpreter whose environment names no settings;
    the settings module it set Django up with. A development server it might start
    would go to ``data_dir``, not the checkout."""
    env = {name: value for name, value in os.environ.items()
           if name != "DJANGO_SETTINGS_MODULE"}
    env["DEV_DATA_DIR"] = str(data_dir)
    code = (f"import sys; sys.path.insert(0, {str(SCRIPTS)!r}); import {script}; "
            "from django.conf import settings; print(settings.SETTINGS_MODULE)")
    done = subprocess.run([sys.executable, "-c", code], cwd=SCRIPTS.parent, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


def test_the_restart_script_sets_django_up_on_the_test_settings(tmp_path):
    data_dir = tmp_path / "dev-data"
    assert settings_after_import("loadtest_restart", data_dir) \
        == "shuangkou_site.settings.test"
    assert not data_dir.exists()  # no embedded PostgreSQL was started


def test_the_load_scripts_give_their_children_the_test_settings(tmp_path):
    """loadtest_stack runs the load client (scripts/loadtest.py) as a child with its
    own environment: the development settings there started the embedded PostgreSQL."""
    data_dir = tmp_path / "dev-data"
    for script in ("loadtest_stack", "chaos"):
        assert settings_after_import(script, data_dir) == "shuangkou_site.settings.test"
    assert not data_dir.exists()
