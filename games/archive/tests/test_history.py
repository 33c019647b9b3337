"""The game history page: my finished games only, 20 a page, filtered by room kind,
by my outcome and by 双扣/单扣/平扣; bad filter values are ignored, never an error."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.live.lifecycle.act import game_act
from games.models import GameRecord, Room, Table
from games.testing.room_helpers import coin_room, make_player, make_room, start_game_with_bots

pytestmark = pytest.mark.django_db

ROW = re.compile(r'<tr data-game="(\d+)">(.*?)</tr>', re.S)
BASE = {"double": [4, 4, -4, -4], "single": [2, -2, 2, -2], "draw": [1, 0, 0, 1]}


def rows(response) -> list[int]:
    assert response.status_code == 200
    return [int(game) for game, _ in ROW.findall(response.content.decode())]


def row_html(response, game: GameRecord) -> str:
    return dict(ROW.findall(response.content.decode()))[str(game.pk)]


def ended_game(room: Room, players, *, kou: str = "double", finish=(0, 2, 1, 3),
               minutes_ago: int = 0, settled: bool = True,
               status: str = GameRecord.Status.ENDED) -> GameRecord:
    """A finished four-seat game as the tables leave it (RULES §6 base table, no bombs)."""
    table, _ = Table.objects.get_or_create(room=room, number=1)
    base = [0] * 4
    for place, seat in enumerate(finish):
        base[seat] = BASE[kou][place]
    winners = [seat for seat in range(4) if seat % 2 == finish[0] % 2]
    points = list(base)
    coins = [score * room.coefficient - room.fee for score in base] if room.is_coins else [0] * 4
    return GameRecord.objects.create(
        table=table, room=room, rule_set_name=room.rule_set.name,
        players=[player.pk for player in players], status=status,
        result={"kou": kou, "finish": list(finish), "multiplier": 1, "base": base,
                "contributions": [0] * 4, "scores": base, "winners": winners,
                "escaped": None, "penalty": 0, "cards_left": None},
        settlement={"points": points, "coins": coins} if settled else None,
        ended_at=timezone.now() - timedelta(minutes=minutes_ago))


@pytest.fixture
def me(client):
    player = make_player("me")
    client.force_login(player)
    return player


@pytest.fixture
def others():
    return [make_player(f"other{index}") for index in range(4)]


def test_the_history_asks_for_a_login(client):
    response = client.get(reverse("game-history"))

    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_the_history_lists_only_my_finished_games_newest_first(client, me, others):
    room = make_room("qq 积分")
    first = ended_game(room, [me, *others[:3]], minutes_ago=30)
    second = ended_game(room, [*others[:3], me], minutes_ago=10)
    ended_game(room, others)  # not mine
    ended_game(room, [me, *others[:3]], status=GameRecord.Status.PLAYING)  # still running

    response = client.get(reverse("game-history"))

    assert rows(response) == [second.pk, first.pk]
    page = response.content.decode()
    assert f'href="{reverse("game-replay", args=[first.pk])}"' in page
    assert f'href="{reverse("game-replay", args=[second.pk])}"' in page


def test_a_row_shows_my_seat_place_result_and_what_i_received(client, me, others):
    points_room = make_room("qq 积分")
    coins_room = coin_room("qq 金币", coefficient=100, fee=10)
    # me at seat 1, out third in a 单扣 (finish 0, 1, 2, 3: seat 1 is on the losing pair).
    lost = ended_game(points_room, [others[0], me, others[1], others[2]], kou="single",
                      finish=(0, 1, 2, 3))
    # me at seat 2, out second in a 双扣 of a coin room: 4 × 100 − 10 coins.
    won = ended_game(coins_room, [others[0], others[1], me, others[2]], kou="double",
                     finish=(0, 2, 1, 3))
    unsettled = ended_game(points_room, [me, *others[:3]], settled=False)

    response = client.get(reverse("game-history"))

    row = row_html(response, lost)
    assert "qq 积分" in row and "<td>2</td>" in row  # seat 2 (1-based)
    assert "第 2 名" in row and "输" in row and "单扣" in row
    assert ">-2<" in row.replace(" ", "")
    row = row_html(response, won)
    assert "qq 金币" in row and "<td>3</td>" in row
    assert "第 2 名" in row and "赢" in row and "双扣" in row
    assert "+4" in row and "+390" in row
    assert "结算中" in row_html(response, unsettled)


def test_the_history_has_twenty_games_a_page(client, me, others):
    room = make_room("qq 积分")
    games = [ended_game(room, [me, *others[:3]], minutes_ago=minute) for minute in range(45)]
    newest_first = [game.pk for game in games]

    url = reverse("game-history")
    assert rows(client.get(url)) == newest_first[:20]
    assert rows(client.get(url, {"page": 2})) == newest_first[20:40]
    assert rows(client.get(url, {"page": 3})) == newest_first[40:]
    page = client.get(url, {"page": 2}).content.decode()
    assert 'href="?page=1"' in page and 'href="?page=3"' in page
    # Pages that are not pages: the first for junk, the last for past the end.
    assert rows(client.get(url, {"page": "abc"})) == newest_first[:20]
    assert rows(client.get(url, {"page": 99})) == newest_first[40:]


def test_the_history_filters_by_room_kind(client, me, others):
    points = ended_game(make_room("qq 积分"), [me, *others[:3]])
    coins = ended_game(coin_room("qq 金币"), [me, *others[:3]])

    url = reverse("game-history")
    assert rows(client.get(url, {"kind": "points"})) == [points.pk]
    assert rows(client.get(url, {"kind": "coins"})) == [coins.pk]
    assert set(rows(client.get(url))) == {points.pk, coins.pk}


def test_the_history_filters_by_my_outcome_and_by_kou(client, me, others):
    room = make_room("qq 积分")
    table = [me, *others[:3]]
    won_double = ended_game(room, table, kou="double", finish=(0, 2, 1, 3))       # +4
    lost_single = ended_game(room, table, kou="single", finish=(1, 0, 3, 2))      # -2
    even_draw = ended_game(room, table, kou="draw", finish=(1, 0, 2, 3))          # 0
    # The same seat index for someone else must not count: me at seat 3 losing.
    lost_at_three = ended_game(room, [*others[:3], me], kou="double", finish=(0, 2, 1, 3))

    url = reverse("game-history")
    assert set(rows(client.get(url, {"outcome": "won"}))) == {won_double.pk}
    assert set(rows(client.get(url, {"outcome": "lost"}))) == {lost_single.pk, lost_at_three.pk}
    assert set(rows(client.get(url, {"outcome": "draw"}))) == {even_draw.pk}
    assert set(rows(client.get(url, {"kou": "double"}))) == {won_double.pk, lost_at_three.pk}
    assert set(rows(client.get(url, {"kou": "single"}))) == {lost_single.pk}
    assert set(rows(client.get(url, {"kou": "draw"}))) == {even_draw.pk}
    assert rows(client.get(url, {"kou": "double", "outcome": "lost"})) == [lost_at_three.pk]


def test_filters_carry_over_to_the_other_pages(client, me, others):
    room = coin_room("qq 金币")
    for minute in range(25):
        ended_game(room, [me, *others[:3]], minutes_ago=minute)
    ended_game(make_room("qq 积分"), [me, *others[:3]])

    response = client.get(reverse("game-history"), {"kind": "coins"})

    assert len(rows(response)) == 20
    assert 'href="?kind=coins&amp;page=2"' in response.content.decode()
    assert len(rows(client.get(reverse("game-history"), {"kind": "coins", "page": 2}))) == 5


@pytest.mark.parametrize("query", [
    {"kind": "gold"}, {"outcome": "maybe"}, {"kou": "triple"},
    {"kind": "coins'; DROP TABLE games_gamerecord", "outcome": "1", "kou": "<b>draw</b>"},
])
def test_bad_filter_values_are_ignored_with_a_note(client, me, others, query):
    points = ended_game(make_room("qq 积分"), [me, *others[:3]])
    coins = ended_game(coin_room("qq 金币"), [me, *others[:3]])

    response = client.get(reverse("game-history"), query)

    assert set(rows(response)) == {points.pk, coins.pk}  # as if unfiltered
    page = response.content.decode()
    assert "无效的筛选条件已忽略" in page
    assert "<b>draw" not in page


def test_a_bad_page_number_is_not_an_error_nor_a_filter_note(client, me, others):
    game = ended_game(make_room("qq 积分"), [me, *others[:3]])

    for page in ("-1", "0", "1e9", "", "９"):
        response = client.get(reverse("game-history"), {"page": page})
        assert rows(response) == [game.pk]
        assert "无效的筛选条件已忽略" not in response.content.decode()


def test_a_good_filter_survives_a_bad_one(client, me, others):
    points = ended_game(make_room("qq 积分"), [me, *others[:3]])
    ended_game(coin_room("qq 金币"), [me, *others[:3]])

    response = client.get(reverse("game-history"), {"kind": "points", "kou": "nonsense"})

    assert rows(response) == [points.pk]
    assert "无效的筛选条件已忽略" in response.content.decode()


def test_an_empty_history_says_so(client, me):
    response = client.get(reverse("game-history"))

    assert rows(response) == []
    assert "还没有打完的牌局" in response.content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_real_game_shows_in_my_history_with_its_replay(client):
    alice = make_player("alice", coins=50000)
    record = start_game_with_bots(alice, coin_room())
    game_act(user_id=alice.pk, game_id=record.pk, action="trustee", on=True)
    record.refresh_from_db()
    client.force_login(alice)

    response = client.get(reverse("game-history"))

    assert rows(response) == [record.pk]
    seat = record.players.index(alice.pk)
    row = row_html(response, record)
    assert f"{record.settlement['coins'][seat]:+d}" in row
    assert f"第 {record.result['finish'].index(seat) + 1} 名" in row
    assert client.get(reverse("game-replay", args=[record.pk])).status_code == 200


def test_a_page_costs_the_same_queries_for_one_game_as_for_twenty(client, me, others):
    """No query per row (its room, its rule set's label): a page is a fixed few."""
    points, coins = make_room("qq 积分"), coin_room("qq 金币")
    ended_game(points, [me, *others[:3]])
    with CaptureQueriesContext(connection) as one:
        assert len(rows(client.get(reverse("game-history")))) == 1
    for minute in range(1, 25):
        players = others[:3]
        players.insert(minute % 4, me)  # at every seat
        ended_game(coins if minute % 2 else points, players, minutes_ago=minute)
    with CaptureQueriesContext(connection) as full:
        assert len(rows(client.get(reverse("game-history")))) == 20

    assert len(full.captured_queries) == len(one.captured_queries)
