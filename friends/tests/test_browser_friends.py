"""Friends in real browsers: two players (two browser contexts) become friends (a
request, its acceptance from the notice every page shows), see each other online, the
host opens a private table and invites the friend from the friend list, the friend
sits with one click on the invitation that appears on the page they are on; they play
a game with two bots (both in 托管), then a rematch re-seats the same four at a new
table and the series goes on. Last, the host checks in and claims a daily task, and
both rewards show on the coins statement. Screenshots go to test-artifacts/e2e/."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from daily.models import GameDone
from daily.tests.helpers import a_game
from friends.models import Friendship
from games.models import GameRecord, PrivateTable, Seat
from games.testing.browser_checks import PageErrors, assert_accessible
from games.testing.room_helpers import make_player, make_room, presets
from ledger.audit import ledger_violations
from ledger.relief import relief_day

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

TIMEOUT_MS = 45_000
DESKTOP = {"width": 1280, "height": 900}


def log_in(page: Page, base: str, username: str) -> None:
    page.goto(base + reverse("login"))
    page.get_by_label(re.compile(r"^用户名\s*[:：]?$")).fill(username)
    page.get_by_label(re.compile(r"^密码\s*[:：]?$")).fill("pw")
    page.get_by_role("main").get_by_role("button", name="登录").click()
    page.wait_for_url(lambda url: "/login" not in url)


def play_to_the_end(pages: list[Page], table_id: int) -> GameRecord:
    """Both ready (the bots are), then both in 托管: the bots play the game out."""
    for page in pages:
        expect(page.locator("#ready-button")).to_be_visible()
        page.locator("#ready-button").click()
    for page in pages:
        expect(page.locator("#table-page")).to_have_attribute("data-status", "playing")
        page.locator("#trustee-toggle").click()
    for page in pages:
        expect(page.locator("#result-panel")).to_be_visible()
    record = GameRecord.objects.filter(table_id=table_id).latest("pk")
    assert record.status == GameRecord.Status.ENDED and record.settled_at is not None
    return record


def test_two_friends_request_accept_invite_play_rematch_and_check_in(artifacts,
                                                                     browser_site):
    presets()
    room = make_room("好友积分场", "qq", turn_seconds=120, first_turn_seconds=120)
    host_user, friend_user = make_player("房主"), make_player("阿美")
    # Two games already counted today for the host: the browser's game is the third.
    others = [make_player(f"x{n}") for n in range(3)]
    for _ in range(2):
        record, _events = a_game([host_user, *others])
        GameDone.objects.create(user=host_user, game=record, day=relief_day(), finished=True,
                                won_double=False)
    site = browser_site.serve(env={"FRIENDS_POLL_SECONDS": "1"}, timeout_ms=TIMEOUT_MS)
    host, friend = site.new_page(DESKTOP), site.new_page(DESKTOP)
    base = site.base
    errors = {"host": PageErrors(host), "friend": PageErrors(friend)}

    def check(name: str, page: Page, shot: str) -> None:
        page.screenshot(path=artifacts / f"{shot}.png", full_page=True)
        assert errors[name].errors == [], f"{shot}: {errors[name].errors}"
        assert_accessible(page, shot)

    # A request, and its acceptance from the notice on another page.
    log_in(host, base, "房主")
    host.goto(base + reverse("friends"))
    host.get_by_label("加好友（用户名）").fill("阿美")
    host.get_by_role("button", name="发送申请").click()
    expect(host.locator(".messages")).to_contain_text("已向 阿美 发送好友申请")
    check("host", host, "01-request-sent")
    log_in(friend, base, "阿美")
    friend.goto(base + reverse("lobby"))
    friend.get_by_role("link", name=re.compile("1 条好友申请")).click()
    friend.wait_for_url(base + reverse("friends"))
    friend.locator(".requests").get_by_role("button", name="同意").click()
    expect(friend.locator(".messages")).to_contain_text("已添加好友")
    assert Friendship.objects.count() == 1
    check("friend", friend, "02-accepted")

    # The host sees the friend online (the friend's page polls).
    host.goto(base + reverse("friends"))
    row = host.locator(f'.friend[data-user="{friend_user.pk}"]')
    expect(row).to_have_attribute("data-status", "online")
    expect(row.locator(".friend-status")).to_have_text("在线")
    check("host", host, "03-friend-online")

    # A private table; the friend invited from the list, seated with one click.
    host.goto(base + reverse("lobby"))
    host.get_by_label("房间").select_option(str(room.pk))
    host.get_by_role("button", name="开好友房").click()
    host.wait_for_url(re.compile(r"/tables/\d+/$"))
    private = PrivateTable.objects.get(host=host_user)
    host.goto(base + reverse("friends"))
    row = host.locator(f'.friend[data-user="{friend_user.pk}"]')
    row.get_by_role("button", name="邀请入座").click()
    expect(host.locator(".messages")).to_contain_text("邀请已发出")
    notice = friend.locator(".invite-notice")
    expect(notice).to_contain_text("房主 邀请你到好友房")
    check("friend", friend, "04-invitation")
    notice.get_by_role("button", name="入座").click()
    friend.wait_for_url(base + reverse("table", args=[private.table_id]))
    assert Seat.objects.get(user=friend_user).table_id == private.table_id
    host.goto(base + reverse("friends"))
    expect(host.locator(f'.friend[data-user="{friend_user.pk}"]')) \
        .to_have_attribute("data-status", "seated")

    # Play: bots in the other two seats, both in 托管 to the end.
    host.goto(base + reverse("table", args=[private.table_id]))
    host.get_by_role("button", name="机器人补位").click()
    first = play_to_the_end([host, friend], private.table_id)
    check("host", host, "05-first-game")

    # Rematch: the same four at a new table, same seats; the series goes on.
    host.goto(base + reverse("friends"))
    host.get_by_role("button", name="再来一局（原班人马，原座位）").click()
    host.wait_for_url(re.compile(r"/tables/\d+/$"))
    rematch = PrivateTable.objects.filter(host=host_user).latest("created_at")
    assert rematch.table_id != private.table_id
    notice = friend.locator(".invite-notice")
    expect(notice).to_contain_text("房主 邀请你再来一局")
    notice.get_by_role("button", name="入座").click()
    friend.wait_for_url(base + reverse("table", args=[rematch.table_id]))
    seats = dict(Seat.objects.filter(table_id=rematch.table_id)
                 .values_list("user_id", "index"))
    assert seats == {user: index for index, user in enumerate(first.players)}
    host.reload()
    second = play_to_the_end([host, friend], rematch.table_id)
    assert second.series_id == first.series_id is not None
    check("friend", friend, "06-rematch-game")

    # The day's check-in and the finished-three-games task, on the statement.
    host.goto(base + reverse("daily"))
    host.get_by_role("button", name=re.compile("签到（连续第 1 天")).click()
    expect(host.locator(".checked-in")).to_contain_text("今天已签到")
    host.locator('.daily-task[data-task="games3"]').get_by_role("button", name="领取").click()
    expect(host.locator('.daily-task[data-task="games3"] .claimed')).to_have_text("已领取")
    check("host", host, "07-daily")
    host.goto(base + reverse("my-coins"))
    rows = host.locator("tr.kind-reward")
    expect(rows).to_have_count(2)
    expect(rows.filter(has_text="签到奖励")).to_contain_text("+100")
    expect(rows.filter(has_text="每日任务奖励")).to_contain_text("+300")
    check("host", host, "08-coins-statement")
    assert ledger_violations() == []
