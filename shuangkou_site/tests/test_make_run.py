"""The newcomer's first hour, on `make run`'s own settings: the site started as `make
run` starts it (scripts/serve_dev.py: the development settings, their database, the
demo logins, uvicorn), a fresh data directory of its own and a free port. In Chromium
the newcomer logs in as demo/demo, lands on the home page, goes to the lobby, plays a
game against bots to its result, opens its replay and the history; meanwhile the admin
adds a user. Then the rough edges: a second `make run` beside the first, and a `make
run` killed with -9. Nothing here touches the test database: every check reads what
the site serves.

Only the timings are shortened (bots think and the in-process sweeper sweeps every
0.1 s, bots fill the table at once), so the game takes seconds rather than minutes, and
the deal comes from this test's seed (the root conftest.py).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from common.testing.server_helpers import ROOT, stop_server, wait_until_serving
from games.testing.browser_checks import PageErrors, SocketLog, wait_until
from shuangkou_site.dev_database import EmbeddedPostgres

pytestmark = pytest.mark.slow

TIMEOUT_MS = 30_000
# A fresh database is created and migrated before the site serves: on a busy machine
# that takes a while.
START_SECONDS = 240
HAND_TURNS = 2  # my turns played by hand (Hint + Play, or Pass) before 托管
SERVING = re.compile(r"Serving (http://[\d.]+:\d+)")
SERVE_DEV = ROOT / "scripts" / "serve_dev.py"


@dataclass
class MakeRun:
    base: str  # the site's URL
    process: subprocess.Popen


def _make_run_env(data_dir: Path) -> dict[str, str]:
    return {
        **os.environ,
        "DEV_DATA_DIR": str(data_dir),
        "GAMES_BOT_THINK_SECONDS": "0.1",
        "GAMES_BOT_FILL_SECONDS": "0",
        "GAMES_SWEEP_SECONDS": "0.1",
        "GAMES_DEAL_SEED": settings.GAMES_DEAL_SEED,
    }


@contextmanager
def make_run(data_dir: Path, log: Path) -> Iterator[MakeRun]:
    """The site as `make run` serves it, on a free port, once it serves."""
    with log.open("w") as output:
        server = subprocess.Popen([sys.executable, str(SERVE_DEV), "--port", "0"], cwd=ROOT,
                                  env=_make_run_env(data_dir), stdout=output,
                                  stderr=subprocess.STDOUT)
    try:
        base = _serving_at(server, log)
        wait_until_serving(int(base.rsplit(":", 1)[1]), server)
        yield MakeRun(base, server)
    finally:
        stop_server(server)
        # It stops its database server itself; should it have died before, this does.
        EmbeddedPostgres(data_dir).stop()


def _serving_at(server: subprocess.Popen, log: Path) -> str:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        found = SERVING.search(log.read_text())
        if found:
            return found[1]
        assert server.poll() is None, f"make run exited:\n{log.read_text()[-4000:]}"
        time.sleep(0.2)
    raise AssertionError(f"make run did not serve:\n{log.read_text()[-4000:]}")


def test_a_newcomer_logs_in_as_demo_plays_bots_and_finds_the_replay(tmp_path, artifacts,
                                                                     browser_site):
    log = artifacts / "make-run.log"
    with make_run(tmp_path / "data", log) as served:
        base = served.base
        site = browser_site.attach(base, timeout_ms=TIMEOUT_MS)
        page = site.new_page()
        errors, socket = PageErrors(page), SocketLog(page)
        try:
            log_in(page, base, "demo", "demo")
            check_home(page, base, offers_play_now=True)
            enter_the_qq_points_room(page)
            play_to_the_result(page, socket, admin=site.new_page(), base=base)
            game = check_history_and_replay(page)
            check_home(page, base, offers_play_now=False)
        except Exception:
            page.screenshot(path=artifacts / "failure.png", full_page=True)
            (artifacts / "failure.html").write_text(page.content(), encoding="utf-8")
            raise
        assert errors.errors == []
    assert game > 0
    assert "Traceback" not in log.read_text(), log.read_text()[-4000:]


def test_a_second_make_run_says_so_and_one_killed_with_kill_9_comes_back(tmp_path):
    """Two `make run`s on one data directory: the second names the first and stops.
    Killed with -9, the site and its database server both, `make run` comes back on
    the data it had."""
    data_dir = tmp_path / "data"
    with make_run(data_dir, tmp_path / "first.log") as first:
        second = subprocess.run([sys.executable, str(SERVE_DEV), "--port", "0"], cwd=ROOT,
                                env=_make_run_env(data_dir), capture_output=True, text=True,
                                timeout=120)
        assert second.returncode == 1
        assert f"already running on {data_dir.resolve()}" in second.stderr
        assert first.base in second.stderr
        postmaster = int((data_dir / "postgres" / "postmaster.pid").read_text().split()[0])
        os.kill(postmaster, signal.SIGKILL)
        first.process.kill()
        first.process.wait(timeout=30)

    with make_run(data_dir, tmp_path / "again.log") as again:
        with urllib.request.urlopen(f"{again.base}/healthz", timeout=30) as health:
            assert json.load(health)["database"] == "ok"
        # It sweeps from the start, not from the first table socket: nobody opens one
        # here, and the sweeps (a game left in play times out) still run.
        swept = _health_when(again.base, lambda found: found["last_sweep_seconds"] is not None)
        assert swept["failing"] == []
    again_log = (tmp_path / "again.log").read_text()
    assert "player demo: already there" in again_log, again_log[-4000:]
    assert "Traceback" not in again_log, again_log[-4000:]


def _health_when(base: str, condition, seconds: float = 30) -> dict:
    """/healthz's answer once ``condition`` holds of it (within ``seconds``)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=10) as response:
                found = json.load(response)
        except urllib.error.HTTPError as error:  # 503 says why in the same shape
            found = json.load(error)
        if condition(found):
            return found
        assert time.monotonic() < deadline, f"/healthz never did: {found}"
        time.sleep(0.2)


