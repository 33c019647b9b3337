"""The analysis on the replay page in a real browser (Playwright and Debian's Chromium,
as games/web/tests/test_browser_*.py): a player presses 分析, the panel fills in by
htmx with the summary and the marked moves, a marked move's link steps the replay there
and the step list shows its mark and the suggestion. Checked for console errors, named
controls and readable contrast; screenshots go to test-artifacts/e2e/."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from analysis.models import GameAnalysis
from analysis.tests.helpers import game_with_a_bot, people
from games.testing.browser_checks import step_checker
from games.testing.room_helpers import make_room, presets

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

TIMEOUT_MS = 60_000
DESKTOP = {"width": 1280, "height": 900}


def test_a_player_asks_for_the_analysis_and_steps_to_a_marked_move(artifacts, browser_site):
    presets()
    players = people()
    record = game_with_a_bot(make_room("qq 积分"), players)
    site = browser_site.serve(timeout_ms=TIMEOUT_MS)
    page = site.new_page(DESKTOP)
    base = site.base
    check = step_checker(page, artifacts)

    page.goto(base + reverse("login"))
    page.get_by_label(re.compile(r"^用户名\s*[:：]?$")).fill(players[0].username)
    page.get_by_label(re.compile(r"^密码\s*[:：]?$")).fill("pw")
    page.get_by_role("main").get_by_role("button", name="登录").click()
    page.wait_for_url(lambda url: "/login" not in url)

    page.goto(base + reverse("game-replay", args=[record.pk]))
    check("replay before the analysis", "01-replay")
    page.get_by_role("button", name="分析", exact=True).click()
    # The server runs tasks eagerly in tests: the panel comes back done, or polls.
    summary = page.locator("#replay-analysis table.analysis-summary")
    expect(summary).to_be_visible()
    analysis = GameAnalysis.objects.get(game=record)
    assert analysis.status == GameAnalysis.Status.DONE
    expect(summary.locator("tbody tr")).to_have_count(len(analysis.summary))
    marked = [move for move in analysis.moves if move["mark"] != "ok"]
    expect(page.locator("#analysis-moves li[data-mark]")).to_have_count(len(marked))
    check("replay with the analysis", "02-analysis")

    move = marked[0]
    page.locator(f'#analysis-moves li[data-step="{move["seq"]}"] a').click()
    expect(page.locator("#replay-counter")).to_contain_text(f"第 {move['seq']} /")
    current = page.locator("#replay-log .replay-log-current")
    expect(current.locator(".analysis-mark")).to_have_text(move["mark"])
    expect(current.locator(".analysis-suggestion")).to_contain_text("建议：")
    check("a marked move in the step list", "03-marked-step")
