"""The way in, in a real browser (Playwright and Debian's Chromium, as in
test_browser_e2e.py): a person signs up, lands on the play-now page, reads the rules,
presses play and arrives at a table; in the lobby another table is listed with who sits
there (and a player sitting down shows live), and its watch link opens it as a
spectator. Each page is checked for console errors, named controls and readable
contrast; screenshots go to test-artifacts/e2e/."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.live.seating import room_quick_join
from games.models import Room, Seat
from games.rule_set_names import rule_set_name
from games.testing.browser_checks import step_checker
from games.testing.room_helpers import make_player, make_room, presets, start_game_with_bots

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

TIMEOUT_MS = 30_000
PASSWORD = "Shuang-Kou-2468!"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def test_a_new_player_goes_from_sign_up_to_a_table_and_watches_another(artifacts, browser_site):
    presets()
    beginner = make_room("新手积分场", "qq", kind=Room.Kind.POINTS, turn_seconds=120,
                         first_turn_seconds=120)
    # Someone already playing, in another room: the table the newcomer watches.
    watched = start_game_with_bots(make_player("老王"), make_room("金游积分场", "jinyou",
                                                                 turn_seconds=120,
                                                                 first_turn_seconds=120))
    site = browser_site.serve(timeout_ms=TIMEOUT_MS)
    page = site.new_page(DESKTOP)
    base = site.base
    check = step_checker(page, artifacts)

    try:
        page.goto(base + reverse("signup"))
        for label, text in (("用户名", "newcomer"), ("昵称", "新来的"), ("密码", PASSWORD),
                            ("确认密码", PASSWORD)):
            page.get_by_label(re.compile(rf"^{label}\s*[:：]?$")).fill(text)
        page.get_by_role("main").get_by_role("button", name="注册").click()

        expect(page).to_have_url(base + reverse("play-now"))
        expect(page.locator("h1")).to_have_text("欢迎，新来的")
        check("play now", "01-play-now")
        rules = page.get_by_role("link", name=re.compile("先看看规则"))
        expect(rules).to_have_attribute("href", reverse("rules", args=["qq"]))
        rules.click()
        expect(page.locator("h1")).to_have_text(rule_set_name("qq"))
        check("rules", "02-rules")
        page.go_back()

        page.get_by_role("button", name="马上开局").click()
        page.wait_for_url(re.compile(r"/tables/\d+/$"))
        seat = Seat.objects.select_related("table").get(user__username="newcomer")
        assert seat.table.room_id == beginner.pk
        assert page.url == base + reverse("table", args=[seat.table_id])
        expect(page.locator("#table-page")).to_have_attribute("data-my-seat",
                                                              str(seat.index))

        page.goto(base + reverse("lobby"))
        other = page.locator(f"#lobby-table-{watched.table_id}")
        expect(other).to_have_attribute("data-status", "playing")
        expect(other.locator(".player")).to_have_count(4)
        expect(other.locator(".player.bot")).to_have_count(3)
        expect(other).to_contain_text("老王")
        mine = page.locator(f"#lobby-table-{seat.table_id}")
        expect(mine).to_contain_text("新来的")
        check("lobby", "03-lobby")
        # The list is live: someone sitting down now shows without a reload.
        room_quick_join(user=make_player("小李"), room_id=beginner.pk)
        expect(mine.locator(".player")).to_have_count(2)
        expect(mine).to_contain_text("小李")
        page.set_viewport_size(PHONE)
        check("lobby, phone width", "03-lobby-phone")
        page.set_viewport_size(DESKTOP)

        other.get_by_role("link", name=re.compile("旁观")).click()
        page.wait_for_url(base + reverse("table", args=[watched.table_id]))
        table_page = page.locator("#table-page")
        expect(table_page).to_have_attribute("data-connection", "open")
        expect(table_page).to_have_attribute("data-my-seat", "")
        expect(table_page).to_have_attribute("data-status", "playing")
        check("watching", "04-watching")
    except Exception:
        page.screenshot(path=artifacts / "failure.png", full_page=True)
        (artifacts / "failure.html").write_text(page.content(), encoding="utf-8")
        raise
    # Watching took no seat: the newcomer still sits at their own table only.
    assert Seat.objects.get(user__username="newcomer").table_id == seat.table_id
