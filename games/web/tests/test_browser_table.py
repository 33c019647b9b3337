"""The card table in a real browser: a seeded game in a coin room with
bots, played through the table page by one person while another watches.

What it proves, each against the server's own records (GameEvent rows, the settled
game, the ledger): the room's terms and my coins (frozen during the game, freed after
it) on the page; my partner marked and the 明牌 card at the start; cards chosen by a
drag across them; the hand sorted by pattern, the choice and the mute switch
remembered over a reload, a card moved by key and by a drag in my own order; the
记牌器's counts, for me and for the spectator; a quick-chat phrase seen by the
spectator's browser, not shown once the spectator mutes me, and the refusal past the
rate limit; a reload, and a duplicate tab on a phone (where a swipe across three cards
selects them) closed, without 托管; 托管 with its reason on the seat; the result
panel's bombs, fee, coins and leftovers; one ready button. Screenshots for desktop
(1280×800) and phone (390×844 upright, 844×390 sideways) go to
test-artifacts/e2e/<test name>/, where the layouts are also checked: the whole hand on
screen and nothing over the seats.
Every page is checked for named controls, readable contrast and console errors.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.conf import settings
from django.urls import reverse
from playwright.sync_api import Page, expect

from accounts.models import User
from games.live.seating import room_quick_join
from games.models import GameEvent, GameRecord, Room, Seat
from games.testing.browser_checks import wait_until
from games.testing.browser_visits import (
    Visit,
    hint_turn,
    log_in,
    new_visit,
    open_table,
    signed,
)
from games.testing.room_helpers import coin_room, make_player, presets
from ledger.models import Currency, Leg, SystemAccount
from ledger.selectors import coin_wallet

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

TIMEOUT_MS = 30_000
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
PHONE_SIDEWAYS = {"width": 844, "height": 390}
HAND_TURNS = 4
RANKS = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "SJ", "BJ"]
BOMB_TYPES = {"bomb", "chain_bomb", "joker_bomb"}


def test_a_coin_game_on_the_card_table_with_a_spectator(artifacts, browser_site):
    presets()
    room = coin_room("浏览器金币场", bots_allowed=True, turn_seconds=120, first_turn_seconds=120)
    player = make_player("table_player", coins=100_000)
    watcher = make_player("table_watcher")
    # The server with production's disconnect grace (the test settings have none).
    grace = {"DJANGO_SETTINGS_MODULE": "shuangkou_site.settings.browser"}
    site = browser_site.serve(env=grace, timeout_ms=TIMEOUT_MS)
    mine = new_visit(site, artifacts, DESKTOP)
    theirs = new_visit(site, artifacts / "spectator", DESKTOP)
    try:
        log_in(mine, player)
        log_in(theirs, watcher)
        room_quick_join(user=player, room_id=room.pk)
        table_id = Seat.objects.get(user=player).table_id
        open_table(mine, table_id)
        check_room_terms(mine, room)
        mine.page.locator("#ready-button").click()
        expect(mine.page.locator("#table-page")).to_have_attribute("data-status", "playing")
        record = GameRecord.objects.get(table_id=table_id)
        seat = record.players.index(player.pk)
        play_the_table(mine, theirs, record, seat, table_id)
        record = check_result(mine, player, table_id, seat)
    except Exception:
        for visit in (mine, theirs):
            visit.shot("failure")
            (visit.artifacts / "failure.html").write_text(visit.page.content(), "utf-8")
        raise
    for visit in (mine, theirs):
        assert visit.errors.errors == [], visit.errors.errors


def check_room_terms(visit: Visit, room: Room) -> None:
    """A coin room says its N, its fee and the stake it freezes (config.room)."""
    info = visit.page.locator("#room-info")
    expect(info).to_be_visible()
    expect(info).to_have_attribute("data-kind", "coins")
    expect(info).to_contain_text(f"N = {room.coefficient}")
    expect(info).to_contain_text(f"A = {room.fee}")
    visit.shot("table-waiting")
    visit.check("table, waiting, coin room")


# --- the game ---------------------------------------------------------------------------------

def play_the_table(mine: Visit, theirs: Visit, record: GameRecord, seat: int,
                   table_id: int) -> None:
    page = mine.page
    expect(page.locator("#table-page")).to_have_attribute("data-status", "playing")
    hand = page.locator("#hand button[data-card]")
    expect(hand.first).to_be_visible()
    check_partner_and_reveal(mine, record, seat)
    check_wallet(mine, record.players[seat])
    assert coin_wallet(record.players[seat])["frozen"] > 0, "a coin game freezes the stake"
    mine.shot("table-desktop", full_page=False)
    mine.check("table, game")

    check_phone_layouts(mine)
    mine.shot("table-desktop-counter", full_page=False)
    check_counter(mine, record)
    drag_select(mine)
    sort_by_pattern_and_by_key(mine, table_id)

    open_table(theirs, table_id)
    check_spectator(theirs, record)
    quick_chat(mine, theirs, seat, record.players[seat])

    reload_without_trustee(mine, record, seat)
    duplicate_tab_without_trustee(mine, table_id)

    turns = 0
    while True:
        page.wait_for_function(
            """() => document.getElementById('table-page').dataset.myTurn === 'true'
                     || !document.getElementById('result-panel').hidden""")
        if page.locator("#result-panel").is_visible():
            break
        turns += 1
        if turns > HAND_TURNS:
            trustee_with_reason(mine, seat)
            break
        hint_turn(mine)
        check_counter(mine, record)
    # Nothing put my seat in 托管 but my own switch (not the reload, not the closed tab).
    reasons = [event.data.get("reason") for event in GameEvent.objects.filter(
        game=record, type="trustee") if event.data["seat"] == seat and event.data["on"]]
    assert set(reasons) <= {"player"}, reasons


def check_wallet(visit: Visit, user_id: int) -> None:
    """My coins on the table page as the ledger has them: the stake frozen during a
    game, nothing after it."""
    wallet = coin_wallet(user_id)
    info = visit.page.locator("#room-info")
    expect(info).to_have_attribute("data-balance", str(wallet["balance"]))
    expect(info).to_have_attribute("data-frozen", str(wallet["frozen"]))
    expect(info).to_contain_text(str(wallet["balance"]))


def check_partner_and_reveal(visit: Visit, record: GameRecord, seat: int) -> None:
    page = visit.page
    expect(page.locator(f"#seat-{(seat + 2) % 4}")).to_have_class(re.compile(r"\bpartner\b"))
    expect(page.locator(f"#seat-{(seat + 2) % 4} .partner-badge")).to_have_text("对家")
    for other in (1, 3):
        expect(page.locator(f"#seat-{(seat + other) % 4} .seat-back").first).to_be_visible()
    reveal = GameEvent.objects.filter(game=record, type="reveal").first()
    plays = GameEvent.objects.filter(game=record, type="play").count()
    if reveal is not None and plays == 0:
        card = reveal.data["card"]
        expect(page.locator(f'#reveal-info .card[data-card="{card}"]')).to_be_visible()


def hand_codes(page: Page) -> list[str]:
    return page.locator("#hand button[data-card]").evaluate_all(
        "(cards) => cards.map((card) => card.dataset.card)")


def rank_of(code: str) -> str:
    return code[:2] if code[:2] in ("SJ", "BJ") else code[0]


def check_counter(visit: Visit, record: GameRecord) -> None:
    """记牌器: two decks less my hand less every card played, as the GameEvent rows
    have them at the seq the page shows."""
    page = visit.page
    toggle = page.locator("#counter-toggle")
    if toggle.get_attribute("aria-pressed") != "true":
        toggle.click()
    expect(page.locator("#counter-ranks li")).to_have_count(len(RANKS))
    shown = page.evaluate("""() => ({
        seq: Number(document.getElementById('table-page').dataset.seq),
        hand: Array.from(document.querySelectorAll('#hand button[data-card]'),
                         (card) => card.dataset.card),
        counts: Object.fromEntries(Array.from(document.querySelectorAll('#counter-ranks li'),
                                              (item) => [item.dataset.rank,
                                                         Number(item.dataset.count)])),
    })""")
    played = [code for event in GameEvent.objects.filter(
        game=record, type="play", seq__lte=shown["seq"]) for code in event.data["cards"]]
    deal = GameEvent.objects.get(game=record, type="deal").data
    # My hand at that seq, from the database: what I was dealt less what was played.
    player_index = [index for index, hand in enumerate(deal["hands"])
                    if set(shown["hand"]) <= set(hand)]
    assert len(player_index) == 1, "the page shows cards of one dealt hand"
    expected_hand = sorted(set(deal["hands"][player_index[0]]) - set(played))
    assert sorted(shown["hand"]) == expected_hand
    seen = Counter(rank_of(code) for code in expected_hand + played)
    expected = {rank: (2 if rank in ("SJ", "BJ") else 8) - seen[rank] for rank in RANKS}
    assert shown["counts"] == expected, (shown["seq"], shown["counts"], expected)


def drag_select(visit: Visit) -> None:
    """A drag across three cards selects the three; a drag back over them deselects."""
    page = visit.page
    cards = page.locator("#hand button[data-card]")

    def point(index: int) -> tuple[float, float]:
        box = cards.nth(index).bounding_box()
        return box["x"] + 6, box["y"] + box["height"] * 0.6

    def drag(start: int, end: int) -> None:
        page.mouse.move(*point(start))
        page.mouse.down()
        for index in range(start + 1, end + 1):
            page.mouse.move(*point(index), steps=3)
        page.mouse.up()

    codes = hand_codes(page)[:3]
    drag(0, 2)
    selected = page.locator('#hand button[aria-pressed="true"]')
    expect(selected).to_have_count(3)
    assert sorted(selected.evaluate_all("(cs) => cs.map((c) => c.dataset.card)")) == sorted(codes)
    expect(page.locator("#selection-info")).to_contain_text("3")
    visit.shot("table-drag-selected", full_page=False)
    drag(0, 2)
    expect(selected).to_have_count(0)
    # A plain click still selects one card, and clicks it off again.
    cards.nth(4).click(position={"x": 6, "y": 30})
    expect(selected).to_have_count(1)
    cards.nth(4).click(position={"x": 6, "y": 30})
    expect(selected).to_have_count(0)


def pattern_order(codes: list[str]) -> bool:
    """Whether ``codes`` start with their bombs (4+ of a rank; the jokers when 3+)."""
    counts = Counter(rank_of(code) for code in codes)
    jokers = counts["SJ"] + counts["BJ"]
    bombs = sum(count for rank, count in counts.items()
                if rank not in ("SJ", "BJ") and count >= 4) + (jokers if jokers >= 3 else 0)
    head = codes[:bombs]
    head_counts = Counter(rank_of(code) for code in head)
    return all(head_counts[rank] == counts[rank] for rank in head_counts)


def sort_by_pattern_and_by_key(visit: Visit, table_id: int) -> None:
    page = visit.page
    by_rank = hand_codes(page)
    page.locator('#sort-choice [data-sort="pattern"]').click()
    expect(page.locator('#sort-choice [data-sort="pattern"]')).to_have_attribute(
        "aria-checked", "true")
    by_pattern = hand_codes(page)
    assert sorted(by_pattern) == sorted(by_rank)
    assert pattern_order(by_pattern), by_pattern
    visit.shot("table-sorted-by-pattern", full_page=False)
    # Sound off, by its button, which says the state it is in.
    sound = page.locator("#sound-toggle")
    expect(sound).to_have_text("声音：开")
    expect(sound).to_have_attribute("data-muted", "false")
    sound.click()
    expect(sound).to_have_text("声音：关")
    expect(sound).to_have_attribute("data-muted", "true")
    # Both remembered over a reload.
    page.reload()
    expect(page.locator("#table-page")).to_have_attribute("data-connection", "open")
    expect(page.locator('#sort-choice [data-sort="pattern"]')).to_have_attribute(
        "aria-checked", "true")
    expect(sound).to_have_text("声音：关")
    expect(page.locator("#hand button[data-card]").first).to_be_visible()
    by_pattern = hand_codes(page)
    assert pattern_order(by_pattern)
    # Shift+→ moves the first card one place right: my own order from then on.
    page.locator("#hand button[data-card]").first.focus()
    page.keyboard.press("Shift+ArrowRight")
    expect(page.locator('#sort-choice [data-sort="manual"]')).to_have_attribute(
        "aria-checked", "true")
    moved = hand_codes(page)
    assert moved[:2] == [by_pattern[1], by_pattern[0]] and moved[2:] == by_pattern[2:]
    # In my own order a drag moves a card (here the first, three places right) and
    # selects nothing.
    cards = page.locator("#hand button[data-card]")
    points = [(box["x"] + 6, box["y"] + box["height"] * 0.6)
              for box in (cards.nth(index).bounding_box() for index in range(4))]
    page.mouse.move(*points[0])
    page.mouse.down()
    for point in points[1:]:
        page.mouse.move(*point, steps=3)
    page.mouse.up()
    dragged = hand_codes(page)
    assert dragged == moved[1:4] + [moved[0]] + moved[4:], (moved[:5], dragged[:5])
    expect(page.locator('#hand button[aria-pressed="true"]')).to_have_count(0)
    page.locator('#sort-choice [data-sort="rank"]').click()
    assert hand_codes(page) == by_rank


def check_spectator(visit: Visit, record: GameRecord) -> None:
    page = visit.page
    expect(page.locator("#table-page")).to_have_attribute("data-my-seat", "")
    expect(page.locator("#hand-area")).to_be_hidden()
    expect(page.locator("#game-controls")).to_be_hidden()
    expect(page.locator("#turn-info")).not_to_be_empty()
    expect(page.locator(".seat .seat-count").first).to_be_visible()
    # A spectator's counter: two decks less what was played (no hand of its own).
    page.locator("#counter-toggle").click()
    shown = page.evaluate("""() => ({
        seq: Number(document.getElementById('table-page').dataset.seq),
        total: Array.from(document.querySelectorAll('#counter-ranks li'),
                          (item) => Number(item.dataset.count)).reduce((a, b) => a + b, 0)})""")
    played = sum(len(event.data["cards"]) for event in GameEvent.objects.filter(
        game=record, type="play", seq__lte=shown["seq"]))
    assert shown["total"] == 108 - played
    # Spectators cannot speak, but may mute the players.
    page.locator("#chat-summary").click()
    expect(page.locator("#chat-phrases")).to_be_hidden()
    person = next(user for seat, user in enumerate(record.players)
                  if seat not in record.bot_seats)
    expect(page.locator("#chat-mutes input[type=checkbox]")).to_have_count(4)
    expect(page.locator(f'#chat-mutes input[data-user="{person}"]')).not_to_be_checked()
    page.locator("#chat-summary").click()
    visit.shot("spectator", full_page=False)
    visit.check("table, spectator")


def quick_chat(mine: Visit, theirs: Visit, seat: int, user_id: int) -> None:
    """A phrase from the picker shows by my seat on the spectator's page; once the
    spectator mutes me, my next phrase reaches their socket but not their page; past
    the limit (GAMES_CHAT_BURST) the server refuses, and my page says so."""
    page = mine.page
    picker = page.locator("#chat-picker")
    expect(picker).to_be_visible()
    page.locator("#chat-summary").click()
    phrases = page.locator("#chat-phrases button[data-phrase]")
    expect(phrases.first).to_be_visible()
    phrase = phrases.first.get_attribute("data-phrase")
    text = phrases.first.inner_text()
    mine.check("table, chat picker open")
    phrases.first.click()
    bubble = theirs.page.locator(f"#seat-{seat} .seat-chat")
    expect(bubble).to_be_visible()
    expect(bubble).to_have_attribute("data-phrase", phrase)
    expect(bubble).to_have_text(text)
    theirs.shot("spectator-sees-chat", full_page=False)

    def heard() -> list[str]:
        return [message["phrase"] for message in theirs.socket.of_type("chat")
                if message.get("seat") == seat]

    assert heard() == [phrase]
    # The spectator mutes me: my second phrase arrives, and is not shown.
    theirs.page.locator("#chat-summary").click()
    theirs.page.locator(f'#chat-mutes input[data-user="{user_id}"]').check()
    theirs.page.locator("#chat-summary").click()
    page.locator("#chat-summary").click()
    second = page.locator("#chat-phrases button[data-phrase]").nth(1)
    other = second.get_attribute("data-phrase")
    second.click()
    wait_until(theirs.page, lambda: len(heard()) == 2, "the second phrase")
    assert heard() == [phrase, other]
    expect(theirs.page.locator("#table-page")).to_have_attribute("data-chat-heard", "2")
    assert bubble.get_attribute("data-phrase") == phrase, "a muted player's phrase shows"
    burst = int(getattr(settings, "GAMES_CHAT_BURST", 3))
    for _ in range(burst - 1):
        page.locator("#chat-summary").click()
        page.locator("#chat-phrases button[data-phrase]").first.click()
    wait_until(page, lambda: any(message.get("code") == "chat_rate"
                                 for message in mine.socket.of_type("error")), "chat_rate")
    refusal = [message for message in mine.socket.of_type("error")
               if message.get("code") == "chat_rate"][-1]
    expect(page.locator("#notice")).to_have_text(refusal["message"])


def reload_without_trustee(visit: Visit, record: GameRecord, seat: int) -> None:
    page = visit.page
    seq = int(page.locator("#table-page").get_attribute("data-seq"))
    page.reload()
    expect(page.locator("#table-page")).to_have_attribute("data-connection", "open")
    page.wait_for_function(
        "(seq) => Number(document.getElementById('table-page').dataset.seq) >= seq", arg=seq)
    expect(page.locator(f"#seat-{seat} .trustee-badge")).to_have_count(0)
    expect(page.locator("#trustee-toggle")).to_have_attribute("aria-pressed", "false")
    assert not GameEvent.objects.filter(game=record, type="trustee",
                                        data__seat=seat, data__on=True).exists()


def duplicate_tab_without_trustee(visit: Visit, table_id: int) -> None:
    """A second tab of the same player, on a phone's touch screen, opens the table,
    selects three cards by a swipe across them, and closes: the first tab keeps the
    seat (no 托管; checked over the whole game at its end)."""
    context = visit.page.context.browser.new_context(
        storage_state=visit.page.context.storage_state(), viewport=PHONE, has_touch=True,
        is_mobile=True, locale="zh-CN")
    try:
        phone = Visit(context.new_page(), visit.base_url, visit.artifacts)
        phone.shots = visit.shots  # one numbering for the folder
        phone.goto(reverse("table", args=[table_id]))
        page = phone.page
        expect(page.locator("#table-page")).to_have_attribute("data-connection", "open")
        cards = page.locator("#hand button[data-card]")
        expect(cards.first).to_be_visible()
        page.evaluate("() => document.querySelector('.table-tools').scrollIntoView()")
        points = [(box["x"] + 5, box["y"] + box["height"] * 0.6)
                  for box in (cards.nth(index).bounding_box() for index in range(3))]
        touch = context.new_cdp_session(page)
        touch.send("Input.dispatchTouchEvent", {
            "type": "touchStart", "touchPoints": [{"x": points[0][0], "y": points[0][1]}]})
        for x, y in points[1:]:
            touch.send("Input.dispatchTouchEvent", {
                "type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        selected = page.locator('#hand button[aria-pressed="true"]')
        expect(selected).to_have_count(3)
        assert selected.evaluate_all("(cs) => cs.map((c) => c.dataset.card)") == \
            hand_codes(page)[:3]
        phone.shot("duplicate-tab-phone-swipe", full_page=False)
        assert phone.errors.errors == [], phone.errors.errors
    finally:
        context.close()
    expect(visit.page.locator("#trustee-toggle")).to_have_attribute("aria-pressed", "false")


def trustee_with_reason(visit: Visit, seat: int) -> None:
    page = visit.page
    page.locator("#trustee-toggle").click()
    badge = page.locator(f"#seat-{seat} .trustee-badge")
    expect(badge.or_(page.locator("#result-panel"))).to_be_visible()
    if badge.count():
        expect(badge).to_have_attribute("data-reason", "player")
        # The notice says so, and how to take it back, while the seat is in 托管.
        standing = page.locator('#notice[data-standing="trustee"]')
        expect(standing.or_(page.locator("#result-panel"))).to_be_visible()
        if standing.count():
            expect(standing).to_contain_text("取消托管")


# --- layouts -------------------------------------------------------------------------------

def check_phone_layouts(visit: Visit) -> None:
    """The layouts with the 记牌器 open, the tallest the table gets in a game."""
    page = visit.page
    page.locator("#counter-toggle").click()
    expect(page.locator("#counter-panel")).to_be_visible()
    for name, viewport in (("phone-portrait", PHONE), ("phone-landscape", PHONE_SIDEWAYS)):
        page.set_viewport_size(viewport)
        page.evaluate("() => document.querySelector('.table-tools').scrollIntoView()")
        page.wait_for_function("""() => {
            const hand = document.getElementById('hand');
            const last = hand.lastElementChild.getBoundingClientRect();
            return last.right <= hand.getBoundingClientRect().right;
        }""")
        check_layout(page, viewport, name)
        visit.shot(f"table-{name}", full_page=False)
        visit.check(f"table, {name}")
    page.set_viewport_size(DESKTOP)
    page.evaluate("() => document.querySelector('.table-tools').scrollIntoView()")
    check_layout(page, DESKTOP, "desktop")


def check_layout(page: Page, viewport, name: str) -> None:
    """The page fits across; every card of the hand is on screen with a part of it to
    press; the buttons are on screen; the dock covers no seat."""
    assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"], name
    boxes = page.evaluate("""() => {
        const box = (el) => { const r = el.getBoundingClientRect();
                              return {x: r.x, y: r.y, right: r.right, bottom: r.bottom}; };
        return {
          cards: Array.from(document.querySelectorAll('#hand button[data-card]'), box),
          seats: Array.from(document.querySelectorAll('.seat'), box),
          dock: box(document.getElementById('dock')),
          buttons: Array.from(document.querySelectorAll('#game-controls button'), box),
        };
    }""")
    cards = boxes["cards"]
    assert cards, name
    for card in cards:
        assert 0 <= card["x"] and card["right"] <= viewport["width"], (name, card)
        assert 0 <= card["y"] and card["bottom"] <= viewport["height"], (name, card)
    for first, second in zip(cards, cards[1:]):
        if abs(first["y"] - second["y"]) < 1:  # the same row
            assert second["x"] - first["x"] >= 10, (name, "a card too thin to press")
    for button in boxes["buttons"]:
        assert button["bottom"] <= viewport["height"], (name, button)
    dock = boxes["dock"]
    for seat in boxes["seats"]:
        overlap = min(seat["bottom"], dock["bottom"]) - max(seat["y"], dock["y"])
        assert overlap <= 0, (name, "the dock covers a seat", seat, dock)


# --- the result -----------------------------------------------------------------------------

def left_in_hands(record: GameRecord) -> list[list[str]]:
    """Each seat's cards at the end, from the database: dealt less played."""
    deal = GameEvent.objects.get(game=record, type="deal").data
    played = {code for event in GameEvent.objects.filter(game=record, type="play")
              for code in event.data["cards"]}
    by_player = {player: set(hand) - played
                 for player, hand in zip(deal["players"], deal["hands"])}
    return [sorted(by_player[player]) for player in record.players]


