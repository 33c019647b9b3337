"""What a table and its game look like to one reader: the seats (public) and a seat's
or a spectator's view of the game (hidden hands stay hidden, GUIDE). Read by the
table socket, the table page and the API."""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict

from games.engine.game import Game
from games.engine.scoring import level_multiplier
from games.hooks.seat_fields import seat_fields
from games.ladders import ladder_level, own_ladder
from games.live import warm_engines
from games.live.seat_rows import seat_rows
from games.models import GameEvent, GameRecord, Table


def table_state(table: Table) -> dict:
    """The table's public state: its seats with their players' names, levels, bot
    flags and connections, read in one query (games.live.seat_rows: it is read at every
    seat change). In a room whose rule set has a ladder of its own (classic, RULES §9)
    the levels are on that ladder, and ``level_multiplier`` is the 等级倍率 of the
    players seated now."""
    return _public_state(seat_rows(table.pk), id=table.pk, room=table.room_id,
                         number=table.number, status=table.status,
                         game=table.current_game_id)


def table_state_by_id(table_id: int) -> dict | None:
    """:func:`table_state` of a table known by its id, the table's columns read with its
    seats in the same one query; None when there is no such table (every table has
    its seats from its creation, games.live.seating.table_create)."""
    seats = seat_rows(table_id)
    if not seats:
        return None
    first = seats[0]
    return _public_state(seats, id=table_id, room=first.table_room, number=first.table_number,
                         status=first.table_status, game=first.table_game)


def _public_state(seats: list, *, id: int, room: int, number: int, status: str,
                  game: int | None) -> dict:
    fields = seat_fields.items()
    ladder = own_ladder(seats[0].config) if seats else None
    seated = [seat for seat in seats if seat.user_id is not None]
    state = {
        "id": id, "room": room, "number": number, "status": status, "game": game,
        "seats": [{
            "index": seat.index,
            "user": seat.user_id,
            "name": seat.name,
            "level": (ladder_level(ladder, seat.points) if ladder else seat.level_number)
            if seat.user_id is not None else None,
            "ready": seat.is_ready,
            "bot": seat.is_bot,
            "connected": seat.connected,
            **{name: field.value(seat) for name, field in fields},
        } for seat in seats],
    }
    if ladder is not None:
        state["level_multiplier"] = level_multiplier(ladder, [seat.points for seat in seated])
    return state


# Reads' own engines, per process, apart from games.live.warm_engines (whose games
# are touched only with the game row locked, and change in place). A game kept here
# is never changed again: readers on any thread share it, read-only. Replaying the
# whole log for every snapshot on the process's one database thread let one user's
# snapshot requests stall every table; now a snapshot at a seq already
# read costs no query, and one a few events later reads only those events.
_READ_CACHE_SIZE = 2000
_read_cache: OrderedDict[int, tuple[int, Game]] = OrderedDict()
_read_lock = threading.Lock()


def engine_snapshot(record: GameRecord) -> Game:
    """The engine state at ``record.seq``, from the committed log. **Read-only**: the
    game may be shared with other readers (and so may the lists its ``view`` returns)."""
    with _read_lock:
        kept = _read_cache.get(record.pk)
        if kept is not None:
            _read_cache.move_to_end(record.pk)
    if kept is not None and kept[0] == record.seq:
        return kept[1]
    if kept is not None and kept[0] < record.seq:
        game = _unshared_copy(kept[1])
        for data in GameEvent.objects.filter(game=record, seq__gt=kept[0], seq__lte=record.seq) \
                .order_by("seq").values_list("data", flat=True):
            game.apply(data)
    else:
        game = Game.replay(list(GameEvent.objects.filter(game=record, seq__lte=record.seq)
                                .order_by("seq").values_list("data", flat=True)))
    with _read_lock:
        newest = _read_cache.get(record.pk)
        if newest is None or newest[0] < record.seq:
            _read_cache[record.pk] = (record.seq, game)
            _read_cache.move_to_end(record.pk)
            while len(_read_cache) > _READ_CACHE_SIZE:
                _read_cache.popitem(last=False)
    return game


def _unshared_copy(game: Game) -> Game:
    """A copy of a kept game that may be moved on. Logged events are never changed
    (each is folded as it is), so the copy shares them rather than copying the log."""
    return copy.deepcopy(game, {id(event): event for event in game.events})


def game_view(record: GameRecord, user_id: int | None) -> dict:
    """What ``user_id`` may see of a game: their own hand if they play in it, and the
    current turn's deadline (ISO 8601, UTC) as of ``record``."""
    return seat_view(record, engine_snapshot(record), user_id)


def seat_view(record: GameRecord, game: Game, user_id: int | None) -> dict:
    """:func:`game_view` from ``game``, the engine at ``record.seq``, rather than read:
    the deal builds each seat's view from the engine it dealt (games.live.lifecycle).
    The view shares lists with ``game``: copy it before ``game`` moves on."""
    # No seat for a missing id (an anonymous reader), whatever a list of players holds.
    seat = record.players.index(user_id) \
        if user_id is not None and user_id in record.players else None
    view = game.view(seat)
    view["seq"] = record.seq
    view["id"] = record.pk
    view["settlement"] = record.settlement
    # The turn's deadline as `events` messages carry it (games.live.lifecycle.steps), so a
    # page that (re)connects shows the countdown at once; null once the game is over.
    view["deadline"] = record.deadline.isoformat() if record.deadline else None
    return view


def table_snapshot(table_id: int, user_id: int) -> dict:
    """The ``snapshot`` message of ``table_id`` for ``user_id`` (docs/protocol.md): the
    table, and its current game (else its last one) as this user may see it: the table
    with its seats in one query, the game's row in another, and the game's log only
    where the engine kept for it is behind."""
    table = table_state_by_id(table_id)
    if table is None:
        raise Table.DoesNotExist(f"no table {table_id}")
    game = None
    games = GameRecord.objects.order_by("-pk")
    record = (games.filter(pk=table["game"]) if table["game"] is not None
              else games.filter(table_id=table_id)).first()
    if record is not None:
        engine = engine_snapshot(record)
        game = seat_view(record, engine, user_id)
        # The table's next action here needs no trip to the database thread (the offer
        # reads the room's turn times only when it keeps the engine: once per game).
        warm_engines.offer(record, lambda: _unshared_copy(engine))
    return {"type": "snapshot", "table": table, "game": game,
            "seq": game["seq"] if game else 0}
