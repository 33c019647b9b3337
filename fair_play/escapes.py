"""Which players of a settled game escaped, and their escape records.

Counted: every ``escape`` event (both escape modes, RULES §10), and in ``end_game``
rooms a seat put in 托管 with reason ``disconnect`` whose player had not come back when
the game was settled. There an escape ends the game and costs the penalty, so leaving
by closing the tab and letting 托管 play on would otherwise be the free way out.

"Came back" is read from the presence rows (games.live.socket_rows): a live table socket
of the player at the table when the settlement runs. The rows are the truth the seat's
``connected`` flag is derived from, they are written by every server process, and a
dead process's rows go stale, so a player whose process died is not present by
mistake. A player who reconnected, even without taking 托管 off, is present and not
counted; a server restart drops every socket at once, but the pages reconnect within
the grace and 托管 never starts (GUIDE: a fault of the server never counts).
"""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from fair_play import ladder
from fair_play.models import EscapeRecord
from games.live.socket_rows import live_sockets


def escapers(record) -> dict[int, str]:
    """User id → kind, for the human players of ``record`` (an ended game) who escaped."""
    from games.live.bot_accounts import bot_user_ids
    from games.models import GameEvent

    events = list(GameEvent.objects.filter(game=record, type__in=("deal", "escape", "trustee"))
                  .order_by("seq").values_list("data", flat=True))
    found: dict[int, str] = {}
    mode = next((data.get("escape_mode") for data in events if data["type"] == "deal"), None)
    away = set()
    for data in events:
        if data["type"] == "escape":
            found[record.players[data["seat"]]] = EscapeRecord.Kind.ESCAPE
        elif data["type"] == "trustee":
            # Away while the seat's latest 托管 is a disconnect's: taking 托管 off is a
            # return the log shows, whatever the sockets say at the end.
            player = record.players[data["seat"]]
            if data["on"] and data.get("reason") == "disconnect":
                away.add(player)
            elif not data["on"]:
                away.discard(player)
    if mode == "end_game" and away:
        present = set(live_sockets().filter(table_id=record.table_id, user_id__in=away)
                      .values_list("user_id", flat=True))
        for user_id in away - present:
            found.setdefault(user_id, EscapeRecord.Kind.DISCONNECT)
    bots = bot_user_ids(list(found))
    return {user_id: kind for user_id, kind in found.items() if user_id not in bots}


def record_escapes(record, *, at: datetime | None = None) -> list[EscapeRecord]:
    """Write one escape record per escaper of ``record`` with the warning or ban the
    ladder gives. Call in the settlement's transaction; a player already recorded for
    this game is skipped (and the unique constraint refuses a racer), so a re-run
    settlement or sweep never counts twice."""
    at = at or timezone.now()
    written = []
    for user_id, kind in sorted(escapers(record).items()):
        if EscapeRecord.objects.filter(user_id=user_id, game=record).exists():
            continue
        count = 1 + counted_escapes(user_id, since=at - ladder.window(), until=at).count()
        ban = ladder.ban_for(count)
        try:
            with transaction.atomic():
                written.append(EscapeRecord.objects.create(
                    user_id=user_id, game=record, kind=kind, occurred_at=at,
                    count_in_window=count, ban_until=at + ban if ban else None))
        except IntegrityError:
            continue
    return written


def record_escapes_of_settled_game(*, record, **_signal) -> None:
    """games.hooks.signals.game_settled: the escape records (and bans) of the game being
    settled, in its transaction."""
    record_escapes(record)


def escape_games(user_id: int, game_ids=None) -> dict[int, str]:
    """games.hooks.escapes: game id → kind of each escape record of the player (of
    ``game_ids`` when given)."""
    records = EscapeRecord.objects.filter(user_id=user_id)
    if game_ids is not None:
        records = records.filter(game_id__in=list(game_ids))
    return dict(records.values_list("game_id", "kind"))


def counted_escapes(user_id: int, *, since: datetime, until: datetime):
    """The escapes that count towards the next step: in the window, and not of a ban an
    admin lifted (a lift says the ban was not deserved)."""
    return EscapeRecord.objects.filter(user_id=user_id, occurred_at__gt=since,
                                       occurred_at__lte=until, lift__isnull=True)
