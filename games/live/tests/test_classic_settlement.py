"""Classic's money (普通双扣, RULES §9) over the socket, through the settlement and the
ledger: the 等级倍率 of the seated player with the fewest points, frozen at the deal; in
coin rooms the multiplier counted at most ×5, the winners sharing what the losers pay
and 10 % of each winner's gain to 系统回收; an escape paying twice a 双扣 at the current
multipliers; and the next game's first lead after an escape.

The expected figures are worked out here by hand, from the rules' tables, not with the
code under test."""

import uuid

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from games.live.seating import room_quick_join
from games.models import GameEvent, GameRecord, RuleSetConfig, Table
from games.testing import live_helpers
from games.testing.live_helpers import (
    connect_all,
    make_coin_room,
    make_person,
    make_room,
    pump,
    run,
    start_game,
)
from ledger.audit import ledger_violations
from ledger.models import Currency, SystemAccount
from ledger.services import adjust_balance, balance_of, grant_coins, system_account

pytestmark = pytest.mark.django_db(transaction=True)

N = 100
COINS = 100_000
SHORT = 1_001  # a player whose whole balance is frozen: a loss above it is capped (§8)
# Point balances: the fewest, 150000, is 巡抚 on classic's ladder: ×7 (RULES §9).
POINTS = {"alice": 160_000, "bob": 150_000, "cy": 300_000, "dee": 1_200_000}
LEVEL = 7
# classic's bomb multiplier by cards (RULES §9), 天王 (four jokers) ×5.
BY_CARDS = {4: 1, 5: 2, 6: 3, 7: 4, 8: 5}
BASE = {"double": [4, 4, -4, -4], "single": [2, -2, 2, -2], "draw": [1, 0, 0, 1]}


def players(coins: dict[str, int] | None = None) -> dict[str, User]:
    people = {}
    for name, points in POINTS.items():
        user = make_person(name)
        adjust_balance(user=user, currency=Currency.POINT, amount=points, reason="test",
                       key=f"adjust:test:{uuid.uuid4()}")
        if coins is not None:
            grant_coins(user=user, amount=coins.get(name, COINS),
                        key=f"grant:test:{uuid.uuid4()}")
        people[name] = user
    return people


def bomb_factor(events: list[dict]) -> int:
    """The largest bomb anyone played, by its cards (RULES §9)."""
    factor = 1
    for event in events:
        reading = event.get("reading") or {}
        if event["type"] == "play" and reading.get("type") in ("bomb", "joker_bomb"):
            cards = len(event["cards"])
            factor = max(factor, 5 if reading["type"] == "joker_bomb" else BY_CARDS[cards])
    return factor


def play_four(room, people: dict[str, User]):
    """The four play their 托管 moves to the settlement; returns the settled game."""
    table_id = room_quick_join(user=people["alice"], room_id=room.pk).table_id

    async def scenario():
        clients = await connect_all(table_id, *people.values())
        await start_game(clients)
        await pump(clients, lambda: clients[0].status == "ended")
        for client in clients:
            await client.follow_until_settled()
            await client.close()

    run(scenario)
    return GameRecord.objects.get(), table_id


def names_of(user_ids: list[int], people: dict[str, User]) -> list[str]:
    return [next(name for name, user in people.items() if user.pk == user_id)
            for user_id in user_ids]


def game_events(record: GameRecord) -> list[dict]:
    return list(GameEvent.objects.filter(game=record).order_by("seq")
                .values_list("data", flat=True))


