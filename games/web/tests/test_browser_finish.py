"""The finish of the screens a player touches, in Chromium at the three sizes (desktop
1280×800, a phone upright 390×844 and sideways 844×390), each checked for overlap and
clipping, with screenshots in test-artifacts/e2e/<test name>/:

- the table in a coin game: my coins as usable plus what this game holds; a bomb's
  banner (said once, "炸弹 4★") beside the turn prompt, not over it; the felt's bottom
  above my hand; the quick-chat menu on screen and off 离开对局; the sound button
  saying whether sound is on; the result table whole, before the
  ready button; the history with every column readable, its rule set by name;
- a private table seen by its host and a friend: the host's 移除 as the friend sits and
  the series score after a game, without a reload; 托管 turned on by hand, then after a
  reload, with the notice that says why and how to take it back; the friend removed, then the table
  closed, each said on the friend's page;
- the visitor's lobby and an invite followed by a visitor, and an expired one.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Page, expect

from common.testing.server_helpers import SITE_APP_WITH_STATIC, served
from games.live.private_tables import private_table_open
from games.live.seating import room_quick_join
from games.models import GameRecord, PrivateTable, Seat
from games.testing.browser_checks import PageErrors, assert_accessible, chromium_browser
from games.testing.layout_checks import (
    DESKTOP,
    SIZES,
    apart,
    box,
    fits_across,
    on_screen,
    shoot,
    unclipped_table,
)
from games.testing.room_helpers import coin_room, make_player, make_room, presets

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

TIMEOUT_MS = 30_000


def new_page(browser, base: str, viewport=DESKTOP) -> tuple[Page, PageErrors]:
    page = browser.new_context(viewport=viewport, locale="zh-CN", base_url=base).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return page, PageErrors(page)


def log_in(page: Page, username: str) -> None:
    page.goto(reverse("login"))
    page.get_by_label(re.compile(r"^用户名")).fill(username)
    page.get_by_label(re.compile(r"^密码")).fill("pw")
    page.get_by_role("main").get_by_role("button", name="登录").click()
    page.wait_for_url(lambda url: "/login" not in url)


def to_the_table(page: Page) -> None:
    """The table's tools at the top of the screen, as the page puts them once dealt."""
    page.evaluate("() => document.querySelector('.table-tools').scrollIntoView()")


def into_view(page: Page, selector: str) -> None:
    """Scroll to an element in one step in the page: a panel the live updates replace
    (the private table's, the result) may be swapped out while Playwright waits for it
    to be stable, and its scroll then fails on a detached element."""
    page.wait_for_selector(selector)
    page.evaluate("(s) => document.querySelector(s).scrollIntoView({block: 'nearest'})", selector)


def bomb_now(page: Page) -> None:
    """The banner of a 4★ bomb by the seat on my right, as a play event brings it (the
    page's own module, render.js's announceBomb)."""
    page.evaluate("""async () => {
      const main = document.querySelector('script[type=module][src*="table/main"]').src;
      const render = await import(main.replace(/main[^/]*\\.js/, 'render.js'));
      render.announceBomb({seat: 1, type: 'play', cards: ['5S0', '5H0', '5C0', '5D0'],
                           reading: {type: 'bomb', stars: 4, size: 4}});
    }""")
    expect(page.locator("#bomb-banner")).to_be_visible()


def check_table_at(page: Page, folder, name: str) -> None:
    to_the_table(page)
    fits_across(page, name)
    bomb_now(page)
    banner = page.locator("#bomb-banner").inner_text()
    assert banner.count("炸弹") == 1 and banner.count("4★") == 1, banner
    for _moment in range(16):  # through its animation, and after
        apart(page, "#bomb-banner", "#turn-info", f"{name}: the bomb banner and the turn prompt")
        page.wait_for_timeout(50)
    felt, dock = box(page, "#felt"), box(page, "#dock")
    assert felt["bottom"] <= dock["y"] + 0.5, f"{name}: the felt's bottom under the dock"
    shoot(page, folder, f"table-{name}")
    # With the 记牌器 open, the tallest the table gets: the felt still ends above the dock.
    page.locator("#counter-toggle").click()
    expect(page.locator("#counter-panel")).to_be_visible()
    felt, dock = box(page, "#felt"), box(page, "#dock")
    where = f"{name}, 记牌器 open"
    assert felt["bottom"] <= dock["y"] + 0.5, f"{where}: the felt's bottom under the dock"
    assert felt["y"] >= -0.5, f"{where}: the felt's top off the screen"
    shoot(page, folder, f"table-counter-{name}")
    page.locator("#counter-toggle").click()
    expect(page.locator("#counter-panel")).to_be_hidden()
    to_the_table(page)
    # Quick chat: the menu on screen, not over 离开对局.
    page.locator("#chat-summary").click()
    expect(page.locator(".chat-menu")).to_be_visible()
    on_screen(page, ".chat-menu", f"{name}: the quick-chat menu")
    if box(page, "#leave-button"):
        apart(page, ".chat-menu", "#leave-button", f"{name}: quick chat and 离开对局")
    shoot(page, folder, f"chat-{name}")
    page.locator("#chat-summary").click()
    expect(page.locator(".chat-menu")).to_be_hidden()


