"""A private table (好友房) in real browsers: the host opens it from the
lobby and copies the invite link, a friend in a second browser context follows it and
sits, two more friends join by the code and play over plain table sockets; all four get
ready and the game is dealt at the private table, which the lobby never lists. Each
page is checked for console errors, named controls and readable contrast; screenshots
go to test-artifacts/e2e/."""

from __future__ import annotations

import json
import re
from contextlib import ExitStack

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Page, expect
from websockets.sync.client import connect

from games.live.private_tables import private_table_join
from games.models import GameRecord, PrivateTable, Seat
from games.testing.browser_checks import PageErrors, assert_accessible
from games.testing.room_helpers import make_player, make_room, presets
from ledger.audit import ledger_violations

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

TIMEOUT_MS = 30_000
DESKTOP = {"width": 1280, "height": 900}


def log_in(page: Page, base: str, username: str) -> None:
    page.goto(base + reverse("login"))
    page.get_by_label(re.compile(r"^用户名\s*[:：]?$")).fill(username)
    page.get_by_label(re.compile(r"^密码\s*[:：]?$")).fill("pw")
    page.get_by_role("main").get_by_role("button", name="登录").click()
    page.wait_for_url(lambda url: "/login" not in url)


def table_socket(port: int, user, table_id: int):
    """A table socket of ``user``, signed in as a browser would be."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"].value
    return connect(f"ws://127.0.0.1:{port}/ws/table/{table_id}/",
                   additional_headers={"Cookie": f"sessionid={cookie}"},
                   origin=f"http://127.0.0.1:{port}", open_timeout=10)


def receive_until(socket, kind: str) -> dict:
    while True:
        message = json.loads(socket.recv(timeout=TIMEOUT_MS / 1000))
        if message["type"] == kind:
            return message


def test_four_friends_meet_at_a_private_table_by_link_and_code(artifacts, browser_site):
    presets()
    room = make_room("好友积分场", "qq", turn_seconds=120, first_turn_seconds=120)
    for name in ("房主", "阿美"):
        make_player(name)
    site = browser_site.serve(timeout_ms=TIMEOUT_MS)
    host, friend = site.new_page(DESKTOP), site.new_page(DESKTOP)
    base = site.base
    pages = {"host": host, "friend": friend}
    errors = {name: PageErrors(page) for name, page in pages.items()}

    def check(name: str, where: str, shot: str) -> None:
        pages[name].screenshot(path=artifacts / f"{shot}.png", full_page=True)
        assert errors[name].errors == [], f"{where}: {errors[name].errors}"
        assert_accessible(pages[name], where)

    sockets = []
    closing = ExitStack()
    try:
        log_in(host, base, "房主")
        host.goto(base + reverse("lobby"))
        check("host", "lobby", "01-lobby")
        host.get_by_label("房间").select_option(str(room.pk))
        host.get_by_role("button", name="开好友房").click()
        host.wait_for_url(re.compile(r"/tables/\d+/$"))
        private = PrivateTable.objects.get(host__username="房主")
        expect(host.locator(".invite-code")).to_have_text(private.code)
        invite = host.get_by_role("link", name="邀请链接").get_attribute("href")
        check("host", "the private table", "02-host-table")

        log_in(friend, base, "阿美")
        friend.goto(base + invite)
        expect(friend.locator("h1")).to_have_text("好友房邀请")
        check("friend", "the invite page", "03-invite")
        assert not Seat.objects.filter(user__username="阿美").exists()  # a GET seats nobody
        friend.get_by_role("button", name="入座").click()
        friend.wait_for_url(base + reverse("table", args=[private.table_id]))
        expect(friend.locator(".invite-code")).to_have_text(private.code)

        # Two more friends, by the code, on plain table sockets.
        for name in ("小林", "老陈"):
            player = make_player(name)
            private_table_join(user=player, code=private.code)
            sockets.append(closing.enter_context(table_socket(site.port, player,
                                                              private.table_id)))
        for socket in sockets:
            receive_until(socket, "snapshot")
            socket.send(json.dumps({"type": "ready"}))
        for page in (host, friend):
            expect(page.locator("#ready-button")).to_be_visible()
            page.locator("#ready-button").click()
        for socket in sockets:
            receive_until(socket, "events")
        record = GameRecord.objects.get(table_id=private.table_id)
        assert record.series_id is not None
        assert sorted(record.players) == sorted(
            Seat.objects.filter(table_id=private.table_id).values_list("user_id", flat=True))
        for name, page in pages.items():
            expect(page.locator("#table-page")).to_have_attribute("data-status", "playing")
            expect(page.locator("#hand .card").first).to_be_visible()
            check(name, "the game at the private table", f"04-{name}-playing")

        # The lobby of someone else lists no private table.
        friend.goto(base + reverse("lobby"))
        expect(friend.locator(f"#lobby-table-{private.table_id}")).to_have_count(0)
    except Exception:
        for name, page in pages.items():
            page.screenshot(path=artifacts / f"failure-{name}.png", full_page=True)
        raise
    finally:
        closing.close()
    assert ledger_violations() == []
