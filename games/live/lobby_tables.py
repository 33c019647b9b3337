"""The tables the lobby lists under each room: who sits there (bots marked) and whether
they play, for the watch (旁观) links. Read in two queries whatever the number of rooms
and tables: the rooms fragment is rendered at every seat change (games.live.lobby)."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Count, Exists, F, OuterRef, Prefetch, Window
from django.db.models.functions import RowNumber

from games.models import BotPlayer, Seat, Table

# A busy room has hundreds of tables: the list shows the first few of those where someone
# sits, and says how many more there are. Every lobby socket is sent the whole fragment.
TABLES_PER_ROOM = 6


def lobby_tables(room_ids: list[int]) -> dict[int, dict]:
    """Room id → ``{"listed_tables": [...], "more_tables": int}``: up to TABLES_PER_ROOM
    tables of the room where someone sits, by table number, each with its seated players
    in seat order (``name``, ``bot``), and how many such tables are not listed."""
    if not room_ids:
        return {}
    someone_sits = Exists(Seat.objects.filter(table=OuterRef("pk"), user__isnull=False))
    players = (Seat.objects.filter(user__isnull=False).select_related("user")
               .annotate(is_bot=Exists(BotPlayer.objects.filter(user_id=OuterRef("user_id"))))
               .order_by("index"))
    # Private tables (好友房) are their players' business: never listed.
    tables = (Table.objects.filter(someone_sits, room_id__in=room_ids, private__isnull=True)
              .annotate(place=Window(RowNumber(), partition_by=[F("room_id")],
                                     order_by=[F("number").asc()]),
                        occupied=Window(Count("pk"), partition_by=[F("room_id")]))
              .filter(place__lte=TABLES_PER_ROOM)
              .order_by("room_id", "number")
              .prefetch_related(Prefetch("seats", queryset=players, to_attr="players")))
    listed: dict[int, dict] = defaultdict(lambda: {"listed_tables": [], "more_tables": 0})
    for table in tables:
        room = listed[table.room_id]
        room["more_tables"] = table.occupied - min(table.occupied, TABLES_PER_ROOM)
        room["listed_tables"].append({
            "id": table.pk, "number": table.number, "status": table.status,
            "status_label": table.get_status_display(),
            "players": [{"name": str(seat.user), "bot": seat.is_bot} for seat in table.players],
        })
    return dict(listed)
