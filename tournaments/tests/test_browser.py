"""A tournament in a real browser (Playwright, Debian's Chromium, a uvicorn server on
the test database): a person registers on the tournament's page, is taken to their
table when it starts, plays a board (a turn by Hint and Play, then 托管), watches the
standings move live on the tournament's page in a second tab, and opens the board's
comparison across the tables: the others who held the same hand. Screenshots go to
test-artifacts/e2e/<test name>/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Seat
from games.testing.browser_checks import PageErrors, assert_accessible
from tournaments import flow
from tournaments.models import Board, Entry, Tournament
from tournaments.testing import make_due, make_people, make_template, open_scheduled

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

TIMEOUT_MS = 30_000


def test_register_play_a_board_see_the_standings_move_and_compare_the_board(
        artifacts, browser_site):
    tournament = open_scheduled(make_template(name="浏览器杯", size=8, rounds=1,
                                              boards_per_round=2, turn_seconds=120))
    person, = make_people(1, prefix="browser")
    browser_site.serve(timeout_ms=TIMEOUT_MS)
    page = browser_site.new_page(viewport={"width": 1280, "height": 900})
    base = browser_site.base
    errors = PageErrors(page)
    shots = iter(range(1, 100))

    def shot(name: str) -> None:
        page.screenshot(path=artifacts / f"{next(shots):02d}-{name}.png", full_page=True)

    try:
        page.goto(f"{base}/accounts/login/")
        page.get_by_label(re.compile(r"^用户名")).fill(person.username)
        page.get_by_label(re.compile(r"^密码")).fill("pw")
        page.get_by_role("main").get_by_role("button", name="登录").click()
        expect(page.get_by_role("navigation").get_by_role("link", name=person.nickname)) \
            .to_be_visible()

        # the list, then the tournament: register
        page.get_by_role("navigation").get_by_role("link", name="比赛场").click()
        page.get_by_role("link", name="浏览器杯").click()
        root = page.locator("#tournament")
        expect(root).to_have_attribute("data-live", "1")
        expect(page.locator("[data-field=count]")).to_have_text("0")
        page.get_by_role("button", name="报名").click()
        expect(page.locator("[data-registered-note]")).to_be_visible()
        expect(page.locator("[data-field=count]")).to_have_text("1")
        assert Entry.objects.filter(tournament=tournament, user=person).exists()
        assert_accessible(page, "tournament, registered")
        shot("registered")

        # the start (the beat's sweep, here by hand): the page takes me to my table
        make_due(tournament)
        assert flow.sweep() == 1
        page.wait_for_url(re.compile(r"/tables/\d+/$"))
        table_id = int(re.search(r"/tables/(\d+)/$", page.url)[1])
        assert Seat.objects.get(user=person).table_id == table_id
        table_page = page.locator("#table-page")
        expect(table_page).to_have_attribute("data-status", "playing")
        shot("table")

        # the standings in a second tab, live
        standings = page.context.new_page()
        standings.goto(f"{base}/tournaments/{tournament.pk}/")
        expect(standings.locator("#tournament")).to_have_attribute("data-live", "1")
        mine = standings.locator(f"[data-standings] tr[data-user='{person.pk}'] [data-boards]")
        expect(mine).to_have_text("0")

        # play a turn by hand, then 托管 finishes the board
        page.bring_to_front()
        page.wait_for_function(
            "() => document.getElementById('table-page').dataset.myTurn === 'true'")
        page.locator("#hint-button").click()
        # The hint's cards are selected when its answer comes: leading, only then may I
        # play (I may not pass); following, passing is allowed at once.
        page.wait_for_function(
            "() => !document.getElementById('play-button').disabled"
            " || !document.getElementById('pass-button').disabled")
        if page.locator("#play-button").is_enabled():
            page.locator("#play-button").click()
        else:
            page.locator("#pass-button").click()
        page.locator("#trustee-toggle").click()
        # board 1 is over at my table: my row in the other tab moved without a reload
        expect(mine).to_have_text("1")
        standings.bring_to_front()
        shot_page = standings
        shot_page.screenshot(path=artifacts / "standings-moved.png", full_page=True)
        assert_accessible(standings, "tournament, standings")

        # every table has finished board 1: its comparison
        assert Board.objects.filter(tournament=tournament, round=1, board=1,
                                    settled_at__isnull=False).count() == 2
        standings.reload()
        standings.locator("[data-board='1-1'] [data-compare]").click()
        same = standings.locator("[data-same-hand]")
        expect(same).to_be_visible()
        expect(same.locator("li[data-other]")).to_have_count(1)
        expect(standings.locator("table.board-comparison tbody tr")).to_have_count(2)
        assert_accessible(standings, "board comparison")
        standings.screenshot(path=artifacts / "board-compared.png", full_page=True)
    except Exception:
        shot("failure")
        (artifacts / "failure.html").write_text(page.content(), encoding="utf-8")
        raise
    assert errors.errors == []
    assert Tournament.objects.get(pk=tournament.pk).status in ("running", "finished")
