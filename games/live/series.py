"""Series at private tables: the same players game after game, with a
running score. A series begins at a private table's deal, goes on while every deal
seats the same players, and ends when the host closes the table or a player leaves
(stands up, is removed, or escapes). Public tables have none. A rematch (friends)
opens a new private table that carries the series on at its first deal when the same
players sit down (``PrivateTable.continues``).

The running score is read from the settled games themselves (their ``settlement``),
not kept in a counter: nothing can drift from the ledger.
"""

from __future__ import annotations

from django.utils import timezone

from games.models import GameRecord, PrivateTable, Series, Table


def series_for_deal(table: Table, players: list[int]) -> Series | None:
    """The series the game being dealt at ``table`` (locked) belongs to: the running
    one if it has these players, else a new one; None at a public table."""
    if not is_private(table):
        return None
    running = Series.objects.filter(table=table, ended_at__isnull=True).first()
    if running is not None:
        if sorted(running.players) == sorted(players):
            return running
        end_series(table, Series.End.LEFT)
    carried = _carried_series(table, players)
    if carried is not None:
        return carried
    return Series.objects.create(table=table, players=list(players))


def continue_series(private: PrivateTable, series: Series | None) -> None:
    """A rematch (friends.rematch): the first deal at ``private``'s table with the same
    players as ``series`` goes on with it (its score carried), as if at one table."""
    PrivateTable.objects.filter(pk=private.pk).update(continues=series)
    private.continues = series


def _carried_series(table: Table, players: list[int]) -> Series | None:
    """The series a rematch's table carries on (once, at its first deal with the same
    players): moved to this table and running again; None otherwise."""
    series_id = table.private.continues_id
    if series_id is None:
        return None
    PrivateTable.objects.filter(pk=table.pk).update(continues=None)
    series = Series.objects.filter(pk=series_id).first()
    if series is None or sorted(series.players) != sorted(players):
        return None
    # Its old table's running series, if still running, is this one: it moves here.
    Series.objects.filter(pk=series.pk).update(table=table, ended_at=None, end_reason="")
    series.refresh_from_db()
    return series


def is_private(table: Table) -> bool:
    """Whether ``table`` is a private table; no query when the table was read with its
    ``private`` row (games.live.seating.locked_table does)."""
    try:
        table.private  # noqa: B018 - the access is the check
    except PrivateTable.DoesNotExist:
        return False
    return True


def end_series(table: Table, reason: str) -> bool:
    """End the table's running series, if any (call with the table locked)."""
    return bool(Series.objects.filter(table=table, ended_at__isnull=True)
                .update(ended_at=timezone.now(), end_reason=reason))


def series_score(series: Series) -> dict:
    """The series so far: games settled, and each player's points (and coins) summed
    over them, by user id."""
    points = {user: 0 for user in series.players}
    coins = {user: 0 for user in series.players}
    games = 0
    for players, settlement in GameRecord.objects.filter(
            series=series, settlement__isnull=False).values_list("players", "settlement"):
        games += 1
        for seat, user in enumerate(players):
            points[user] = points.get(user, 0) + (settlement.get("points") or [0] * 4)[seat]
            coins[user] = coins.get(user, 0) + (settlement.get("coins") or [0] * 4)[seat]
    return {"series": series.pk, "games": games, "ended": series.ended_at is not None,
            "players": [{"user": user, "points": points[user], "coins": coins[user]}
                        for user in series.players]}