def test_a_classic_coin_game_settles_to_the_ledger_as_computed_by_hand(client):
    n = 150
    room = make_coin_room(rule_set="classic", coefficient=n, fee=0, min_coins=1000,
                          max_loss=20_000)
    people = players({"dee": SHORT})
    record, _ = play_four(room, people)

    events = game_events(record)
    deal = events[0]
    by_seat = names_of(record.players, people)
    # The seats' balances at the deal, and the multiplier they give, are in the log.
    assert deal["points"] == [POINTS[name] for name in names_of(deal["players"], people)]
    assert deal["level_multiplier"] == LEVEL
    result = record.result
    kou = result["kou"]
    bombs = bomb_factor(events)
    place = {seat: index for index, seat in enumerate(result["finish"])}
    base = [BASE[kou][place[seat]] for seat in range(4)]
    # Points: base × bombs × level, uncapped.
    assert result["multiplier"] == bombs * LEVEL
    assert record.settlement["points"] == [value * bombs * LEVEL for value in base]
    # Coins: the multiplier counts ×5 at most (×7 already passes it). The losers pay
    # base × 5 × N each, capped at what was frozen; the winners share it equally.
    losers = [seat for seat in range(4) if base[seat] < 0]
    winners = [seat for seat in range(4) if base[seat] > 0]
    frozen = {seat: SHORT if by_seat[seat] == "dee" else 20_000 for seat in range(4)}
    paid = {seat: min(-base[seat] * 5 * n, frozen[seat]) for seat in losers}
    share = sum(paid.values()) // 2
    undivided = sum(paid.values()) - 2 * share
    fee = share * 10 // 100  # 10 % of each winner's gain, rounded down
    expected = [0] * 4
    for seat in losers:
        expected[seat] = -paid[seat]
    for seat in winners:
        expected[seat] = share - fee
    # The seeded deal: a 单扣 without bombs that dee loses, owing 1500 with 1001 frozen:
    # 2501 paid, 1250 each, the odd coin to 系统回收, 125 of each share as the fee.
    assert (kou, bombs, by_seat[losers[1]], paid[losers[1]]) == ("single", 1, "dee", 1001)
    assert (share, undivided, fee) == (1250, 1, 125)
    assert record.settlement["coins"] == expected
    for seat, name in enumerate(by_seat):
        start = SHORT if name == "dee" else COINS
        assert balance_of(people[name], Currency.COIN) == start + expected[seat]
        assert balance_of(people[name], Currency.POINT) == \
            POINTS[name] + record.settlement["points"][seat]
    # 系统回收: each winner's 10 %, itemised by seat in the report, and the odd coin.
    report = record.settlement["report"]
    assert [line["fee"] for line in report["seats"]] == \
        [fee if seat in winners else 0 for seat in range(4)]
    assert system_account(SystemAccount.FEES, Currency.COIN).balance == 2 * fee + undivided
    assert system_account(SystemAccount.HOUSE, Currency.COIN).balance == 0
    assert (report["level_multiplier"], report["coin_multiplier"], report["fee_percent"]) \
        == (LEVEL, 5, 10)
    assert (report["level_title"], report["level_rung"]) == ("巡抚", 17)
    assert by_seat[report["level_seat"]] == "bob"
    assert ledger_violations() == []
    # A winner's coins statement shows the fee they paid on the settlement's line.
    client.force_login(people[by_seat[winners[0]]])
    with translation.override("zh-hans"):
        page = client.get(reverse("my-coins"), HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert f"含系统回收 {fee}" in page.content.decode()


@pytest.mark.parametrize("kind", ["points", "coins"])
def test_a_classic_escape_costs_twice_a_double_kou_at_the_current_multipliers(kind):
    if kind == "coins":
        room = make_coin_room(rule_set="classic", coefficient=N, fee=0, min_coins=1000,
                              max_loss=20_000)
        people = players({})
    else:
        room = make_room(rule_set="classic", stake_unit=3)
        people = players()
    table_id = room_quick_join(user=people["alice"], room_id=room.pk).table_id

    async def scenario():
        clients = await connect_all(table_id, *people.values())
        await start_game(clients)
        alice = clients[0]
        # Balances that change during the game do not change its 等级倍率: the deal's.
        await live_helpers.db(adjust_balance)(
            user=people["bob"], currency=Currency.POINT, amount=-150_000, reason="test",
            key=f"adjust:test:{uuid.uuid4()}")
        await alice.send({"type": "leave", "seq": alice.seq})
        for client in clients:
            await client.expect("events", lambda m: m["events"][-1]["type"] == "settled")
        for client in clients:
            await client.close()
        return alice.seat

    escaper = run(scenario)
    record = GameRecord.objects.get()
    result = record.result
    bombs = bomb_factor(game_events(record))
    assert bombs == 1  # escaped at the first turn: no bomb yet
    assert (result["kou"], result["escaped"]) == ("escape", escaper)
    # 底分 × 2 × bomb × level × 2 = 4 units × 1 × 7; the others score 0.
    assert result["penalty"] == 4 * LEVEL
    assert result["scores"] == [-28 if seat == escaper else 0 for seat in range(4)]
    if kind == "points":
        assert record.settlement["points"] == [-28 * 3 if seat == escaper else 0
                                               for seat in range(4)]
        assert record.settlement["coins"] == [0, 0, 0, 0]
        assert balance_of(people["alice"], Currency.POINT) == POINTS["alice"] - 84
    else:
        # Coins: 4 units × 5 (the cap) × N = 2000; 70 % shared by the three others.
        penalty = 4 * 5 * N
        share = penalty * 70 // 100 // 3
        assert record.settlement["coins"] == [-penalty if seat == escaper else share
                                              for seat in range(4)]
        assert balance_of(people["alice"], Currency.COIN) == COINS - penalty
        assert balance_of(people["cy"], Currency.COIN) == COINS + share
        assert system_account(SystemAccount.FEES, Currency.COIN).balance == \
            penalty - 3 * share
        report = record.settlement["report"]
        assert [line["fee"] for line in report["seats"]] == [0, 0, 0, 0]
        assert report["coin_multiplier"] == 5
        assert balance_of(people["alice"], Currency.POINT) == POINTS["alice"] - 28
    assert ledger_violations() == []
    # The next game there is led by a random player, not the escape's "first out".
    assert Table.objects.get(pk=table_id).last_result["escaped"] is True


def test_an_operators_edited_classic_settles_by_what_it_says():
    # The operator's classic: a ladder of two rungs (every seat here reaches ×4), coins
    # capped at ×6, 系统回收 20 % of each winner's gain.
    room = make_coin_room(rule_set="classic", coefficient=N, fee=0, min_coins=1000,
                          max_loss=20_000)
    config = RuleSetConfig.objects.get(name="classic")
    config.config = {**config.config, "level_ladder": [["新手", 0, 1], ["老手", 100_000, 4]],
                     "coin_multiplier_cap": 6, "winner_fee_percent": 20}
    config.full_clean()
    config.save()
    people = players({})
    record, _ = play_four(room, people)

    events = game_events(record)
    assert events[0]["level_multiplier"] == 4
    result = record.result
    bombs = bomb_factor(events)
    place = {seat: index for index, seat in enumerate(result["finish"])}
    base = [BASE[result["kou"]][place[seat]] for seat in range(4)]
    assert record.settlement["points"] == [value * bombs * 4 for value in base]
    coin_multiplier = min(bombs * 4, 6)
    paid = sum(-value * coin_multiplier * N for value in base if value < 0)
    share = paid // 2
    fee = share * 20 // 100
    assert record.settlement["coins"] == [
        share - fee if value > 0 else value * coin_multiplier * N for value in base]
    assert [line["fee"] for line in record.settlement["report"]["seats"]] == [
        fee if value > 0 else 0 for value in base]
    assert ledger_violations() == []
