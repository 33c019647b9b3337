"""The engine game behind a GameRecord, kept warm per process.

Each action locks the game row and needs the engine state at the row's ``seq``.
Rebuilding it from the whole log every time would cost a replay per action, so
each process keeps recent games in memory and applies only the events it has
not seen (another process may have moved the game on). Anything that fails
after the engine accepted an action drops the cached game, so memory never runs
ahead of the database.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from games.engine.game import Game
from games.models import GameEvent, GameRecord

_CACHE_SIZE = 5000
_cache: OrderedDict[int, Game] = OrderedDict()
_lock = threading.Lock()


def engine_for(record: GameRecord) -> Game:
    """The engine game at ``record.seq``; call with the game row locked."""
    with _lock:
        game = _cache.pop(record.pk, None)
    if game is None or len(game.events) > record.seq:
        events = list(GameEvent.objects.filter(game=record).order_by("seq")
                      .values_list("data", flat=True))
        game = Game.replay(events)
    elif len(game.events) < record.seq:
        for data in GameEvent.objects.filter(game=record, seq__gt=len(game.events)) \
                .order_by("seq").values_list("data", flat=True):
            game.apply(data)
    return game


def remember(record_id: int, game: Game) -> None:
    """Keep ``game`` for the next action on this record (after a commit)."""
    with _lock:
        _cache[record_id] = game
        _cache.move_to_end(record_id)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


def forget(record_id: int) -> None:
    with _lock:
        _cache.pop(record_id, None)
