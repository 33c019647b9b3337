"""The lobby's rooms list (templates/games/_rooms.html): rule sets by their players'
names with a line each and a rules link, the stakes in words, and the tables where
someone sits, with who sits (bots marked), their status and a watch link."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from games.live import lobby_tables
from games.live.lobby import rooms_fragment
from games.live.seating import room_quick_join
from games.models import BotPlayer, Seat, Table
from games.rule_set_names import rule_set_name, rule_set_summary
from games.testing.room_helpers import coin_room, make_player, make_room, start_game_with_bots

pytestmark = pytest.mark.django_db


def listed_tables(html: str) -> dict[int, dict]:
    """Table id → its status and the players the lobby shows (name, bot), and its watch link."""
    tables = {}
    for match in re.finditer(r'<li class="lobby-table" id="lobby-table-(\d+)" data-table="\d+" '
                             r'data-status="(\w+)">(.*?)</li>', html, re.S):
        players = re.findall(r'<span class="player( bot)?">([^<]+?)(?: <small|</span>)',
                             match[3])
        watch = re.search(r'<a class="watch" href="([^"]+)"', match[3])
        tables[int(match[1])] = {"status": match[2], "watch": watch[1] if watch else None,
                                 "players": [(name, bool(bot)) for bot, name in players]}
    return tables


def test_rooms_show_the_rule_sets_players_names_a_line_on_each_and_a_rules_link(client):
    rooms = {code: make_room(f"{code} room", code) for code in ("qq", "tcy", "jinyou", "classic")}
    client.force_login(make_player("alice"))

    html = client.get(reverse("lobby"), HTTP_ACCEPT_LANGUAGE="en").content.decode()

    with translation.override("en"):
        for code, room in rooms.items():
            row = re.search(rf'<tr id="room-{room.pk}".*?</tr>', html, re.S)[0]
            link = f'<a href="{reverse("rules", args=[code])}">{escape(rule_set_name(code))}</a>'
            assert link in row
            assert escape(rule_set_summary(code)) in row
    assert ">qq<" not in html and ">tcy<" not in html


def test_a_coin_rooms_stake_fee_and_freeze_are_said_in_words(client):
    room = coin_room("qq 金币 百倍", coefficient=100, fee=10, min_coins=1000, max_loss=20000)
    client.force_login(make_player("alice"))

    html = client.get(reverse("lobby"), HTTP_ACCEPT_LANGUAGE="en").content.decode()

    row = re.search(rf'<tr id="room-{room.pk}".*?</tr>', html, re.S)[0]
    assert "N=100" in row and "A=10" in row
    assert "score × 100 coins" in row and "10-coin system fee per game" in row
    assert "at least 1000 coins" in row and "up to 20000 coins are frozen" in row


def test_a_classic_coin_room_says_its_fee_is_a_share_of_the_winnings(client):
    # classic (RULES §9): 10 % of each winner's gain, no A; coins count ×5 at most.
    room = coin_room("经典 金币", "classic", coefficient=100, fee=0, min_coins=1000,
                     max_loss=20000)
    client.force_login(make_player("alice"))

    html = client.get(reverse("lobby"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    api = {item["id"]: item for item in client.get("/api/rooms").json()}

    row = re.search(rf'<tr id="room-{room.pk}".*?</tr>', html, re.S)[0]
    assert "N=100" in row and "fee 10% of each winner's gain" in row and "A=" not in row
    assert "each winner pays 10% of the gain" in row and "at most ×5" in row
    assert (api[room.pk]["fee"], api[room.pk]["fee_percent"],
            api[room.pk]["coin_multiplier_cap"]) == (0, 10, 5)


def test_a_room_with_bots_says_how_they_play_in_the_readers_language(client):
    strong = make_room("strong bots", bot_level="strong")
    easy = make_room("easy bots", bot_level="easy")
    people = make_room("people only", bots_allowed=False, bot_level="strong")
    client.force_login(make_player("alice"))

    english = client.get(reverse("lobby"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    chinese = client.get(reverse("lobby"), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()

    def row(html: str, room) -> str:
        return re.search(rf'<tr id="room-{room.pk}".*?</tr>', html, re.S)[0]

    assert 'data-bot-level="strong">Bots: Strong<' in row(english, strong)
    assert 'data-bot-level="easy">Bots: Easy (the autoplay move)<' in row(english, easy)
    assert "机器人：强" in row(chinese, strong)
    assert "bot-level" not in row(english, people)  # no bots there: nothing to say


def test_the_lobby_lists_tables_with_their_players_bots_marked_and_a_watch_link(client):
    points = make_room("QQ 积分场")
    bob = make_player("bob")
    record = start_game_with_bots(bob, points)  # bob and three bots, playing
    carol = make_player("carol")
    waiting = room_quick_join(user=carol, room_id=make_room("金游 积分场", "jinyou").pk)
    client.force_login(make_player("alice"))

    html = client.get(reverse("lobby")).content.decode()
    tables = listed_tables(html)

    # The room's counts stay as they were beside the list of its tables.
    assert re.search(rf'<tr id="room-{points.pk}".*?data-playing="1"[^>]*>1 / 1</td>', html, re.S)
    seats = Seat.objects.filter(table_id=record.table_id).select_related("user")
    assert tables[record.table_id] == {
        "status": "playing", "watch": reverse("table", args=[record.table_id]),
        "players": [(str(seat.user), BotPlayer.objects.filter(user=seat.user).exists())
                    for seat in seats.order_by("index")]}
    assert sum(bot for _name, bot in tables[record.table_id]["players"]) == 3
    assert tables[waiting.table_id] == {"status": "waiting",
                                        "watch": reverse("table", args=[waiting.table_id]),
                                        "players": [("carol", False)]}


def test_the_watch_link_opens_the_table_page_without_a_seat(client):
    record = start_game_with_bots(make_player("bob"), make_room("QQ 积分场"))
    alice = make_player("alice")
    client.force_login(alice)
    watch = listed_tables(client.get(reverse("lobby")).content.decode())[record.table_id]["watch"]

    page = client.get(watch)

    assert page.status_code == 200
    assert 'data-my-seat=""' in page.content.decode()
    assert not Seat.objects.filter(user=alice).exists()


def test_a_busy_room_lists_its_first_tables_and_counts_the_others(monkeypatch):
    monkeypatch.setattr(lobby_tables, "TABLES_PER_ROOM", 2)
    room = make_room("QQ 积分场", "tcy")  # two seats a table: one player fills a table fast
    for name in ("p1", "p2", "p3", "p4", "p5", "p6", "p7"):
        room_quick_join(user=make_player(name), room_id=room.pk)
    numbers = sorted(Table.objects.filter(room=room, seats__user__isnull=False)
                     .values_list("number", flat=True).distinct())
    assert len(numbers) == 4

    html = rooms_fragment("en")

    shown = [int(number) for number in re.findall(r'<span class="table-number">Table (\d+)', html)]
    assert shown == numbers[:2]
    assert "2 more tables have players." in html


def test_the_rooms_fragment_costs_three_queries_however_many_rooms_and_tables(
        django_assert_num_queries):
    def fill(room, players: list[str]) -> None:
        for name in players:
            room_quick_join(user=make_player(name), room_id=room.pk)

    fill(make_room("QQ 积分场"), ["a1", "a2"])
    with django_assert_num_queries(3):  # the rooms, their tables, the tables' players
        small = rooms_fragment("zh-hans")
    fill(make_room("同城游", "tcy"), ["b1", "b2", "b3", "b4", "b5"])
    fill(coin_room("金币场"), [])
    start_game_with_bots(make_player("c1"), make_room("经典", "classic"))
    with django_assert_num_queries(3):
        large = rooms_fragment("zh-hans")

    assert len(listed_tables(small)) == 1 and len(listed_tables(large)) == 1 + 3 + 1
