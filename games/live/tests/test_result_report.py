"""The result panel's report (docs/protocol.md, "settled"; games.settlement.report),
checked against the settled game and its ledger postings, for a seeded coin-room game
and a points-room game played over the socket; and the ``wallet`` messages a player's
socket gets at the deal and after the settlement."""

import uuid

import pytest

from games.engine.game import Game
from games.live.seating import room_quick_join
from games.models import GameEvent, GameRecord
from games.testing.live_helpers import (
    TableClient,
    make_coin_room,
    make_person,
    make_room,
    run,
    start_game,
)
from ledger.models import Currency, Hold, Leg, SystemAccount, Transaction
from ledger.services import balance_of, grant_coins

pytestmark = pytest.mark.django_db(transaction=True)

COINS = 100_000
N, FEE, STAKE = 100, 10, 50_000


def play_alone_with_bots(room, alice):
    """Alice and three bots play to the settlement; she plays her own legal moves."""
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        a = TableClient(alice, table_id)
        await a.connect()
        await start_game([a])
        await a.play_until_settled("trustee")
        # Sent right after the events message that carries `settled`.
        wallet_after = await a.expect("wallet")
        await a.send({"type": "snapshot"})
        snapshot = await a.expect("snapshot")
        await a.close()
        return a, snapshot, wallet_after

    return run(scenario)


def settled_event(client: TableClient) -> dict:
    return next(event for message in client.log if message["type"] == "events"
                for event in message["events"] if event["type"] == "settled")


def check_against_the_game(record: GameRecord, report: dict) -> Game:
    """What the engine says: kou, multiplier, base, contributions, totals, bombs and the
    hands left, derived afresh from the log."""
    events = list(GameEvent.objects.filter(game=record, seq__lte=record.seq)
                  .order_by("seq").values_list("data", flat=True))
    game = Game.replay([event for event in events if event["type"] != "settled"])
    result = record.result
    assert report["kou"] == result["kou"] and report["multiplier"] == result["multiplier"]
    assert [seat["seat"] for seat in report["seats"]] == [0, 1, 2, 3]
    assert [seat["base"] for seat in report["seats"]] == result["base"]
    assert [seat["contribution"] for seat in report["seats"]] == result["contributions"]
    assert [seat["total"] for seat in report["seats"]] == result["scores"]
    # Bombs: who played them, with their stars, as the engine recorded them (RULES §4.1).
    assert [(bomb["seat"], bomb["stars"]) for bomb in report["bombs"]] == [
        (bomb.seat, bomb.stars) for bomb in game.bombs]
    plays = [event for event in events if event["type"] == "play"]
    for bomb in report["bombs"]:
        assert any(play["seat"] == bomb["seat"] and play["cards"] == bomb["cards"]
                   and play["reading"]["type"] == bomb["kind"] for play in plays)
    # The cards left are the dealt hand less what the seat played.
    assert [seat["left"] for seat in report["seats"]] == game.hands
    for seat in report["seats"]:
        played = {code for play in plays if play["seat"] == seat["seat"] for code in play["cards"]}
        assert not set(seat["left"]) & played
    assert sum(len(seat["left"]) for seat in report["seats"]) == \
        108 - sum(len(play["cards"]) for play in plays)
    return game


def settlement_legs(record: GameRecord):
    posted = Transaction.objects.get(key=f"settle:{record.ledger_key}")
    return posted, Leg.objects.filter(transaction=posted)


def test_a_coin_room_game_reports_the_fee_and_the_coins_the_ledger_moved():
    room = make_coin_room(coefficient=N, fee=FEE, max_loss=STAKE)
    alice = make_person("alice")
    grant_coins(user=alice, amount=COINS, key=f"grant:test:{uuid.uuid4()}")

    a, snapshot, wallet_after = play_alone_with_bots(room, alice)

    record = GameRecord.objects.get()
    report = settled_event(a)["report"]
    assert report == record.settlement["report"] == snapshot["game"]["settlement"]["report"]
    assert report["room"] == "coins" and report["base_unit"] == N
    check_against_the_game(record, report)
    assert report["bombs"]  # the seeded deal has bombs: the bomb checks above ran
    posted, legs = settlement_legs(record)
    holds = {hold.user_id: hold for hold in Hold.objects.filter(game_key=record.ledger_key)}
    for seat, line in enumerate(report["seats"]):
        user_id = record.players[seat]
        # Coins: what came back to the player less what was frozen (RULES §8).
        back = legs.get(account__user_id=user_id, account__currency=Currency.COIN).amount
        assert line["coins"] == back - holds[user_id].amount
        points = legs.filter(account__user_id=user_id, account__currency=Currency.POINT)
        assert line["points"] == sum(leg.amount for leg in points)
        # Nobody can lose more than the stake here: each pays the whole fee A.
        assert line["fee"] == FEE
        assert line["coins"] == line["total"] * N - FEE
    fees_leg = legs.get(account__system=SystemAccount.FEES, account__currency=Currency.COIN)
    assert fees_leg.amount == sum(line["fee"] for line in report["seats"])
    # The wallet: frozen at the deal, released by the settlement.
    dealt = next(message for message in a.log if message["type"] == "wallet")
    assert dealt == {"type": "wallet", "balance": COINS - STAKE, "frozen": STAKE}
    assert wallet_after == {"type": "wallet", "frozen": 0,
                            "balance": balance_of(alice, Currency.COIN)}
    assert wallet_after["balance"] == COINS + report["seats"][a.seat]["coins"]
    assert posted.kind == "settlement"


