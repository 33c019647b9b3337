"""Settling a finished game through the ledger (RULES §7, §8, §10), exactly once."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.engine.rulesets import RuleSet
from ledger.models import Currency, Leg
from ledger.services import Escape, settle_game

from .bots import bot_user_ids
from .broadcast import LOBBY_GROUP, announce_table, send_after_commit, table_group
from .models import GameEvent, GameRecord, Seat, Table


def game_settle(*, game_id: int) -> bool:
    """Post the points and coins of an ended game, store what each seat got, append
    the ``settled`` event and open the table for the next game. Idempotent: a
    settled game is left alone. Returns whether this call settled it."""
    with transaction.atomic():
        record = GameRecord.objects.select_for_update(of=("self",)) \
            .filter(pk=game_id).first()
        if record is None or record.status != GameRecord.Status.ENDED or record.settled_at:
            return False
        result, terms = record.result, record.terms
        users = User.objects.in_bulk(record.players)
        players = [users[user_id] for user_id in record.players]
        escaped = result.get("escaped")
        escape = None
        scores = result["scores"]
        if escaped is not None:
            escape = Escape(seat=escaped, penalty_units=result["penalty"],
                            compensation_percent=_dealt_rules(record).escape_compensation_percent)
            scores = result["contributions"]
        # The terms and rules the game was dealt with, whatever the room says now.
        posted = settle_game(game_key=record.ledger_key, players=players, scores=scores,
                             stake_unit=terms["stake_unit"], coins=terms["coins"],
                             coefficient=terms["coefficient"], fee=terms["fee"], escape=escape)
        summary = _summary(posted, record.players)
        record.settled_at = timezone.now()
        record.settlement = summary
        record.seq += 1
        event = {"seq": record.seq, "type": "settled", **summary}
        GameEvent.objects.create(game=record, seq=record.seq, type="settled", data=event)
        record.save(update_fields=["settled_at", "settlement", "seq"])
        _reopen_table(record, escaped)
        send_after_commit(table_group(record.table_id), {
            "type": "game.events", "game": record.pk, "seq": record.seq, "turn": None,
            "deadline": None, "events": [event]})
    return True


def _dealt_rules(record: GameRecord) -> RuleSet:
    deal = GameEvent.objects.filter(game=record, type="deal").values_list("data", flat=True) \
        .first()
    return RuleSet.from_dict(deal["rules"])


def _summary(posted, players: list[int]) -> dict:
    """Points and coins each seat received (what the result panel shows)."""
    points = [0] * len(players)
    coins = [0] * len(players)
    if posted is not None:
        for user_id, currency, amount in Leg.objects.filter(
                transaction=posted, account__user_id__in=players, hold__isnull=True) \
                .values_list("account__user_id", "account__currency", "amount"):
            target = points if currency == Currency.POINT else coins
            target[players.index(user_id)] += amount
        # Coins came back out of escrow: a player's change is the return less the hold.
        for user_id, amount in Leg.objects.filter(transaction=posted, hold__isnull=False) \
                .values_list("hold__user_id", "amount"):
            coins[players.index(user_id)] += amount
    return {"points": points, "coins": coins}


def _reopen_table(record: GameRecord, escaped: int | None) -> None:
    table = Table.objects.select_for_update(of=("self",)).select_related("room") \
        .get(pk=record.table_id)
    finish = record.result["finish"]
    table.status = Table.Status.WAITING
    table.current_game = None
    table.last_result = {"first_out": record.players[finish[0]], "kou": record.result["kou"]}
    table.waiting_since = timezone.now()
    table.save(update_fields=["status", "current_game", "last_result", "waiting_since"])
    leavers = {record.players[seat] for seat in _left_seats(record, escaped)}
    bots = bot_user_ids(record.players)
    deadline = timezone.now() + timedelta(seconds=table.room.ready_seconds)
    for seat in Seat.objects.filter(table=table, user__isnull=False):
        fields = ["user", "is_ready", "ready_deadline"]
        if seat.user_id in leavers:
            seat.user, seat.is_ready, seat.ready_deadline = None, False, None
            seat.connected = False  # the flag is the occupant's socket (games.tables)
            fields.append("connected")
        elif seat.user_id in bots:
            seat.is_ready, seat.ready_deadline = True, None
        else:
            seat.is_ready, seat.ready_deadline = False, deadline
        seat.save(update_fields=fields)
    if not [user for user in record.players if user not in bots and user not in leavers]:
        Seat.objects.filter(table=table).update(user=None, is_ready=False, ready_deadline=None,
                                                connected=False)
        table.waiting_since = None
        table.save(update_fields=["waiting_since"])
    announce_table(table.pk)
    send_after_commit(LOBBY_GROUP, {"type": "lobby.changed", "room": table.room_id})


def _left_seats(record: GameRecord, escaped: int | None) -> set[int]:
    """Seats whose player escaped, in either escape mode."""
    seats = set() if escaped is None else {escaped}
    for data in GameEvent.objects.filter(game=record, type="escape") \
            .values_list("data", flat=True):
        seats.add(data["seat"])
    return seats