def check_result(visit: Visit, user: User, table_id: int, seat: int) -> GameRecord:
    page = visit.page
    panel = page.locator("#result-panel")
    expect(panel).to_be_visible()
    expect(page.locator("#result-settlement")).to_have_text("")
    record = GameRecord.objects.filter(table_id=table_id).latest("pk")
    assert record.settled_at is not None
    rows = page.locator("#result-rows tr")
    expect(rows).to_have_count(4)
    kou = {"double": "双扣", "single": "单扣", "draw": "平扣", "escape": "逃跑"}
    expect(page.locator("#result-summary")).to_contain_text(kou[record.result["kou"]])

    # Every bomb, with its stars and who played it, as the play events recorded them.
    bombs = [event.data for event in GameEvent.objects.filter(game=record, type="play")
             .order_by("seq") if event.data["reading"]["type"] in BOMB_TYPES]
    items = page.locator("#result-bombs li[data-seat]")
    expect(items).to_have_count(len(bombs))
    shown = items.evaluate_all(
        "(items) => items.map((item) => [Number(item.dataset.seat), Number(item.dataset.stars)])")
    assert shown == [[bomb["seat"], bomb["reading"]["stars"]] for bomb in bombs]

    # Coins: each seat's change as settled; mine as my ledger legs of this game.
    coins = record.settlement["coins"]
    for index in range(4):
        cells = page.locator(f'#result-rows tr[data-seat="{index}"] td')
        expect(cells.nth(6)).to_have_text(signed(coins[index]) if coins[index] else "0")
    my_legs = Leg.objects.filter(account__user=user, account__currency=Currency.COIN,
                                 transaction__game_key=record.ledger_key)
    assert sum(leg.amount for leg in my_legs) == coins[seat]

    # The fee (系统回收), seat by seat; together what the fee account received.
    fee_legs = Leg.objects.filter(account__system=SystemAccount.FEES,
                                  transaction__game_key=record.ledger_key)
    fee_cells = page.locator("#result-rows td.fee").evaluate_all(
        "(cells) => cells.map((cell) => cell.textContent)")
    fees = sum(-int(text) for text in fee_cells if text not in ("—", "0"))
    assert fees == sum(leg.amount for leg in fee_legs) > 0, (fee_cells, list(fee_legs))

    # The cards left in each hand at the end.
    left = left_in_hands(record)
    for index in range(4):
        cell = page.locator(f'#result-rows tr[data-seat="{index}"] td.left-cards')
        codes = cell.locator(".card").evaluate_all("(cs) => cs.map((c) => c.dataset.card)")
        assert sorted(codes) == left[index], (index, codes, left[index])
    assert any(left), "someone held cards at the end"

    # My coins after the settlement: nothing frozen any more.
    expect(page.locator("#room-info")).to_have_attribute("data-frozen", "0")
    check_wallet(visit, user.pk)

    # One ready button.
    expect(page.get_by_role("button", name=re.compile(r"^准备"))).to_have_count(1)
    panel.scroll_into_view_if_needed()
    visit.shot("result", full_page=True)
    visit.check("table, result")
    return record
