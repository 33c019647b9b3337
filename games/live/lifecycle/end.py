"""The end of a game: its settlement (games.settlement), the ``settled`` event, and the
table open for the next game (RULES §8, §10)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.hooks.signals import table_reopened
from games.live.bot_accounts import bot_user_ids, stand_bots_if_alone
from games.live.broadcast import announce_seats, send_after_commit, table_group
from games.live.ready_deadline import ready_deadline
from games.live.series import end_series
from games.live.timing import log_settlement_lag
from games.models import GameEvent, GameRecord, PrivateTable, Seat, Series, Table
from games.settlement.settle import post_settlement
from ledger.selectors import coin_wallets


def game_settle(*, game_id: int) -> bool:
    """Post the points and coins of an ended game, store what each seat got, append
    the ``settled`` event and open the table for the next game. Idempotent: a
    settled game is left alone. Returns whether this call settled it."""
    with transaction.atomic():
        record = GameRecord.objects.select_for_update(of=("self",)) \
            .filter(pk=game_id).first()
        if record is None or record.status != GameRecord.Status.ENDED or record.settled_at:
            return False
        summary = post_settlement(record)
        record.settled_at = timezone.now()
        record.settlement = summary
        record.seq += 1
        event = {"seq": record.seq, "type": "settled", **summary}
        GameEvent.objects.create(game=record, seq=record.seq, type="settled", data=event)
        record.save(update_fields=["settled_at", "settlement", "seq"])
        log_settlement_lag(record)
        _reopen_table(record, record.result.get("escaped"))
        # Each player's coins after the settlement ride along, read here in two queries,
        # so that each seated socket does not read its own on its process's database
        # thread: 1,600 reads within a minute when 400 games end together (each socket
        # sends only its own user's; docs/protocol.md, "wallet").
        wallets = coin_wallets(list(record.players))
        send_after_commit(table_group(record.table_id), {
            "type": "game.events", "game": record.pk, "seq": record.seq, "turn": None,
            "deadline": None, "events": [event],
            "wallets": {str(user_id): wallet for user_id, wallet in wallets.items()}})
        table_reopened.send(sender=GameRecord, record=record)
    return True



def _reopen_table(record: GameRecord, escaped: int | None) -> None:
    table = Table.objects.select_for_update(of=("self",)).select_related("room") \
        .get(pk=record.table_id)
    finish = record.result["finish"]
    leavers = {record.players[seat] for seat in _left_seats(record, escaped)}
    table.status = Table.Status.WAITING
    table.current_game = None
    # The next first lead follows it (RULES §9); classic's is random after an escape,
    # also one an auto_play room played out.
    table.last_result = {"first_out": record.players[finish[0]], "kou": record.result["kou"],
                         "escaped": bool(leavers)}
    table.waiting_since = timezone.now()
    table.save(update_fields=["status", "current_game", "last_result", "waiting_since"])
    if leavers:
        end_series(table, Series.End.LEFT)  # a series is its players'
    bots = bot_user_ids(record.players)
    deadline = ready_deadline(ready_seconds=table.room.ready_seconds,
                              private=PrivateTable.objects.filter(table=table).exists())
    for seat in Seat.objects.filter(table=table, user__isnull=False):
        fields = ["user", "is_ready", "ready_deadline"]
        if seat.user_id in leavers:
            seat.user, seat.is_ready, seat.ready_deadline = None, False, None
            seat.connected = False  # the flag is the occupant's socket (games.live.seating)
            fields.append("connected")
        elif seat.user_id in bots:
            seat.is_ready, seat.ready_deadline = True, None
        else:
            seat.is_ready, seat.ready_deadline = False, deadline
        seat.save(update_fields=fields)
    stand_bots_if_alone(table)
    announce_seats(table.pk, table.room_id)


def _left_seats(record: GameRecord, escaped: int | None) -> set[int]:
    """Seats whose player escaped, in either escape mode."""
    seats = set() if escaped is None else {escaped}
    for data in GameEvent.objects.filter(game=record, type="escape") \
            .values_list("data", flat=True):
        seats.add(data["seat"])
    return seats
