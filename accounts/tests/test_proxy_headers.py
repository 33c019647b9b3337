"""The site as served (uvicorn, started as docs/operations.md says): a client's
X-Forwarded-For is read by Django's client_ip alone, never by uvicorn (from
127.0.0.1 uvicorn trusted it by default, whatever TRUSTED_PROXY_COUNT said, and a forged
address escaped the per-address login limit)."""

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.core.cache import cache

from accounts.login_limits import _digest
from common.testing.server_helpers import served

FORGED = "203.0.113.99"


def failed_login_count(address: str) -> int:
    return cache.get(f"login-fail:ip:{_digest(address)}:n", 0)


@pytest.mark.django_db(transaction=True)
def test_a_forged_forwarded_address_from_localhost_counts_against_localhost(settings):
    assert settings.ACCOUNTS_TRUSTED_PROXY_COUNT == 0  # the default: no proxy trusted
    with served(1) as (port,):
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/token", method="POST",
            data=json.dumps({"username": "nobody", "password": "wrong"}).encode(),
            headers={"Content-Type": "application/json", "X-Forwarded-For": FORGED})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=30)

    assert refused.value.code in (400, 401)
    # The server shares this test's cache prefix (server_helpers passes it on).
    assert failed_login_count("127.0.0.1") == 1
    assert failed_login_count(FORGED) == 0


def test_every_documented_uvicorn_command_turns_the_proxy_headers_off():
    root = Path(__file__).resolve().parents[2]
    commands = []
    for name in ("Makefile", "README.md", "docs/operations.md", "docs/performance.md",
                 "common/testing/server_helpers.py", "deploy/shuangkou-web@.service"):
        text = (root / name).read_text(encoding="utf-8")
        # A command may continue on the next line (a Makefile's backslash, a list).
        lines = text.replace("\\\n", " ").splitlines()
        for number, line in enumerate(lines):
            if "shuangkou_site.asgi:application" in line and (
                    "uvicorn " in line or "bin/uvicorn" in line):
                commands.append((name, line))
            elif '"uvicorn", app' in line:
                commands.append((name, line + lines[number + 1]))
    assert len(commands) >= 6
    assert [command for command in commands if "--no-proxy-headers" not in command[1]] == []
    # `make run` (scripts/serve_dev.py) configures uvicorn in Python.
    serve_dev = (root / "scripts" / "serve_dev.py").read_text(encoding="utf-8")
    assert "uvicorn.Config(APP, " in serve_dev and "proxy_headers=False)" in serve_dev
