"""A player's finished games, for the history page: which games, at which seat, and
with which outcome for that seat, filtered in the database.

``GameRecord.players`` holds user ids by seat (after any 明牌 swap, RULES §2), so "my
seat" is the index of my id there (``players__0``). My games are found with
``players__contains=[my id]``, which the players index serves.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import reduce
from operator import or_

from django.db.models import Case, IntegerField, Q, QuerySet, Value, When

from games.archive.frames import seat_value
from games.archive.panels import HistoryCell, history_cells
from games.hooks.escapes import escape_rule, escapes_of
from games.models import GameRecord, Room, RuleSetConfig
from games.rule_set_names import rule_set_name
from games.vocabulary import kou_label

MAX_SEATS = 4  # the largest table of any rule set (RULES §9: 4, tcy 2)

# Outcome for me, by my seat's score in units (RULES §6, §9): a gain, a loss, or
# neither (e.g. the losing pair of a 平扣 without bombs scores 0).
OUTCOME_LOOKUPS = {"won": "gt", "lost": "lt", "draw": "exact"}


def _at_seat(user_id: int, seat: int, **lookups) -> Q:
    return Q(**{f"players__{seat}": user_id}, **lookups)


def player_games(user_id: int, *, kind: str | None = None, outcome: str | None = None,
                 kou: str | None = None) -> QuerySet[GameRecord]:
    """The user's finished games, newest first, each annotated with ``my_seat``.

    ``kind``: a room kind (``points``, ``coins``); ``outcome``: ``won``/``lost``/``draw``
    for the user's seat; ``kou``: the result's 双扣/单扣/平扣 (or ``escape``). Values
    outside those are the caller's to refuse; here they raise KeyError.
    """
    seats = range(MAX_SEATS)
    games = (GameRecord.objects
             .filter(players__contains=[user_id], status=GameRecord.Status.ENDED)
             .annotate(my_seat=Case(*(When(_at_seat(user_id, seat), then=Value(seat))
                                      for seat in seats), output_field=IntegerField())))
    if kind:
        games = games.filter(room__kind=kind)
    if kou:
        games = games.filter(result__kou=kou)
    if outcome:
        lookup = OUTCOME_LOOKUPS[outcome]
        games = games.filter(reduce(or_, (
            _at_seat(user_id, seat, **{f"result__scores__{seat}__{lookup}": 0})
            for seat in seats)))
    return games.select_related("room").order_by("-ended_at", "-pk")


@dataclass(frozen=True)
class HistoryRow:
    game_id: int
    ended_at: datetime | None
    room: str
    room_kind: str
    rule_set: str
    seat: int
    place: int | None
    kou: str | None
    score: int | None
    points: int | None  # None: not settled yet
    coins: int | None
    # At a private table: its series, this game's number in it, and my
    # points over the series up to and including this game.
    series: int | None = None
    series_game: int | None = None
    series_points: int | None = None
    # The cells of the columns other apps add (games.archive.panels): the analysis's.
    cells: tuple[HistoryCell, ...] = ()
    # When the game counts as my escape (games.hooks.escapes): its kind and the rule.
    escape: str | None = None
    escape_rule: str = ""

    @property
    def kou_text(self) -> str:
        return kou_label(self.kou)

    @property
    def outcome(self) -> str | None:
        if self.score is None:
            return None
        return "won" if self.score > 0 else "lost" if self.score < 0 else "draw"


def history_rows(games: list[GameRecord]) -> list[HistoryRow]:
    """One page of ``player_games`` as rows (one more query for rule set labels, one
    for the series among them, and the added columns' reads)."""
    labels = dict(RuleSetConfig.objects.filter(name__in={game.rule_set_name for game in games})
                  .values_list("name", "label"))
    series = _series_so_far(games)
    cells = history_cells(games)
    escaped = _my_escapes(games)
    rows = []
    for game in games:
        seat = game.my_seat
        escape = escaped.get(game.pk) or ("escape" if (game.result or {}).get("escaped") == seat
                                          and seat is not None else None)
        series_game, series_points = series.get(game.pk, (None, None))
        result = game.result or {}
        finish = result.get("finish") or []
        rows.append(HistoryRow(
            game_id=game.pk, ended_at=game.ended_at or game.created_at, room=game.room.name,
            room_kind=game.room.kind,
            rule_set=rule_set_name(game.rule_set_name, labels.get(game.rule_set_name, "")),
            seat=seat,
            place=finish.index(seat) + 1 if seat in finish else None,
            kou=result.get("kou"), score=seat_value(result, "scores", seat),
            points=seat_value(game.settlement, "points", seat),
            coins=seat_value(game.settlement, "coins", seat)
            if game.room.kind == Room.Kind.COINS else None,
            series=game.series_id, series_game=series_game, series_points=series_points,
            cells=tuple(cells[game.pk]),
            escape=escape, escape_rule=escape_rule(escape) if escape else ""))
    return rows


def _my_escapes(games: list[GameRecord]) -> dict[int, str]:
    """Which of one page of the viewer's games count as the viewer's escapes."""
    if not games:
        return {}
    first = games[0]
    return escapes_of(first.players[first.my_seat], [game.pk for game in games])


def _series_so_far(games: list[GameRecord]) -> dict[int, tuple[int, int]]:
    """Game id → (its number in its series, the player's points over the series so
    far), for the games of ``games`` that belong to a series, from its settled games."""
    wanted = {game.pk: game.players[game.my_seat] for game in games if game.series_id}
    if not wanted:
        return {}
    so_far: dict[int, tuple[int, int]] = {}
    totals: dict[tuple[int, int], int] = {}
    counts: dict[int, int] = {}
    for pk, series_id, players, settlement in GameRecord.objects.filter(
            series_id__in={game.series_id for game in games if game.series_id},
            settlement__isnull=False).order_by("pk") \
            .values_list("pk", "series_id", "players", "settlement"):
        counts[series_id] = counts.get(series_id, 0) + 1
        for seat, user in enumerate(players):
            key = (series_id, user)
            totals[key] = totals.get(key, 0) + (settlement.get("points") or [])[seat]
        if pk in wanted:
            so_far[pk] = (counts[series_id], totals[(series_id, wanted[pk])])
    return so_far
