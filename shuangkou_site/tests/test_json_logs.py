"""Production logs one JSON object a line, the timing lines' values as fields; the test
settings (and dev's, which share base's LOGGING) keep readable lines."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# What a Celery process does first (its logging set up), then a timing line, a line
# with arguments and a failure with its traceback.
LOGGING_PROCESS = """
import asyncio, django, logging
django.setup()
from shuangkou_site.celery import app
app.log.setup(loglevel="INFO")
from games.live import timing
async def commit(**kwargs):
    return [{"seq": 12}]
asyncio.run(timing.timed_action(commit)(game_id=7, action="play"))
logging.getLogger("shuangkou.check").warning("%s players", 4)
try:
    1 / 0
except ZeroDivisionError:
    logging.getLogger("shuangkou.check").exception("it failed")
"""


def log_lines(settings_module: str) -> list[str]:
    """The lines LOGGING_PROCESS logs (to standard error) under ``settings_module``."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": settings_module,
           "DJANGO_SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "example.com",
           "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none",
           "REDIS_URL": "redis://127.0.0.1:1/0", "LOG_LEVEL": "INFO"}
    env.pop("GAMES_DEAL_SEED", None)
    env.pop("METRICS_TOKEN", None)
    done = subprocess.run([sys.executable, "-c", LOGGING_PROCESS], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60, check=True)
    return done.stderr.splitlines()


def test_production_writes_every_line_as_one_json_object_with_its_fields():
    lines = log_lines("shuangkou_site.settings.prod")

    records = [json.loads(line) for line in lines]  # each line parses on its own

    assert [record["logger"] for record in records] == [
        "games.timing", "shuangkou.check", "shuangkou.check"]
    timing, warning, failure = records
    assert timing["level"] == "INFO"
    assert timing["message"].startswith("action-commit game=7 action=play events=1 seq=12")
    assert (timing["what"], timing["game"], timing["action"], timing["seq"]) == \
        ("action-commit", 7, "play", 12)
    assert isinstance(timing["ms"], float)
    assert datetime.fromisoformat(timing["time"]).tzinfo is not None
    assert (warning["level"], warning["message"]) == ("WARNING", "4 players")
    assert failure["level"] == "ERROR"
    assert "ZeroDivisionError" in failure["exc_info"]


def test_the_test_settings_keep_readable_lines():
    lines = log_lines("shuangkou_site.settings.test")

    assert re.fullmatch(r"action-commit game=7 action=play events=1 seq=12 ms=[\d.]+",
                        lines[0])
    assert lines[1] == "4 players"
