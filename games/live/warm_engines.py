"""The engine game behind a GameRecord, kept warm per process.

An action needs the engine state at the row's ``seq``. Rebuilding it from the whole
log every time would cost a replay per action, so each process keeps recent games in
memory, with the facts of the row an action needs (:class:`GameFacts`), and applies
only the events it has not seen. A kept game is *taken* out while a step is computed
on it and put back only once the step is written (after commit), so memory never runs
ahead of the database, and two threads of a process never share one.

It also remembers each table's current game as this process last saw it, so an action
at a table needs no read to find its game (games.live.table_socket): a game that turns
out to have ended sends the caller back to the database.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from games.engine.game import Game
from games.models import GameEvent, GameRecord, Table

_CACHE_SIZE = 5000
_TABLES_SIZE = 20_000


@dataclass(frozen=True)
class GameFacts:
    """What a step needs of a game's row besides the engine. Fixed for the game's life,
    except the room's turn times, which a game keeps as they were when it was loaded."""

    game_id: int
    table_id: int
    bot_seats: frozenset[int]
    turn_seconds: int
    first_turn_seconds: int
    bot_level: str = "table"  # the game's (games.models.BotLevel)

    @classmethod
    def of(cls, record: GameRecord) -> GameFacts:
        return cls(game_id=record.pk, table_id=record.table_id,
                   bot_seats=frozenset(record.bot_seats),
                   turn_seconds=record.room.turn_seconds,
                   first_turn_seconds=record.room.first_turn_seconds,
                   bot_level=record.bot_level)


@dataclass
class WarmGame:
    facts: GameFacts
    game: Game

    @property
    def seq(self) -> int:
        return len(self.game.events)


_cache: OrderedDict[int, WarmGame] = OrderedDict()
_table_games: dict[int, int] = {}
_lock = threading.Lock()


def take(game_id: int) -> WarmGame | None:
    """The kept game, taken out (the caller puts it back with :func:`remember`)."""
    with _lock:
        return _cache.pop(game_id, None)


def load(game_id: int) -> WarmGame | None:
    """The game as committed, read from the database (no lock); None if there is none."""
    record = GameRecord.objects.select_related("room").filter(pk=game_id).first()
    if record is None:
        return None
    events = list(GameEvent.objects.filter(game=record, seq__lte=record.seq).order_by("seq")
                  .values_list("data", flat=True))
    return WarmGame(GameFacts.of(record), Game.replay(events))


def engine_for(record: GameRecord) -> Game:
    """The engine game at ``record.seq``; call with the game row locked."""
    warm = take(record.pk)
    game = warm.game if warm is not None else None
    if game is None or len(game.events) > record.seq:
        events = list(GameEvent.objects.filter(game=record).order_by("seq")
                      .values_list("data", flat=True))
        game = Game.replay(events)
    else:
        catch_up(game, record.pk, record.seq)
    return game


def catch_up(game: Game, game_id: int, seq: int) -> None:
    """Bring ``game``, an engine of ``game_id`` behind ``seq``, up to ``seq`` from the
    log: only the events it missed are read."""
    if len(game.events) < seq:
        for data in GameEvent.objects.filter(game_id=game_id, seq__gt=len(game.events),
                                             seq__lte=seq).order_by("seq") \
                .values_list("data", flat=True):
            game.apply(data)


def offer(record: GameRecord, game: Callable[[], Game]) -> bool:
    """A committed engine of ``record`` at ``record.seq``, read
    elsewhere (a socket's snapshot): kept for the game's next action if this process
    keeps none for it, and the table's game noted. ``game`` makes the engine, called
    only then (a copy: a reader's game is shared). A socket that fails over to a
    process that never loaded its table's game otherwise waited, at the table's first
    action, for two trips to the database thread (the table's game, then the game's
    log), behind every other opening there. An engine offered while an action holds
    the game's is overwritten when that action puts its own back; one behind the row
    is caught by the step's seq check (games.live.append). Returns whether it was kept."""
    if record.status != GameRecord.Status.PLAYING or record.pk in _cache:
        return False
    warm = WarmGame(GameFacts.of(record), game())
    with _lock:
        if record.pk in _cache:
            return False
        _keep(warm)
    return True


def remember(warm: WarmGame) -> None:
    """Keep ``warm`` for the next step of its game (after a commit, or unchanged)."""
    with _lock:
        _keep(warm)


def _keep(warm: WarmGame) -> None:
    """Keep ``warm`` as the newest game, forgetting the oldest past the cache's size,
    and note its table's game. Call with the lock held."""
    _cache[warm.facts.game_id] = warm
    _cache.move_to_end(warm.facts.game_id)
    while len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    _note(warm.facts.table_id, warm.facts.game_id)


def table_game(table_id: int) -> int | None:
    """The game this process last saw at ``table_id`` (it may have ended since)."""
    return _table_games.get(table_id)


def current_game(table_id: int) -> int | None:
    """The table's current game as its row says now (None: none), noted for the next
    action at the table."""
    game_id = Table.objects.filter(pk=table_id).values_list("current_game_id", flat=True) \
        .first()
    if game_id is not None:
        note_table_game(table_id, game_id)
    return game_id


def note_table_game(table_id: int, game_id: int) -> None:
    with _lock:
        _note(table_id, game_id)


def _note(table_id: int, game_id: int) -> None:
    if len(_table_games) >= _TABLES_SIZE and table_id not in _table_games:
        _table_games.clear()  # tables closed long ago: start afresh
    _table_games[table_id] = game_id
