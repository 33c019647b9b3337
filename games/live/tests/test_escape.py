"""Leaving a running game over the socket (逃跑, RULES §10) in both escape modes, in a
points room and in a coin room, through the settlement and the ledger."""

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from games.live import sweeps
from games.live.seating import room_quick_join
from games.models import GameRecord, Seat, Table
from games.testing.live_helpers import (
    connect_all,
    db,
    events_of,
    expire_turn,
    make_coin_room,
    make_person,
    make_room,
    run,
    start_game,
)
from ledger.audit import ledger_violations
from ledger.models import Currency, SystemAccount
from ledger.services import balance_of, grant_coins, system_account

pytestmark = pytest.mark.django_db(transaction=True)

STARTING_COINS = 100_000
N, FEE = 100, 10  # the coin room's coefficient and fee
PENALTY_UNITS = 12  # qq's escape penalty (RULES §10)


def setup_room(kind: str, mode: str):
    if kind == "coins":
        room = make_coin_room(coefficient=N, fee=FEE, min_coins=2000, max_loss=50_000,
                              escape_mode=mode)
        unit = 1
    else:
        room = make_room(stake_unit=2, escape_mode=mode)
        unit = 2
    alice, bob = make_person("alice"), make_person("bob")
    if kind == "coins":
        for user in (alice, bob):
            grant_coins(user=user, amount=STARTING_COINS, key=f"grant:test:{uuid.uuid4()}")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id
    return room, unit, alice, bob, table_id


def fees_collected() -> int:
    return system_account(SystemAccount.FEES, Currency.COIN).balance


@pytest.mark.parametrize("kind", ["points", "coins"])
def test_leaving_in_end_game_mode_ends_the_game_and_the_escaper_pays(kind):
    room, unit, alice, bob, table_id = setup_room(kind, "end_game")

    async def scenario():
        a, b = await connect_all(table_id, alice, bob)
        await start_game([a, b])
        await a.send({"type": "leave", "seq": a.seq})
        ended = await b.expect("events", lambda m: m["events"][-1]["type"] == "end")
        settled = await b.expect("events", lambda m: m["events"][-1]["type"] == "settled")
        await a.expect("events", lambda m: m["events"][-1]["type"] == "settled")
        # The game is over and settled: there is nothing left to act on.
        await a.send({"type": "trustee", "on": False, "ref": 1})
        refused = await a.expect("error")
        for client in (a, b):
            await client.close()
        return a.seat, ended, settled, refused

    escaper, ended, settled, refused = run(scenario)
    record = GameRecord.objects.get()
    assert ended["events"][0] == {"seq": ended["events"][0]["seq"], "type": "escape",
                                  "seat": escaper, "mode": "end_game"}
    result = ended["events"][1]["result"]
    assert result == record.result and result["kou"] == "escape"
    assert result["escaped"] == escaper and result["penalty"] == PENALTY_UNITS
    contributions = result["contributions"]
    # The others score 0 base; contributions stand; the escaper pays 12 (RULES §10).
    assert result["base"] == [0, 0, 0, 0]
    assert result["scores"] == [c - (PENALTY_UNITS if seat == escaper else 0)
                                for seat, c in enumerate(contributions)]
    assert record.settlement["points"] == [score * unit for score in result["scores"]]
    assert settled["events"][0]["points"] == record.settlement["points"]
    assert balance_of(alice, Currency.POINT) == result["scores"][escaper] * unit
    if kind == "coins":
        # 12 × N from the escaper; 70 % shared by the three others, 30 % to 系统回收.
        share = PENALTY_UNITS * N * 70 // 100 // 3
        expected = [c * N - FEE + (-PENALTY_UNITS * N if seat == escaper else share)
                    for seat, c in enumerate(contributions)]
        assert record.settlement["coins"] == expected
        assert balance_of(alice, Currency.COIN) == STARTING_COINS + expected[escaper]
        bob_seat = record.players.index(bob.pk)
        assert balance_of(bob, Currency.COIN) == STARTING_COINS + expected[bob_seat]
        assert fees_collected() == 4 * FEE + PENALTY_UNITS * N - 3 * share
    else:
        assert record.settlement["coins"] == [0, 0, 0, 0]
    assert refused["message"] == "no game is running at this table" and refused["ref"] == 1
    # The escaper's seat is free; bob stays and must get ready again.
    assert not Seat.objects.filter(user=alice).exists()
    assert Seat.objects.get(user=bob).is_ready is False
    assert Table.objects.get(pk=table_id).status == Table.Status.WAITING
    assert ledger_violations() == []


