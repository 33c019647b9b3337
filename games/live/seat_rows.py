"""A table's seats as plain rows for its public state (games.live.snapshots.table_state),
read with SQL built once per process.

The query annotates each seat with its player's point balance, level and bot flag
(subqueries) and the apps' seat fields (games.hooks.seat_fields). Django built it anew
at every read, about 4 ms of CPU, and the state is read at every seat announcement and
every socket's first snapshot: the largest part of opening a table socket
(docs/performance.md, "A start without a queue"). Its SQL differs between tables only
in the table's id, so it is compiled once (per set of seat fields) with a stand-in id
and run with the real one bound.
"""

from __future__ import annotations

import json
from types import SimpleNamespace

from django.db import connection
from django.db.models import Exists, F, OuterRef

from accounts.levels import level_at
from accounts.models import User
from accounts.selectors import point_balance
from games.hooks.seat_fields import seat_fields
from games.models import BotPlayer, Seat

_STAND_IN_ID = -7_304_219  # no table has it: it marks the parameter to bind
# Per set of seat fields; two threads compiling it at once both get the same SQL.
_compiled: dict[tuple[str, ...], tuple[str, tuple, int]] = {}


def seat_rows(table_id: int) -> list[SimpleNamespace]:
    """The seats of ``table_id`` by index, each with ``index``, ``user_id``, ``is_ready``,
    ``connected``, ``name`` (None when empty), ``points``, ``level_number``, ``is_bot``,
    ``config`` (the room's rule set, as stored), the seat fields' annotations and the
    table's own columns (``table_room``, ``table_number``, ``table_status``,
    ``table_game``: its public state needs no read of its own); in one query."""
    sql, params, at = _compiled_query()
    bound = params[:at] + (table_id,) + params[at + 1:]
    with connection.cursor() as cursor:
        cursor.execute(sql, bound)
        names = [column.name for column in cursor.description]
        rows = [SimpleNamespace(**dict(zip(names, values))) for values in cursor.fetchall()]
    config = rows[0].config if rows else None
    if isinstance(config, str):  # jsonb arrives as text, for JSONField to decode
        config = json.loads(config)
    for row in rows:
        row.config = config  # the table's one rule set, decoded once
        row.name = str(User(nickname=row.nickname, username=row.username)) \
            if row.user_id is not None else None
    return rows


def _compiled_query() -> tuple[str, tuple, int]:
    key = tuple(name for name, _field in seat_fields.items())
    kept = _compiled.get(key)
    if kept is None:
        sql, params = _queryset(_STAND_IN_ID).query.sql_with_params()
        kept = _compiled[key] = (sql, tuple(params), list(params).index(_STAND_IN_ID))
    return kept


def _queryset(table_id: int):
    extra = {key: value for _name, field in seat_fields.items()
             for key, value in field.annotations().items()}
    return (Seat.objects.filter(table_id=table_id)
            .annotate(points=point_balance("user_id"), level_number=level_at("points"),
                      is_bot=Exists(BotPlayer.objects.filter(user_id=OuterRef("user_id"))),
                      **extra)
            .order_by("index")
            .values("index", "user_id", "is_ready", "connected", "points", "level_number",
                    "is_bot", *extra, nickname=F("user__nickname"),
                    username=F("user__username"), config=F("table__room__rule_set__config"),
                    table_room=F("table__room_id"), table_number=F("table__number"),
                    table_status=F("table__status"), table_game=F("table__current_game_id")))