def log_in(page: Page, base: str, username: str, password: str) -> None:
    """Sign in on the login page; it lands on the home page, which must answer."""
    page.goto(f"{base}/accounts/login/")
    page.get_by_label(re.compile(r"^用户名\s*[:：]?$")).fill(username)
    page.get_by_label(re.compile(r"^密码\s*[:：]?$")).fill(password)
    with page.expect_response(f"{base}/") as landing:
        page.get_by_role("main").get_by_role("button", name="登录").click()
    assert landing.value.status == 200, f"the home page after login: {landing.value.status}"


def check_home(page: Page, base: str, *, offers_play_now: bool) -> None:
    response = page.goto(f"{base}/")
    assert response is not None and response.status == 200, f"/ answered {response.status}"
    expect(page.locator("h1")).to_have_text("火拼双扣")
    expect(page.locator("#play-now-title")).to_have_count(1 if offers_play_now else 0)


def enter_the_qq_points_room(page: Page) -> None:
    page.get_by_role("navigation").get_by_role("link", name="大厅").click()
    expect(page.locator("h1")).to_have_text("大厅")
    row = page.locator("[id^=room-]").filter(
        has=page.locator(".room-name", has_text=re.compile(r"^QQ 积分场$")))
    expect(row).to_have_count(1)
    row.get_by_role("button", name="快速加入").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    table = page.locator("#table-page")
    expect(table).to_have_attribute("data-connection", "open")
    page.locator("#ready-button").click()
    expect(table).to_have_attribute("data-status", "playing")


def play_to_the_result(page: Page, socket: SocketLog, *, admin: Page, base: str) -> None:
    """My first turns by Hint + Play (or Pass), the admin adds a user while the game
    runs, then 托管 plays my seat to the end: the result and its settlement show."""
    seat = int(page.locator("#table-page").get_attribute("data-my-seat"))
    for turn in range(HAND_TURNS):
        play_a_turn_by_hint(page, socket)
        if turn == 0:
            add_a_user_in_the_admin(admin, base)
    page.locator("#trustee-toggle").click()
    wait_until(page, lambda: any(event["type"] == "trustee" and event["seat"] == seat
                                 and event["on"] for event in socket.events()), "托管 on")
    expect(page.locator("#result-panel")).to_be_visible(timeout=120_000)
    expect(page.locator("#result-rows tr")).to_have_count(4)
    wait_until(page, lambda: any(event["type"] == "settled" for event in socket.events()),
               "the settlement", timeout=60)


def play_a_turn_by_hint(page: Page, socket: SocketLog) -> None:
    """On my turn: Hint, then Play what it selected, or Pass when nothing beats."""
    page.wait_for_function(
        "() => document.getElementById('table-page').dataset.myTurn === 'true'")
    seq = int(page.locator("#table-page").get_attribute("data-seq"))
    hints = len(socket.of_type("hints"))
    page.locator("#hint-button").click()
    wait_until(page, lambda: len(socket.of_type("hints")) > hints, "the hints")
    move = "#play-button" if socket.of_type("hints")[-1]["plays"] else "#pass-button"
    page.locator(move).click()
    page.wait_for_function(
        "(seq) => Number(document.getElementById('table-page').dataset.seq) > seq", arg=seq)


def add_a_user_in_the_admin(admin: Page, base: str) -> None:
    """The admin's "add user" while a game runs (on SQLite it answered 500, "database
    is locked", with the sweeper writing)."""
    log_in(admin, base, "admin", "admin")
    admin.goto(f"{base}/admin/accounts/user/add/")
    admin.locator("#id_username").fill("newcomer_friend")
    admin.locator("#id_password1").fill("Shuang-Kou-2468!")
    admin.locator("#id_password2").fill("Shuang-Kou-2468!")
    with admin.expect_response(lambda response: response.request.method == "POST") as saved:
        admin.locator("input[name=_save]").click()
    assert saved.value.status == 302, f"adding a user answered {saved.value.status}"
    admin.wait_for_url(re.compile(r"/admin/accounts/user/\d+/change/"))
    expect(admin.locator(".messagelist .success")).to_contain_text("newcomer_friend")


def check_history_and_replay(page: Page) -> int:
    """The game is in my history; its replay opens at the deal. Its id."""
    page.get_by_role("navigation").get_by_role("link", name="牌局记录").click()
    expect(page.locator("h1")).to_have_text("我的牌局记录")
    rows = page.locator("tr[data-game]")
    expect(rows).to_have_count(1)
    game = int(rows.first.get_attribute("data-game"))
    rows.first.get_by_role("link", name=f"回放 {game}").click()
    expect(page).to_have_url(re.compile(rf"/games/{game}/replay/"))
    expect(page.locator("#replay-counter")).to_have_text(re.compile(r"^第 1 / \d+ 步$"))
    expect(page.locator("#replay-board .replay-hand .card")).to_have_count(108)
    return game