@pytest.mark.parametrize("kind", ["points", "coins"])
def test_leaving_in_auto_play_mode_leaves_the_seat_in_trustee_to_the_end(kind):
    room, unit, alice, bob, table_id = setup_room(kind, "auto_play")

    async def scenario():
        a, b = await connect_all(table_id, alice, bob)
        await start_game([a, b])
        await a.send({"type": "leave", "seq": a.seq})
        left = await b.expect("events", lambda m: m["events"][0]["type"] == "escape")
        await a.expect("events", lambda m: m["seq"] >= left["seq"])
        await a.drain(0.1)
        # An escaped seat stays in 托管 and cannot leave twice.
        await a.send({"type": "trustee", "on": False, "ref": "back"})
        back = await a.expect("error")
        await a.send({"type": "leave", "ref": "twice"})
        twice = await a.expect("error")
        # Bob hands his seat to 托管 too: the game plays itself to the end.
        await b.send({"type": "trustee", "on": True})
        settled = await b.expect("events", lambda m: m["events"][-1]["type"] == "settled")
        for client in (a, b):
            await client.close()
        return a.seat, left, back, twice, settled

    escaper, left, back, twice, settled = run(scenario)
    record = GameRecord.objects.get()
    assert left["events"][:2] == [
        {"seq": left["events"][0]["seq"], "type": "escape", "seat": escaper,
         "mode": "auto_play"},
        {"seq": left["events"][0]["seq"] + 1, "type": "trustee", "seat": escaper, "on": True,
         "reason": "escape"}]
    assert back["message"] == "a seat that escaped stays in autoplay to the end"
    assert twice["message"] == "this seat has already left the game"
    # The game went on: 托管 moved for the escaper, and it ended normally.
    after = [event for event in events_of(record.pk) if event["seq"] > left["seq"]]
    assert any(event.get("seat") == escaper and event["type"] in ("play", "pass")
               and event["by"] != "player" for event in after)
    result = record.result
    assert result["kou"] in ("double", "single", "draw") and result["escaped"] is None
    assert record.settlement["points"] == [score * unit for score in result["scores"]]
    assert settled["events"][-1]["points"] == record.settlement["points"]
    if kind == "coins":
        # Settled normally: score × N − A each (no loss here reaches the frozen 50 000).
        expected = [score * N - FEE for score in result["scores"]]
        assert record.settlement["coins"] == expected
        assert balance_of(alice, Currency.COIN) == STARTING_COINS + expected[escaper]
        assert fees_collected() == 4 * FEE
    assert balance_of(alice, Currency.POINT) == result["scores"][escaper] * unit
    # After the game the escaper's seat is freed; bob keeps his.
    assert not Seat.objects.filter(user=alice).exists()
    assert Seat.objects.filter(user=bob, table_id=table_id).exists()
    assert ledger_violations() == []


def expire_and_sweep(game_id: int) -> int:
    expire_turn(game_id)
    return sweeps.sweep_deadlines()


def test_an_escaped_seat_cannot_move_while_trustee_waits_to_play_it(settings):
    settings.GAMES_BOT_THINK_SECONDS = 30  # bots and 托管 seats wait for their deadline
    room, unit, alice, bob, table_id = setup_room("points", "auto_play")

    async def scenario():
        a, b = await connect_all(table_id, alice, bob)
        game_id = await start_game([a, b])
        while (await db(GameRecord.objects.get)(pk=game_id)).turn != a.seat:
            assert await db(expire_and_sweep)(game_id) == 1  # bots move, bob times out
        await a.drain(0.1)
        assert a.my_turn
        await a.send({"type": "leave", "seq": a.seq})
        left = await a.expect("events")
        record = await db(GameRecord.objects.get)(pk=game_id)
        move, _ = a.choose("first")  # a legal play if there is one: refused for the escape
        cards = a.codes_for(move) if move is not None else a.hand[:1]
        await a.send({"type": "play", "cards": cards, "seq": a.seq, "ref": 1})
        refused = await a.expect("error")
        await a.send({"type": "pass", "seq": a.seq, "ref": 2})
        refused_pass = await a.expect("error")
        after = await db(GameRecord.objects.get)(pk=game_id)
        # When 托管's think time is up, the sweeper plays the escaped seat.
        assert await db(expire_and_sweep)(game_id) == 1
        moved = await a.expect("events")
        for client in (a, b):
            await client.close()
        return a.seat, left, record, refused, refused_pass, after, moved

    seat, left, record, refused, refused_pass, after, moved = run(scenario)
    assert [event["type"] for event in left["events"]] == ["escape", "trustee"]
    assert record.turn == seat and record.deadline > timezone.now() + timedelta(seconds=20)
    for error in (refused, refused_pass):
        assert error["message"] == "you left this game: autoplay plays this seat to the end"
    assert after.seq == record.seq
    assert moved["events"][0]["seat"] == seat and moved["events"][0]["by"] == "bot"
