"""What a table page shows of its private table (好友房): the invite for its
players, the series so far, and whether the viewer is the host."""

from __future__ import annotations

from accounts.models import User
from games.live import private_tables, visibility
from games.live.series import series_score
from games.models import Series, Table


def panel_context(table: Table, user: User) -> dict:
    """What the table page's private-table panel shows (templates/games/
    _private_table_panel.html): nothing at a public table. An outsider (a removed
    player at a table without spectators) reads only that they are out."""
    private = private_tables.private_of(table.pk)
    if private is None:
        return {"private": None}
    if not visibility.may_watch(user, table.pk):
        return {"private": private, "private_outsider": True}
    insider = visibility.private_insider(user, private)
    series = Series.objects.filter(table=table).order_by("-pk").first()
    score = series_score(series) if series is not None else None
    if score is not None:
        names = {user.pk: str(user) for user in User.objects.filter(
            pk__in=[row["user"] for row in score["players"]])}
        score["players"] = [{**row, "name": names.get(row["user"], "?")}
                            for row in score["players"]]
    return {"private": private, "private_insider": insider and private.closed_at is None,
            "private_host": visibility.viewer_id(user) == private.host_id,
            "private_series": score}
