"""The lobby socket, ``/ws/lobby/``: pushes the re-rendered rooms list to the lobby page.

htmx's WebSocket extension on the page swaps the fragment in by its id
(``hx-swap-oob``). The channel layer only says *that* something changed
(``lobby.changed`` from games.live.seating and games.settlement.settle); the fragment is read
from the database, so a lost notification is made good by the next one, and a
reconnecting page gets a fresh fragment at once. The sockets of a process share each
refresh: one render per language per window, whatever the number of sockets
(games.live.lobby_refresh).
"""

from __future__ import annotations

import asyncio

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db.models import Count, Q
from django.template.loader import render_to_string
from django.utils import translation

from games.live.broadcast import LOBBY_GROUP
from games.live.dispatch import DirectDispatchMixin
from games.live.language import connection_language
from games.live.lobby_refresh import SharedRefresh, loop_refresh
from games.live.lobby_tables import lobby_tables
from games.models import Room, Table
from games.rule_set_names import rule_set_name, rule_set_summary

ROOMS_FRAGMENT_ID = "lobby-rooms"
# Sitting, standing and getting ready at busy tables can mean many notifications a
# second: the process renders once per language per window, after the window, so the
# list shows them all (games.live.lobby_refresh).
REFRESH_WINDOW_SECONDS = 0.25


async def refresh_window() -> None:
    """The wait that gathers a burst of changes into one refresh. A function of its
    own so a test can hold the window open for as long as its burst takes."""
    await asyncio.sleep(REFRESH_WINDOW_SECONDS)


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
        # In the reader's language (the fragment is rendered per language).
        "rule_set_name": rule_set_name(room.rule_set.name, room.rule_set.label),
        "rule_set_summary": rule_set_summary(room.rule_set.name),
        "seats_per_table": rules.players,
        "kind": room.kind, "kind_label": room.get_kind_display(),
        "stake_unit": room.stake_unit, "coefficient": room.coefficient, "fee": room.fee,
        # classic's coin rooms (RULES §9): 系统回收 is this percent of each winner's gain
        # instead of A, and the multiplier counts at most the cap for coins.
        "fee_percent": rules.winner_fee_percent, "coin_multiplier_cap": rules.coin_multiplier_cap,
        "min_coins": room.min_coins, "max_loss": room.max_loss,
        "turn_seconds": room.turn_seconds, "escape_mode": room.escape_mode,
        "bots_allowed": room.bots_allowed, "bot_level": room.bot_level,
        "bot_level_label": room.get_bot_level_display(), "rated": room.rated,
        "seats_taken": room.seats_taken, "tables": room.table_count,
        "playing": room.playing,
    } for room in rooms for rules in [room.rule_set.as_rule_set()]]


def rooms_fragment(language: str | None = None) -> str:
    """The rooms list as HTML, the same for every player of a language. Rendered here
    there is no request and so no CSRF token in the forms: their buttons post through
    htmx, which sends the page's token as a header (templates/base.html)."""
    with translation.override(language):
        return render_to_string("games/_rooms.html", rooms_context())


def rooms_context() -> dict:
    """What templates/games/_rooms.html shows: the open rooms, each with the tables
    where someone sits (games.live.lobby_tables); three queries in all."""
    rooms = lobby_rooms()
    tables = lobby_tables([room["id"] for room in rooms])
    empty = {"listed_tables": [], "more_tables": 0}
    return {"rooms": [{**room, **tables.get(room["id"], empty)} for room in rooms],
            "fragment_id": ROOMS_FRAGMENT_ID}


def shared_refresh() -> SharedRefresh:
    """The refresh this event loop's lobby sockets share (games.live.lobby_refresh). The
    window and the render are looked up when used, so a test can replace either."""

    async def window() -> None:
        await refresh_window()

    def render(language: str) -> str:
        return rooms_fragment(language)

    return loop_refresh(window=window, render=render)


class LobbyConsumer(DirectDispatchMixin, AsyncWebsocketConsumer):
    async def connect(self) -> None:
        # Visitors too (the visitor's lobby): the fragment is the same for every reader
        # of a language, and this socket takes nothing from its client.
        self.language = connection_language(self.scope)  # the page's language
        self.refresh: SharedRefresh | None = None
        await self.accept()
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        # The page may have been rendered a while ago, or this is a reconnect.
        await self.show_rooms(await database_sync_to_async(rooms_fragment)(self.language))
        # Joined only now: a shared render begun earlier may have read before this one.
        # A change it missed was announced to this socket too (it is in the group), and
        # handlers run one at a time, so its lobby_changed, after this, asks for another.
        self.refresh = shared_refresh()
        self.refresh.join(self, self.language)

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "refresh"):
            return  # refused before accept
        if self.refresh is not None:
            self.refresh.leave(self, self.language)
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None,
                      **kwargs) -> None:
        """The lobby only listens: whatever the client sends is ignored."""

    async def lobby_changed(self, message: dict) -> None:
        self.refresh.changed()

    async def show_rooms(self, fragment: str) -> None:
        await self.send(text_data=fragment)
