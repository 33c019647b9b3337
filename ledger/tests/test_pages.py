"""The statement pages /me/coins/ and /me/points/ and the points chart (ledger/charts.py),
on real ledger postings."""

from __future__ import annotations

import itertools
import re
from datetime import datetime, timedelta

import pytest
from django.urls import reverse

from games.models import GameRecord, Table
from games.settlement.coin_plan import Escape
from games.settlement.posting import settle_game
from games.testing.room_helpers import coin_room
from ledger.charts import points_chart
from ledger.models import Currency, Leg
from ledger.services import adjust_balance, correct_transaction, freeze_game_coins, grant_coins
from ledger.tests.ledger_helpers import make_players, make_user, rows_of, unique

pytestmark = pytest.mark.django_db

_game_numbers = itertools.count(9_000_001)


def game_key() -> str:
    """A ledger game key of the form games.GameRecord.ledger_key gives, for a game
    that has no record (points-only settlements need none)."""
    return f"game:{next(_game_numbers)}"


def adjust(user, amount: int, currency: str = Currency.POINT, reason: str = "test"):
    return adjust_balance(user=user, currency=currency, amount=amount, reason=reason,
                          key=unique("adjust"))


def my_legs(user, currency: str) -> list[Leg]:
    return list(Leg.objects.filter(account__user=user, account__currency=currency)
                .order_by("-id"))


# --- whose entries, in which order ------------------------------------------------------

def test_coins_page_lists_only_my_entries_newest_first_with_the_balance_after_each(client):
    me = make_user(coins=1000)
    someone_else = make_user(coins=555)
    adjust(me, -300, Currency.COIN, reason="多发退回")
    grant_coins(user=me, amount=50, key=unique("grant"), memo="活动奖励")
    adjust(me, 7, Currency.POINT)  # a points entry: not on the coins page
    client.force_login(me)

    response = client.get(reverse("my-coins"))

    rows = rows_of(response)
    assert [row.leg for row in rows] == [leg.pk for leg in my_legs(me, Currency.COIN)]
    assert [(row.amount, row.balance) for row in rows] == [(50, 750), (-300, 700), (1000, 1000)]
    assert [row.label for row in rows] == ["赠送", "管理调整", "赠送"]
    assert "活动奖励" in rows[0].what
    assert "多发退回" in rows[1].what
    others = {leg.pk for leg in Leg.objects.filter(account__user=someone_else)}
    assert not others & {row.leg for row in rows}
    assert '<strong class="balance">750</strong>' in response.content.decode()


def test_points_page_shows_points_entries_only(client):
    me = make_user(coins=1000)
    adjust(me, 40)
    adjust(me, -15)
    client.force_login(me)

    rows = rows_of(client.get(reverse("my-points")))

    assert [(row.amount, row.balance) for row in rows] == [(-15, 25), (40, 40)]
    assert [row.leg for row in rows] == [leg.pk for leg in my_legs(me, Currency.POINT)]


def test_the_statement_pages_need_a_login(client):
    for name in ("my-coins", "my-points"):
        response = client.get(reverse(name))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


# --- what each entry was -------------------------------------------------------------------

def test_a_coin_settlement_links_its_game_and_shows_the_room_fee(client):
    players = make_players(coins=10000)
    me = players[0]
    room = coin_room(name=unique("金币房"), coefficient=100, fee=10, min_coins=1000,
                     max_loss=20000)
    table = Table.objects.create(room=room, number=1)
    record = GameRecord.objects.create(table=table, room=room, rule_set_name="qq",
                                       players=[player.pk for player in players],
                                       status=GameRecord.Status.ENDED)
    freeze_game_coins(game_key=record.ledger_key, stakes=[(player, 20000) for player in players])
    settle_game(game_key=record.ledger_key, players=players, scores=[2, 2, -2, -2],
                coins=True, coefficient=100, fee=10)
    client.force_login(me)

    settled, frozen, granted = rows_of(client.get(reverse("my-coins")))

    replay = reverse("game-replay", args=[record.pk])
    assert replay == f"/games/{record.pk}/replay/"
    # The whole hold (capped at the balance) comes back with the win: 200 − the fee of 10.
    assert (settled.kind, settled.label, settled.amount, settled.balance) == \
        ("settlement", "对局结算", 10190, 10190)
    assert f'href="{replay}"' in settled.what
    assert "含系统回收 10" in settled.what
    assert (frozen.kind, frozen.amount, frozen.balance) == ("freeze", -10000, 0)
    assert f'href="{replay}"' in frozen.what
    assert "系统回收" not in frozen.what
    assert (granted.kind, granted.balance) == ("grant", 10000)
    assert "game-link" not in granted.what

    (points,) = rows_of(client.get(reverse("my-points")))
    assert (points.kind, points.amount, points.balance) == ("settlement", 2, 2)
    assert f'href="{replay}"' in points.what
    assert "系统回收" not in points.what  # points pay no fee (RULES §7)


