"""Reads that the socket, the API and the pages share."""

from __future__ import annotations

from games.engine.game import Game

from .bots import bot_user_ids
from .models import GameEvent, GameRecord, Room, Seat, Table


def table_state(table: Table) -> dict:
    seats = list(Seat.objects.filter(table=table).select_related("user").order_by("index"))
    bots = bot_user_ids([seat.user_id for seat in seats if seat.user_id])
    return {
        "id": table.pk, "room": table.room_id, "number": table.number, "status": table.status,
        "game": table.current_game_id,
        "seats": [{
            "index": seat.index,
            "user": seat.user_id,
            "name": str(seat.user) if seat.user else None,
            "level": seat.user.level if seat.user else None,
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
    """What ``user_id`` may see of a game: their own hand if they play in it."""
    game = engine_snapshot(record)
    seat = record.players.index(user_id) if user_id in record.players else None
    view = game.view(seat)
    view["seq"] = record.seq
    view["id"] = record.pk
    view["settlement"] = record.settlement
    return view


def lobby_rooms() -> list[dict]:
    rooms = []
    for room in Room.objects.filter(is_open=True).select_related("rule_set"):
        seats = Seat.objects.filter(table__room=room)
        rooms.append({
            "id": room.pk, "name": room.name, "rule_set": room.rule_set.name,
            "kind": room.kind, "stake_unit": room.stake_unit, "coefficient": room.coefficient,
            "fee": room.fee, "min_coins": room.min_coins,
            "seats_taken": seats.filter(user__isnull=False).count(),
            "tables": room.tables.count(),
            "playing": room.tables.filter(status=Table.Status.PLAYING).count(),
        })
    return rooms
