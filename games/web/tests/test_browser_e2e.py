"""The whole site in a real browser: Playwright drives Debian's Chromium against a
uvicorn server on the test database. A person signs up, enters a points room with
bots, plays a game on the table page (Hint + Play, one turn by keyboard alone, then
托管), reads the result panel, steps through the replay and finds the game in the
points statement. Every page visited is checked for named controls and readable
contrast; screenshots of each stage go to test-artifacts/e2e/<test name>/.

Test settings make bots move at once and fill the table as soon as the person is
ready, and run Celery tasks eagerly: the game settles inside the server process.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from games.models import GameEvent, GameRecord, Room, Seat
from games.testing.browser_checks import (
    focused,
    tab_stops,
    tab_to,
    wait_until,
)
from games.testing.browser_visits import (
    Visit,
    ask_hint,
    hint_turn,
    new_visit,
    pass_and_check,
    play_and_check,
    signed,
)
from games.testing.room_helpers import make_room, presets
from ledger.models import Currency, Leg
from ledger.services import balance_of

# A server and a browser: seconds.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

USERNAME = "e2e_player"
NICKNAME = "浏览器玩家"
PASSWORD = "Shuang-Kou-2468!"
# My turns played by hand (Hint + Play, or Pass) before 托管 finishes the game.
HAND_TURNS = 8
TIMEOUT_MS = 30_000
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def test_a_person_signs_up_plays_a_game_in_the_browser_and_finds_its_replay_and_points(
        artifacts, browser_site):
    presets()
    room = make_room("浏览器测试积分场", "qq", kind=Room.Kind.POINTS, bots_allowed=True,
                     turn_seconds=120, first_turn_seconds=120)
    site = browser_site.serve(timeout_ms=TIMEOUT_MS)
    visit = new_visit(site, artifacts, DESKTOP)
    page = visit.page
    try:
        user = sign_up(visit)
        table_id = enter_room(visit, room)
        record = play_one_game(visit, user, table_id)
        check_history_and_replay(visit, user, record)
        check_points_statement(visit, user, record)
    except Exception:
        # What the browser showed when it failed, for whoever reads the CI log.
        visit.shot("failure")
        (artifacts / "failure.html").write_text(page.content(), encoding="utf-8")
        raise
    assert visit.errors.errors == []
    assert any(path.name.endswith("-table-phone.png") for path in visit.shots)


# --- the stages ------------------------------------------------------------------------------

def sign_up(visit: Visit) -> User:
    page = visit.page
    visit.goto("/")
    expect(page.locator("h1")).to_have_text("火拼双扣")
    visit.shot("home")
    visit.check("home")

    page.get_by_role("navigation").get_by_role("link", name="注册").click()
    expect(page).to_have_url(re.compile(r"/signup/?$"))
    visit.check("signup")
    # Typed key by key, as a person would.
    for label, text in (("用户名", USERNAME), ("昵称", NICKNAME), ("密码", PASSWORD),
                        ("确认密码", PASSWORD)):
        page.get_by_label(re.compile(rf"^{label}\s*[:：]?$")).press_sequentially(text, delay=10)
    visit.shot("signup-filled")
    page.get_by_role("main").get_by_role("button", name="注册").click()

    expect(page.locator(".message.success")).to_contain_text("注册成功")
    expect(page.get_by_role("navigation").get_by_role("link", name=NICKNAME)).to_be_visible()
    visit.shot("profile")
    visit.check("profile")
    user = User.objects.get(username=USERNAME)
    assert user.nickname == NICKNAME
    assert balance_of(user, Currency.POINT) == 0
    return user


def enter_room(visit: Visit, room: Room) -> int:
    page = visit.page
    page.get_by_role("navigation").get_by_role("link", name="大厅").click()
    expect(page.locator("h1")).to_have_text("大厅")
    row = page.locator(f"#room-{room.pk}")
    expect(row.locator(".room-name")).to_have_text(room.name)
    expect(row.locator(".seats-taken")).to_have_text("0")
    # The ratings panel (ratings): a newcomer's provisional 1500 in each family.
    expect(page.locator(".ratings-panel .rating[data-family=four] .value")).to_have_text("1500?")
    visit.shot("lobby")
    visit.check("lobby")

    row.get_by_role("button", name="快速加入").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_id = int(re.search(r"/tables/(\d+)/$", page.url)[1])
    table_page = page.locator("#table-page")
    expect(table_page).to_have_attribute("data-connection", "open")
    expect(table_page).to_have_attribute("data-status", "waiting")
    seat = Seat.objects.get(user__username=USERNAME)
    assert seat.table_id == table_id and seat.table.room_id == room.pk
    expect(table_page).to_have_attribute("data-my-seat", str(seat.index))
    expect(page.locator(f"#seat-{seat.index} [data-field=name]")).to_contain_text(NICKNAME)
    # Each seat's rating (ratings), as the socket's table state says it.
    expect(page.locator(f"#seat-{seat.index} [data-field=rating]")).to_have_text("等级分 1500?")
    expect(page.locator("#ready-button")).to_be_visible()
    visit.shot("table-waiting")
    visit.check("table, waiting")

    # The table's own controls before a game: reached and pressed with the keyboard.
    stops = tab_stops(page)
    assert {"#ready-button", "#stand-button"} <= set(stops), stops
    tab_to(page, "#ready-button")
    page.keyboard.press("Enter")
    return table_id


def play_one_game(visit: Visit, user: User, table_id: int) -> GameRecord:
    """Play one game: turns by keyboard until cards were played so, then Hint + Play
    until HAND_TURNS turns, then 托管. The deal comes from the test's own seed (the
    root conftest.py) and the bots' choices from the deal, so it is the same game every
    run: one whose points move (a 平扣 would leave no statement entry) and in which cards
    were played by keyboard. Should a change of the rules or the bots make it otherwise,
    give this test another GAMES_DEAL_SEED."""
    page = visit.page
    table_page = page.locator("#table-page")
    expect(table_page).to_have_attribute("data-status", "playing")
    expect(page.locator("#result-panel")).to_be_hidden()
    record = GameRecord.objects.get(table_id=table_id)
    seat = record.players.index(user.pk)
    assert len(record.players) == 4 and sorted(record.bot_seats) == sorted(
        index for index in range(4) if index != seat), "bots took the three other seats"
    hand = page.locator("#hand button[data-card]")
    expect(hand.first).to_be_visible()

    # Before my first move the page shows exactly the 27 cards the server dealt me
    # (qq: two decks, four hands); the deal lists players before any 明牌 swap.
    cards = hand.evaluate_all("(cards) => cards.map((card) => card.dataset.card)")
    deal = GameEvent.objects.get(game=record, type="deal").data
    assert sorted(cards) == sorted(deal["hands"][deal["players"].index(user.pk)])
    assert len(cards) == 27
    visit.shot("table-game")
    visit.check("table, game")
    page.set_viewport_size(PHONE)
    # At phone width the page fits across and the hand and buttons are on screen.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    expect(page.locator("#hand")).to_be_in_viewport()
    expect(page.locator("#trustee-toggle")).to_be_in_viewport()
    visit.shot("table-phone", full_page=False)
    visit.check("table, phone width")
    page.set_viewport_size(DESKTOP)

    by_keyboard = False
    my_turns = 0
    while True:
        page.wait_for_function(
            """() => document.getElementById('table-page').dataset.myTurn === 'true'
                     || !document.getElementById('result-panel').hidden""")
        if page.locator("#result-panel").is_visible():
            break
        my_turns += 1
        if not by_keyboard:
            by_keyboard = keyboard_turn(visit)
        elif my_turns > HAND_TURNS:
            trustee_by_keyboard(visit, seat)
            break
        else:
            hint_turn(visit)
    record = check_result(visit, user, table_id, seat)
    assert by_keyboard, "no cards were played by keyboard in this test's game"
    points = record.settlement["points"][seat]
    assert points != 0, f"this test's game moved no points: {record.result}"
    return record


def keyboard_turn(visit: Visit) -> bool:
    """A turn with the keyboard alone: every control is reached by Tab, Hint is pressed
    with Enter, and the cards it suggests are selected again card by card with the
    arrow keys and Space, then played with Enter; when nothing beats the table, Pass
    with Enter. Whether cards were played."""
    page = visit.page
    stops = tab_stops(page)
    leading = page.locator("#pass-button").is_disabled()
    wanted = {"#hint-button", "#trustee-toggle", "#leave-button"} | (
        set() if leading else {"#pass-button"})
    assert wanted <= set(stops), f"Tab reaches {stops}"
    assert len([stop for stop in stops if stop.startswith("card:")]) == 1, \
        f"the hand is one tab stop: {stops}"
    tab_to(page, "#hint-button")
    hints = ask_hint(visit, lambda: page.keyboard.press("Enter"))
    if not hints:
        tab_to(page, "#pass-button")
        pass_and_check(visit, lambda: page.keyboard.press("Enter"))
        return False
    select_by_keyboard(page, set())
    expect(page.locator("#play-button")).to_be_disabled()
    select_by_keyboard(page, set(hints[0]))
    visit.shot("table-keyboard-selected")
    tab_to(page, "#play-button")
    play_and_check(visit, lambda: page.keyboard.press("Enter"))
    return True


def select_by_keyboard(page: Page, codes: set[str]) -> None:
    """Walk the hand with the arrow keys from its first card, pressing Space on each
    card whose selection differs from ``codes``; then the selection is ``codes``."""
    tab_to(page, "#hand button[data-card]")
    page.keyboard.press("Home")
    cards = page.locator("#hand button[data-card]")
    count = cards.count()
    for index in range(count):
        code = focused(page)
        assert code == "card:" + cards.nth(index).get_attribute("data-card"), \
            f"the arrow keys reach card {index}"
        pressed = cards.nth(index).get_attribute("aria-pressed") == "true"
        if pressed != (code[5:] in codes):
            page.keyboard.press("Space")
            expect(cards.nth(index)).to_have_attribute(
                "aria-pressed", "false" if pressed else "true")
        if index + 1 < count:
            page.keyboard.press("ArrowRight")
    selected = page.locator('#hand button[aria-pressed="true"]').evaluate_all(
        "(cards) => cards.map((card) => card.dataset.card)")
    assert sorted(selected) == sorted(codes)


def trustee_by_keyboard(visit: Visit, seat: int) -> None:
    """Turn 托管 on with the keyboard: the server's bot plays my seat to the end."""
    page = visit.page
    toggle = page.locator("#trustee-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    tab_to(page, "#trustee-toggle")
    page.keyboard.press("Space")
    wait_until(page, lambda: any(event["type"] == "trustee" and event["seat"] == seat
                                 and event["on"] for event in visit.socket.events()),
               "托管 on")


def check_result(visit: Visit, user: User, table_id: int, seat: int) -> GameRecord:
    page = visit.page
    panel = page.locator("#result-panel")
    expect(panel).to_be_visible()
    # The settlement comes from the server after the end: the points column fills in.
    expect(page.locator("#result-settlement")).to_have_text("")
    record = GameRecord.objects.filter(table_id=table_id).latest("pk")
    assert record.status == GameRecord.Status.ENDED
    assert record.settled_at is not None, "settled in the server process"
    points = record.settlement["points"]

    rows = page.locator("#result-rows tr")
    expect(rows).to_have_count(4)
    summary = page.locator("#result-summary")
    expect(summary).to_contain_text(visit.text("kou_" + record.result["kou"]))
    expect(summary).to_contain_text(visit.text("multiplier",
                                               multiplier=record.result["multiplier"]))
    finish = record.result["finish"]
    for place, finisher in enumerate(finish, start=1):
        row = page.locator(f'#result-rows tr[data-seat="{finisher}"]')
        expect(row.locator("td").nth(0)).to_have_text(visit.text("place", place=place))
    for index in range(4):
        cells = page.locator(f'#result-rows tr[data-seat="{index}"] td')
        expect(cells.nth(5)).to_have_text(signed(points[index]) if points[index] else "0")
    expect(page.locator(f'#result-rows tr[data-seat="{seat}"] td').nth(1)).to_have_text(
        visit.text("you"))
    panel.scroll_into_view_if_needed()
    visit.shot(f"result-game-{record.pk}")
    visit.check("table, result")

    my_legs = Leg.objects.filter(account__user=user, account__currency=Currency.POINT,
                                 transaction__game_key=record.ledger_key)
    assert sum(leg.amount for leg in my_legs) == points[seat]
    return record


def check_history_and_replay(visit: Visit, user: User, record: GameRecord) -> None:
    page = visit.page
    seat = record.players.index(user.pk)
    points = record.settlement["points"]
    page.get_by_role("navigation").get_by_role("link", name="牌局记录").click()
    expect(page.locator("h1")).to_have_text("我的牌局记录")
    games = GameRecord.objects.filter(players__contains=[user.pk])
    expect(page.locator("tr[data-game]")).to_have_count(games.count())
    row = page.locator(f'tr[data-game="{record.pk}"]')
    expect(row.locator("td.num").nth(0)).to_have_text(signed(points[seat]))
    visit.shot("history")
    visit.check("history")

    row.get_by_role("link", name=f"回放 {record.pk}").click()
    expect(page).to_have_url(re.compile(rf"/games/{record.pk}/replay/"))
    steps = GameEvent.objects.filter(game=record).count()
    counter = page.locator("#replay-counter")
    expect(counter).to_have_text(f"第 1 / {steps} 步")
    faces = page.locator("#replay-board .replay-hand .card")
    expect(faces).to_have_count(108)  # the deal: every hand shown, two decks
    visit.shot("replay-start")
    visit.check("replay")

    # Step forward until the first card is played: a hand gets smaller.
    next_button = page.get_by_role("button", name="下一步")
    step = 1
    while faces.count() == 108:
        assert step < steps, "no card was ever played in the replay"
        next_button.click()
        step += 1
        expect(counter).to_have_text(f"第 {step} / {steps} 步")
        assert f"step={step}" in page.url
    played = 108 - faces.count()
    assert page.locator(".replay-played .card").count() == played
    visit.shot("replay-first-play")
    page.get_by_role("button", name="上一步").click()
    expect(counter).to_have_text(f"第 {step - 1} / {steps} 步")
    expect(faces).to_have_count(108)
    # The arrow keys step too.
    page.locator("#replay-caption").click()
    page.keyboard.press("ArrowRight")
    expect(counter).to_have_text(f"第 {step} / {steps} 步")
    expect(faces).to_have_count(108 - played)

    page.get_by_role("button", name="跳到结尾").click()
    expect(counter).to_have_text(f"第 {steps} / {steps} 步")
    last = GameEvent.objects.filter(game=record).latest("seq")
    assert last.type == "settled"
    expect(page.locator("#replay-caption")).to_have_text("结算完成")
    settlement = page.locator("#replay-settlement")
    expect(settlement.locator("tbody tr")).to_have_count(4)
    mine = settlement.locator("tbody tr", has_text=NICKNAME)
    expect(mine.locator("td.num").nth(3)).to_have_text(signed(points[seat]))
    settlement.scroll_into_view_if_needed()
    visit.shot("replay-end")
    visit.check("replay, end")


def check_points_statement(visit: Visit, user: User, record: GameRecord) -> None:
    page = visit.page
    seat = record.players.index(user.pk)
    mine = record.settlement["points"][seat]
    page.get_by_role("navigation").get_by_role("link", name="积分", exact=True).click()
    expect(page.locator("h1")).to_have_text("我的积分")
    balance = balance_of(user, Currency.POINT)
    expect(page.locator(".statement-balance .balance")).to_have_text(str(balance))
    entry = page.locator("tr.entry", has=page.get_by_role("link", name=f"牌局 #{record.pk}"))
    expect(entry).to_have_count(1)
    expect(entry.locator("td.amount")).to_have_text(signed(mine))
    legs = Leg.objects.filter(account__user=user, account__currency=Currency.POINT)
    expect(page.locator("tr.entry")).to_have_count(legs.count())
    assert balance == sum(leg.amount for leg in legs)
    visit.shot("points-statement")
    visit.check("points statement")
    entry.get_by_role("link", name=f"牌局 #{record.pk}").click()
    expect(page).to_have_url(re.compile(rf"/games/{record.pk}/replay/"))
