"""What a table and its game look like to one reader: the seats (public) and a seat's
or a spectator's view of the game (hidden hands stay hidden, GUIDE). Read by the
table socket, the table page and the API."""

from __future__ import annotations

from accounts.selectors import levels_of
from games.engine.game import Game
from games.live.bot_accounts import bot_user_ids
from games.models import GameEvent, GameRecord, Seat, Table


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
    # The turn's deadline as `events` messages carry it (games.live.lifecycle._commit), so a
    # page that (re)connects shows the countdown at once; null once the game is over.
    view["deadline"] = record.deadline.isoformat() if record.deadline else None
    return view