def test_escape_penalties_and_corrections_are_labelled(client):
    me, *others = make_players(coins=0)
    key = game_key()
    settle_game(game_key=key, players=[me, *others], scores=[0, 0, 0, 0],
                escape=Escape(seat=0, penalty_units=12))
    mistake = adjust(me, 40, reason="误加")
    correct_transaction(original=mistake, reason="录入错误")
    client.force_login(me)

    correction, adjustment, escape = rows_of(client.get(reverse("my-points")))

    assert (escape.kind, escape.label, escape.amount, escape.balance) == \
        ("escape_penalty", "逃跑结算", -12, -12)
    assert f'href="{reverse("game-replay", args=[int(key.split(":")[1])])}"' in escape.what
    assert (adjustment.label, adjustment.balance) == ("管理调整", 28)
    assert (correction.kind, correction.label, correction.amount, correction.balance) == \
        ("correction", "冲正", -40, -12)
    assert f"冲正交易 #{mistake.pk}" in correction.what
    assert "录入错误" in correction.what


def test_a_ledger_key_that_is_not_a_game_is_shown_without_a_link(client):
    me, *others = make_players(coins=0)
    settle_game(game_key="match-abc", players=[me, *others], scores=[1, 1, -1, -1])
    client.force_login(me)

    (row,) = rows_of(client.get(reverse("my-points")))

    assert "<code>match-abc</code>" in row.what
    assert "<a" not in row.what


# --- pagination and filters ---------------------------------------------------------------

def test_entries_are_paginated_twenty_to_a_page_and_bad_pages_do_not_fail(client):
    me = make_user()
    for _ in range(25):
        adjust(me, 1)
    client.force_login(me)
    legs = [leg.pk for leg in my_legs(me, Currency.POINT)]

    first = rows_of(client.get(reverse("my-points")))
    second = rows_of(client.get(reverse("my-points"), {"page": 2}))

    assert [row.leg for row in first] == legs[:20]
    assert [row.leg for row in second] == legs[20:]
    assert [row.balance for row in second] == [5, 4, 3, 2, 1]
    assert [row.leg for row in rows_of(client.get(reverse("my-points"), {"page": "abc"}))] \
        == legs[:20]
    assert [row.leg for row in rows_of(client.get(reverse("my-points"), {"page": 99}))] \
        == legs[20:]
    assert [row.leg for row in rows_of(client.get(reverse("my-points"), {"page": -1}))] \
        == legs[20:]


def test_filter_by_kind_keeps_to_that_kind_across_pages(client):
    me = make_user(coins=100)
    for _ in range(21):
        adjust(me, 1, Currency.COIN)
    client.force_login(me)

    response = client.get(reverse("my-coins"), {"kind": "admin_adjustment"})
    rows = rows_of(response)
    grants = rows_of(client.get(reverse("my-coins"), {"kind": "grant"}))

    assert len(rows) == 20
    assert {row.kind for row in rows} == {"admin_adjustment"}
    assert "?kind=admin_adjustment&amp;page=2" in response.content.decode()
    assert '<option value="admin_adjustment" selected>' in response.content.decode()
    assert [(row.kind, row.amount, row.balance) for row in grants] == [("grant", 100, 100)]


def test_an_unknown_kind_shows_everything_with_a_note(client):
    me = make_user(coins=100)
    adjust(me, 5, Currency.COIN)
    client.force_login(me)

    response = client.get(reverse("my-coins"), {"kind": "<script>nonsense"})

    assert [row.kind for row in rows_of(response)] == ["admin_adjustment", "grant"]
    html = response.content.decode()
    assert "未知的类型" in html
    assert "<script>nonsense" not in html


def test_a_kind_without_entries_says_so(client):
    me = make_user(coins=100)
    client.force_login(me)

    response = client.get(reverse("my-coins"), {"kind": "freeze"})

    assert rows_of(response) == []
    assert "没有这一类型的账目" in response.content.decode()


# --- the points chart -------------------------------------------------------------------------

POLYLINE = re.compile(r'<polyline class="chart-line" fill="none" points="(?P<points>[^"]*)"/>')
LAST = re.compile(r'<circle class="chart-last" cx="(?P<x>[\d.]+)" cy="(?P<y>[\d.]+)" r="4" '
                  r'data-value="(?P<value>-?\d+)"/>')


