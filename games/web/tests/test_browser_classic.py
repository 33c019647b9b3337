"""A classic (普通双扣) coin room in a real browser (RULES §9): the table shows classic's
own titles, the fee as a share of each winner's gain, the coins' cap and the 等级倍率
(of the players seated, then the one the deal froze); after an escape the result panel
says the level multiplier and whose fewest points set it.
Screenshots go to test-artifacts/e2e/<test name>/."""

from __future__ import annotations

import re
import uuid

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.models import GameRecord, Seat
from games.testing.browser_visits import log_in, new_visit, open_table
from games.testing.room_helpers import coin_room, make_player, presets
from ledger.models import Currency
from ledger.services import adjust_balance

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

TIMEOUT_MS = 30_000
DESKTOP = {"width": 1280, "height": 800}


def test_a_classic_table_shows_its_titles_level_multiplier_and_fee(artifacts, browser_site):
    presets()
    room = coin_room("经典金币场", "classic", coefficient=100, fee=0, min_coins=1000,
                     max_loss=20_000, bots_allowed=True, turn_seconds=120,
                     first_turn_seconds=120)
    player = make_player("classic_player", coins=100_000)
    # 2500 points: 猎人 on classic's ladder, ×3; the bots that sit with 0 make it ×1.
    adjust_balance(user=player, currency=Currency.POINT, amount=2500, reason="test",
                   key=f"adjust:test:{uuid.uuid4()}")
    site = browser_site.serve(timeout_ms=TIMEOUT_MS)
    visit = new_visit(site, artifacts, DESKTOP)
    page = visit.page
    try:
        log_in(visit, player)
        visit.goto(reverse("lobby"))
        page.locator(f"#room-{room.pk}").get_by_role("button").click()
        expect(page.locator("#table-page")).to_have_attribute("data-connection", "open")
        table_id = Seat.objects.get(user=player).table_id
        open_table(visit, table_id)
        info = page.locator("#room-info")
        expect(info).to_contain_text("系统回收：赢家所得的 10%")
        expect(info).to_contain_text("金币倍数最多 ×5")
        expect(info).to_contain_text("等级倍率 ×3")
        expect(info).to_have_attribute("data-level", "3")
        mine = page.locator(f"#seat-{Seat.objects.get(user=player).index}")
        expect(mine.locator("[data-field=title]")).to_have_text("Lv.7 猎人")
        visit.shot("classic-waiting")
        visit.check("classic table, waiting")

        page.locator("#ready-button").click()
        expect(page.locator("#table-page")).to_have_attribute("data-status", "playing")
        # The deal froze the players' balances: a bot's 0 points make it ×1.
        expect(info).to_have_attribute("data-level", "1")
        expect(page.locator(".seat.empty")).to_have_count(0)
        expect(page.locator(".seat:not(.mine) [data-field=title]").first) \
            .to_have_text(re.compile(r"^Lv\.1 流浪汉$"))
        record = GameRecord.objects.get(table_id=table_id)
        assert record.settled_at is None

        page.locator("#leave-button").click()
        page.locator("#leave-confirm").click()
        panel = page.locator("#result-panel")
        expect(panel).to_be_visible()
        expect(page.locator("#result-settlement")).to_have_text("")  # settled
        expect(panel).to_have_attribute("data-level", "1")
        summary = page.locator("#result-summary")
        expect(summary).to_contain_text(re.compile(r"含等级倍率 ×1（积分最少：.+，流浪汉）"))
        # An escape has no winners' gain to take the fee from (the fee column says 0).
        expect(summary).not_to_contain_text("赢家所得")
        visit.shot("classic-result")
        visit.check("classic table, result")
    except Exception:
        visit.shot("failure")
        (visit.artifacts / "failure.html").write_text(page.content(), "utf-8")
        raise
    assert visit.errors.errors == [], visit.errors.errors
    record.refresh_from_db()
    report = record.settlement["report"]
    assert (report["level_multiplier"], report["level_title"], report["fee_percent"]) == \
        (1, "流浪汉", 10)