def test_a_points_room_game_reports_points_and_no_coins_or_fees():
    room = make_room(stake_unit=3)
    alice = make_person("alice")

    a, snapshot, wallet_after = play_alone_with_bots(room, alice)

    record = GameRecord.objects.get()
    report = settled_event(a)["report"]
    assert report == record.settlement["report"] == snapshot["game"]["settlement"]["report"]
    assert report["room"] == "points" and report["base_unit"] == 3
    check_against_the_game(record, report)
    assert report["bombs"]  # the seeded deal has bombs: the bomb checks above ran
    _, legs = settlement_legs(record)
    for seat, line in enumerate(report["seats"]):
        points = legs.get(account__user_id=record.players[seat],
                          account__currency=Currency.POINT).amount
        assert line["points"] == points == line["total"] * 3
        assert line["coins"] == 0 and line["fee"] == 0
    assert not legs.filter(account__currency=Currency.COIN).exists()
    # A points room freezes and moves no coins: the wallets say so.
    wallets = [message for message in a.log if message["type"] == "wallet"]
    assert len(wallets) == 2 and wallet_after == wallets[-1]
    assert all(wallet == {"type": "wallet", "balance": 0, "frozen": 0} for wallet in wallets)


def test_the_wallet_after_the_settlement_comes_with_it_not_from_a_read_per_socket(
        monkeypatch):
    """The settlement sends every player's wallet with the ``settled`` event; each seated
    socket passes on its own user's without a read on its process's database thread
    (400 games ending together made 1,600 such reads)."""
    from games.live import table_socket

    reads = []

    def counted(user_id):
        reads.append(user_id)
        return {"balance": -1, "frozen": -1}

    monkeypatch.setattr(table_socket, "coin_wallet", counted)
    room = make_coin_room(coefficient=N, fee=FEE, max_loss=STAKE)
    alice = make_person("alice")
    grant_coins(user=alice, amount=COINS, key=f"grant:test:{uuid.uuid4()}")

    a, _, wallet_after = play_alone_with_bots(room, alice)

    assert reads == []
    # the players' wallets ride on the layer only: no client sees another's coins
    assert not any("wallets" in message for message in a.log)
    assert wallet_after == {"type": "wallet", "frozen": 0,
                            "balance": balance_of(alice, Currency.COIN)}
    assert wallet_after["balance"] == COINS + settled_event(a)["report"]["seats"][a.seat]["coins"]


def test_a_settled_message_without_the_wallets_still_brings_the_socket_its_own():
    """A ``settled`` message that carries no wallets (one queued before a deploy, say):
    the seated socket reads its user's coins itself."""
    from channels.layers import get_channel_layer

    from games.live.broadcast import table_group

    room = make_coin_room(coefficient=N, fee=FEE, max_loss=STAKE)
    alice = make_person("alice")
    grant_coins(user=alice, amount=COINS, key=f"grant:test:{uuid.uuid4()}")
    table_id = room_quick_join(user=alice, room_id=room.pk).table_id

    async def scenario():
        a = TableClient(alice, table_id)
        await a.connect()
        await get_channel_layer().group_send(table_group(table_id), {
            "type": "game.events", "game": 1, "seq": 9, "turn": None, "deadline": None,
            "events": [{"seq": 9, "type": "settled"}]})
        await a.expect("events")
        wallet = await a.expect("wallet")
        await a.close()
        return wallet

    assert run(scenario) == {"type": "wallet", "balance": COINS, "frozen": 0}