def test_the_points_chart_has_one_vertex_per_points_entry_ending_at_my_balance(client):
    me, *others = make_players(coins=0)
    settle_game(game_key=game_key(), players=[me, *others], scores=[2, 2, -2, -2])
    settle_game(game_key=game_key(), players=[me, *others], scores=[-4, 4, -4, 4])
    adjust(me, 30)
    settle_game(game_key=game_key(), players=[me, *others], scores=[1, 1, -1, -1])
    adjust(me, 5, Currency.COIN)  # coins are not on the chart
    client.force_login(me)

    html = client.get(reverse("my-points"), {"kind": "admin_adjustment"}).content.decode()

    # The chart is the whole points history, whatever the table's filter.
    vertices = [tuple(map(float, pair.split(","))) for pair in
                POLYLINE.search(html)["points"].split()]
    series = [(leg.transaction.created_at, leg.balance_after)
              for leg in reversed(my_legs(me, Currency.POINT))]
    assert len(vertices) == len(series) == 4
    assert [value for _, value in series] == [2, -2, 28, 29]
    last = LAST.search(html)
    assert int(last["value"]) == 29
    assert vertices[-1] == (float(last["x"]), float(last["y"]))
    expected = points_chart(series)
    assert vertices == [(point.x, point.y) for point in expected.points]
    # Higher balances are drawn higher (smaller y).
    assert vertices[2][1] < vertices[0][1] < vertices[1][1]
    assert '<svg class="chart"' in html and 'role="img"' in html
    assert 'aria-labelledby="points-chart-title points-chart-desc"' in html
    assert '<title id="points-chart-title">积分走势</title>' in html
    assert "<script" not in html.split("<svg", 1)[1].split("</svg>", 1)[0]


def test_a_long_history_charts_the_newest_entries_up_to_the_cap(client, monkeypatch):
    monkeypatch.setattr("ledger.views.CHART_MAX_POINTS", 3)
    me = make_user()
    for amount in (1, 2, 3, 4, 5):
        adjust(me, amount)
    client.force_login(me)

    html = client.get(reverse("my-points")).content.decode()

    assert len(POLYLINE.search(html)["points"].split()) == 3
    assert int(LAST.search(html)["value"]) == 15
    assert "只显示最近 3 条" in html
    assert "共 3 条积分记录" in html


def test_no_chart_without_points_and_none_on_the_coins_page(client):
    me = make_user(coins=100)
    client.force_login(me)

    assert "<svg" not in client.get(reverse("my-points")).content.decode()
    adjust(me, 3)
    assert "<svg" not in client.get(reverse("my-coins")).content.decode()
    assert "<svg" in client.get(reverse("my-points")).content.decode()


# --- chart geometry (pure) ---------------------------------------------------------------------

def _series(*values: int) -> list[tuple[datetime, int]]:
    start = datetime(2026, 1, 1)
    return [(start + timedelta(hours=index), value) for index, value in enumerate(values)]


def test_no_entries_no_chart():
    assert points_chart([]) is None


def test_a_single_entry_is_one_vertex_in_the_middle():
    chart = points_chart(_series(60))

    (point,) = chart.points
    assert point.x == (chart.left + chart.right) / 2
    assert chart.top < point.y < chart.bottom
    assert chart.polyline.count(",") == 1


def test_vertices_span_the_plot_left_to_right_and_rise_with_the_balance():
    chart = points_chart(_series(0, 10, 35, 100))

    xs = [point.x for point in chart.points]
    ys = [point.y for point in chart.points]
    assert xs[0] == chart.left and xs[-1] == chart.right
    assert xs == sorted(xs)
    assert ys == sorted(ys, reverse=True)
    assert chart.low <= 0 and chart.high >= 100
    assert all(chart.top <= y <= chart.bottom for y in ys)
    tick_values = [tick.value for tick in chart.ticks]
    assert tick_values[0] == chart.low and tick_values[-1] == chart.high
    assert chart.zero_y is None  # zero is the bottom of the axis, not inside it


def test_negative_balances_get_a_zero_line_inside_the_plot():
    chart = points_chart(_series(-37, 20, -5))

    assert chart.low <= -37 and chart.high >= 20
    assert chart.top < chart.zero_y < chart.bottom
    assert chart.points[0].y > chart.zero_y > chart.points[1].y


def test_a_flat_series_is_a_flat_line_inside_the_plot():
    chart = points_chart(_series(5, 5, 5))

    assert len({point.y for point in chart.points}) == 1
    assert chart.top < chart.points[0].y < chart.bottom
