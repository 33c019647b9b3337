"""Reads that the socket, the API and the pages share."""

from __future__ import annotations

from django.db.models import Count, Q

from accounts.selectors import levels_of
from games.engine.game import Game

from .bots import bot_user_ids
from .models import GameEvent, GameRecord, Room, Seat, Table


def table_state(table: Table) -> dict:
    seats = list(Seat.objects.filter(table=table).select_related("user").order_by("index"))
    bots = bot_user_ids([seat.user_id for seat in seats if seat.user_id])
    levels = levels_of(seat.user_id for seat in seats if seat.user_id)
    return {
        "id": table.pk, "room": table.room_id, "number": table.number, "status": table.status,
        "game": table.current_game_id,
        "seats": [{
            "index": seat.index,
            "user": seat.user_id,
            "name": str(seat.user) if seat.user else None,
            "level": levels[seat.user_id] if seat.user else None,
            "ready": seat.is_ready,
            "bot": seat.user_id in bots,
            "connected": seat.connected,
        } for seat in seats],
    }


def engine_snapshot(record: GameRecord) -> Game:
    """A fresh replay of the committed log (reads never touch the warm cache)."""
    events = list(GameEvent.objects.filter(game=record, seq__lte=record.seq)
                  .order_by("seq").values_list("data", flat=True))
    return Game.replay(events)


def game_view(record: GameRecord, user_id: int | None) -> dict:
    """What ``user_id`` may see of a game: their own hand if they play in it, and the
    current turn's deadline (ISO 8601, UTC) as of ``record``."""
    game = engine_snapshot(record)
    seat = record.players.index(user_id) if user_id in record.players else None
    view = game.view(seat)
    view["seq"] = record.seq
    view["id"] = record.pk
    view["settlement"] = record.settlement
    # The turn's deadline as `events` messages carry it (games.actions._commit), so a
    # page that (re)connects shows the countdown at once; null once the game is over.
    view["deadline"] = record.deadline.isoformat() if record.deadline else None
    return view


def lobby_rooms() -> list[dict]:
    """The open rooms as the lobby and ``GET /api/rooms`` show them, in one query."""
    taken = Q(tables__seats__user__isnull=False)
    playing = Q(tables__status=Table.Status.PLAYING)
    rooms = (Room.objects.filter(is_open=True).select_related("rule_set")
             .annotate(seats_taken=Count("tables__seats", filter=taken),
                       table_count=Count("tables", distinct=True),
                       playing=Count("tables", filter=playing, distinct=True)))
    return [{
        "id": room.pk, "name": room.name,
        "rule_set": room.rule_set.name, "rule_set_label": room.rule_set.label,
        "seats_per_table": room.seat_count(),
        "kind": room.kind, "kind_label": room.get_kind_display(),
        "stake_unit": room.stake_unit, "coefficient": room.coefficient, "fee": room.fee,
        "min_coins": room.min_coins, "max_loss": room.max_loss,
        "turn_seconds": room.turn_seconds, "escape_mode": room.escape_mode,
        "seats_taken": room.seats_taken, "tables": room.table_count,
        "playing": room.playing,
    } for room in rooms]