def test_the_table_result_and_history_at_three_sizes(artifacts):
    presets()
    room = coin_room("收尾金币场", bots_allowed=True, turn_seconds=120, first_turn_seconds=120)
    player = make_player("finisher", coins=100_000)
    with served(1, SITE_APP_WITH_STATIC) as (port,), chromium_browser() as browser:
        page, errors = new_page(browser, f"http://127.0.0.1:{port}")
        expect.set_options(timeout=TIMEOUT_MS)
        try:
            log_in(page, player.username)
            table_id = room_quick_join(user=player, room_id=room.pk).table_id
            page.goto(reverse("table", args=[table_id]))
            expect(page.locator("#table-page")).to_have_attribute("data-connection", "open")
            sound = page.locator("#sound-toggle")
            expect(sound).to_have_text("声音：开")
            sound.click()
            expect(sound).to_have_text("声音：关")
            page.locator("#ready-button").click()
            expect(page.locator("#table-page")).to_have_attribute("data-status", "playing")
            expect(page.locator("#hand button[data-card]").first).to_be_visible()
            info = page.locator("#room-info")
            expect(info).to_contain_text("可用游戏币")
            expect(info).to_contain_text("冻结在本局")
            expect(info).not_to_contain_text("其中冻结")
            page.wait_for_function("() => document.getElementById('turn-info').textContent")
            for name, viewport in SIZES:
                page.set_viewport_size(viewport)
                check_table_at(page, artifacts, name)
                assert_accessible(page, f"table, {name}")
            page.set_viewport_size(DESKTOP)

            # 托管 plays the game out (its notice: the private table's test, where a
            # friend's turn holds the game).
            page.locator("#trustee-toggle").click()
            result = page.locator("#result-panel")
            expect(result).to_be_visible()
            expect(page.locator("#result-rows tr")).to_have_count(4)
            record = GameRecord.objects.filter(table_id=table_id).latest("pk")
            assert record.settled_at is not None
            # The result comes before the ready button, on every screen.
            assert page.evaluate("""() => Boolean(document.getElementById('result-panel')
                .compareDocumentPosition(document.getElementById('ready-button'))
                & Node.DOCUMENT_POSITION_FOLLOWING)""")
            for name, viewport in SIZES:
                page.set_viewport_size(viewport)
                into_view(page, "#result-panel")
                fits_across(page, f"result, {name}")
                unclipped_table(page, ".result-table", f"result, {name}")
                shoot(page, artifacts, f"result-{name}")
                shoot(page, artifacts, f"result-{name}-page", full_page=True)
            page.set_viewport_size(DESKTOP)

            page.goto(reverse("game-history"))
            expect(page.locator(f'tr[data-game="{record.pk}"]')).to_contain_text("QQ游戏 火拼双扣")
            for name, viewport in SIZES:
                page.set_viewport_size(viewport)
                fits_across(page, f"history, {name}")
                unclipped_table(page, ".history-games", f"history, {name}")
                shoot(page, artifacts, f"history-{name}", full_page=True)
                assert_accessible(page, f"history, {name}")
        except Exception:
            shoot(page, artifacts, "failure", full_page=True)
            raise
        assert errors.errors == [], errors.errors


# --- a private table, seen by its host and a friend -------------------------------------------

