"""The games app's models, by what they hold: ``rooms`` (rule sets, rooms, the bots'
accounts), ``tables`` (tables, seats, sockets, private tables and their series),
``records`` (games and their event logs)."""

from games.models.records import EscapeManager, GameEscape, GameEvent, GameRecord
from games.models.rooms import (
    MIN_READY_SECONDS,
    MIN_TURN_SECONDS,
    BotLevel,
    BotPlayer,
    Room,
    RuleSetConfig,
)
from games.models.tables import (
    PrivateTable,
    Seat,
    Series,
    SocketProcess,
    Table,
    TableSocket,
)

__all__ = [
    "MIN_READY_SECONDS", "MIN_TURN_SECONDS", "BotLevel", "BotPlayer", "EscapeManager",
    "GameEscape", "GameEvent", "GameRecord", "PrivateTable", "Room", "RuleSetConfig", "Seat",
    "Series", "SocketProcess", "Table", "TableSocket",
]