def test_a_private_table_updates_live_for_its_host_and_a_friend(artifacts):
    presets()
    room = make_room("收尾好友场", "qq", bots_allowed=True, turn_seconds=120,
                     first_turn_seconds=120)
    host, amy = make_player("房主"), make_player("阿美")
    private = private_table_open(host=host, room_id=room.pk, spectators=True)
    table_url = reverse("table", args=[private.table_id])
    with served(1, SITE_APP_WITH_STATIC) as (port,), chromium_browser() as browser:
        base = f"http://127.0.0.1:{port}"
        expect.set_options(timeout=TIMEOUT_MS)
        (mine, my_errors), (theirs, their_errors) = new_page(browser, base), new_page(browser, base)
        try:
            log_in(mine, host.username)
            mine.goto(table_url)
            expect(mine.locator("#table-page")).to_have_attribute("data-connection", "open")
            expect(mine.locator(".invite-code")).to_have_text(private.code)

            # The friend sits by the link: the host's 移除 shows without a reload.
            log_in(theirs, amy.username)
            theirs.goto(reverse("invite", args=[private.code]))
            theirs.get_by_role("button", name="入座").click()
            theirs.wait_for_url(base + table_url)
            expect(mine.locator(f'[data-remove="{amy.pk}"]')).to_be_visible()
            shoot(mine, artifacts, "host-friend-sat")

            # Bots in the other seats, both ready, both in 托管: the series score after
            # the game shows on both pages without a reload.
            mine.get_by_role("button", name="机器人补位").click()
            expect(mine.locator("#ready-button")).to_be_visible()
            for page in (mine, theirs):
                expect(page.locator("#ready-button")).to_be_visible()
                page.locator("#ready-button").click()
            for page in (mine, theirs):
                expect(page.locator("#table-page")).to_have_attribute("data-status", "playing")
                expect(page.locator("#trustee-toggle")).to_be_visible()
            # The host turns 托管 on: the game plays on until the friend's turn holds it,
            # and the host's notice says why the seat plays itself and how to take it
            # back; after a reload (coming back to a seat in 托管) too.
            mine.locator("#trustee-toggle").click()
            standing = mine.locator('#notice[data-standing="trustee"]')
            expect(standing).to_contain_text("托管中（手动开启）")
            expect(standing).to_contain_text("取消托管")
            shoot(mine, artifacts, "trustee-by-hand")
            mine.reload()
            expect(mine.locator("#table-page")).to_have_attribute("data-connection", "open")
            for name, viewport in SIZES:
                mine.set_viewport_size(viewport)
                to_the_table(mine)
                expect(standing).to_contain_text("托管中（手动开启）")
                on_screen(mine, "#notice", f"the 托管 notice, {name}")
                shoot(mine, artifacts, f"trustee-after-reload-{name}")
            mine.set_viewport_size(DESKTOP)
            # Taken back, and on again; then the friend's 托管 lets the game end.
            mine.locator("#trustee-toggle").click()
            expect(mine.locator("#notice")).to_contain_text("已取消托管")
            mine.locator("#trustee-toggle").click()
            expect(standing).to_be_visible()
            theirs.locator("#trustee-toggle").click()
            for page in (mine, theirs):
                expect(page.locator(".series-games")).to_have_attribute("data-games", "1")
            expect(mine.locator(f'[data-remove="{amy.pk}"]')).to_be_visible()
            for name, viewport in SIZES:
                for who, page in (("host", mine), ("friend", theirs)):
                    page.set_viewport_size(viewport)
                    into_view(page, "#private-panel")
                    fits_across(page, f"{who}, {name}")
                    shoot(page, artifacts, f"series-{who}-{name}")
            for page in (mine, theirs):
                page.set_viewport_size(DESKTOP)

            # The host removes the friend: the friend is told, and no longer sees the code.
            mine.locator(f'[data-remove="{amy.pk}"]').click()
            expect(theirs.locator("#table-page")).to_have_attribute("data-private-state", "removed")
            expect(theirs.locator("#notice")).to_contain_text("房主把你移出了这张好友房")
            expect(theirs.locator(".invite-code")).to_have_count(0)
            shoot(theirs, artifacts, "friend-removed")
            assert_accessible(theirs, "the friend, removed")

            # The friend sits again, then the host closes the table: the friend is told,
            # and no seat is offered.
            theirs.goto(reverse("invite", args=[private.code]))
            theirs.get_by_role("button", name="入座").click()
            theirs.wait_for_url(base + table_url)
            expect(theirs.locator("#table-page")).to_have_attribute("data-connection", "open")
            mine.reload()
            mine.get_by_role("button", name="关闭好友房").click()
            mine.wait_for_url(base + reverse("lobby"))
            expect(theirs.locator("#table-page")).to_have_attribute("data-private-state", "closed")
            expect(theirs.locator("#notice")).to_contain_text("房主已关闭这张好友房")
            expect(theirs.locator(".private-closed")).to_be_visible()
            expect(theirs.locator("#sit-button")).to_be_hidden()
            expect(theirs.locator(".invite-code")).to_have_count(0)
            for name, viewport in SIZES:
                theirs.set_viewport_size(viewport)
                fits_across(theirs, f"closed, {name}")
                shoot(theirs, artifacts, f"friend-closed-{name}", full_page=True)
                assert_accessible(theirs, f"the friend, the table closed, {name}")
        except Exception:
            shoot(mine, artifacts, "failure-host", full_page=True)
            shoot(theirs, artifacts, "failure-friend", full_page=True)
            raise
        assert my_errors.errors == [] and their_errors.errors == [], (
            my_errors.errors, their_errors.errors)
    assert not Seat.objects.filter(table_id=private.table_id, user__isnull=False).exists()


# --- a visitor ---------------------------------------------------------------------------------

def test_a_visitor_sees_the_lobby_and_invites_with_the_ways_in(artifacts):
    presets()
    room = make_room("参观积分场", "qq", bots_allowed=True)
    bob = make_player("bob")
    room_quick_join(user=bob, room_id=room.pk)
    private = private_table_open(host=make_player("房主"), room_id=room.pk)
    expired = private_table_open(host=make_player("老陈"), room_id=room.pk)
    PrivateTable.objects.filter(pk=expired.pk).update(
        expires_at=timezone.now() - timedelta(hours=1))
    with served(1, SITE_APP_WITH_STATIC) as (port,), chromium_browser() as browser:
        page, errors = new_page(browser, f"http://127.0.0.1:{port}")
        expect.set_options(timeout=TIMEOUT_MS)
        try:
            page.goto(reverse("lobby"))
            expect(page.locator(".visitor-welcome")).to_be_visible()
            expect(page.locator(".lobby-table")).to_contain_text("bob")
            # Live: a player sitting down shows on the visitor's page.
            room_quick_join(user=make_player("carol"), room_id=room.pk)
            expect(page.locator(".lobby-table").first).to_contain_text("carol")
            for name, viewport in SIZES:
                page.set_viewport_size(viewport)
                fits_across(page, f"visitor's lobby, {name}")
                shoot(page, artifacts, f"lobby-{name}", full_page=True)
                assert_accessible(page, f"visitor's lobby, {name}")
            page.set_viewport_size(DESKTOP)
            page.get_by_role("link", name="注册，马上入座").click()
            page.wait_for_url(re.compile(r"/accounts/signup/\?next=%2Flobby%2F$"))

            page.goto(reverse("invite", args=[private.code]))
            expect(page.locator("main")).to_contain_text("你收到了一个好友房邀请")
            expect(page.locator("main")).not_to_contain_text("房主")
            expect(page.get_by_role("button", name="入座")).to_have_count(0)
            login = page.get_by_role("link", name="登录后入座")
            expect(login).to_be_visible()
            shoot(page, artifacts, "invite-visitor")
            # Logged in, the visitor comes back to the invitation, which now says whose.
            visitor = make_player("visitor")
            login.click()
            page.get_by_label(re.compile(r"^用户名")).fill(visitor.username)
            page.get_by_label(re.compile(r"^密码")).fill("pw")
            page.get_by_role("main").get_by_role("button", name="登录").click()
            page.wait_for_url(re.compile(re.escape(reverse("invite", args=[private.code])) + "$"))
            expect(page.locator("main")).to_contain_text("房主 邀请你到 参观积分场 的好友房")
            expect(page.get_by_role("button", name="入座")).to_be_visible()
            # An expired invite says so to a player, with no seat and no name.
            page.goto(reverse("invite", args=[expired.code]))
            expect(page.locator("main")).to_contain_text("这个邀请码已过期")
            expect(page.locator("main")).not_to_contain_text("邀请你")
            expect(page.get_by_role("button", name="入座")).to_have_count(0)
            for name, viewport in SIZES:
                page.set_viewport_size(viewport)
                shoot(page, artifacts, f"invite-expired-{name}", full_page=True)
            page.set_viewport_size(DESKTOP)
            page.context.clear_cookies()
            page.goto(reverse("invite", args=[private.code]))
            for name, viewport in SIZES:
                page.set_viewport_size(viewport)
                fits_across(page, f"invite, {name}")
                shoot(page, artifacts, f"invite-visitor-{name}", full_page=True)
                assert_accessible(page, f"invite to a visitor, {name}")
        except Exception:
            shoot(page, artifacts, "failure", full_page=True)
            raise
        # The expired invite's page is a 404: its one console error is that status.
        assert [error for error in errors.errors if "404" not in error] == [], errors.errors
