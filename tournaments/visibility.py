"""What of a tournament may be seen while it runs (games.hooks.visibility): the same
cards are dealt at every table of a round, so

- an entrant of a running tournament may not watch another of its tables (only the
  one they sit at);
- a board's game is read (its replay, log, API, analysis) by nobody but its own
  players until every table has finished that board; staff too wait.

Anyone else watches and reads as the games' own policy says."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext

from games.models import Seat
from tournaments.models import Board, Entry, Tournament


def may_watch_table(user, table_id: int) -> str | None:
    """An entrant of the running tournament may watch no table but their own: the
    refusal's message; None leaves it to the games' own policy."""
    tournament = Tournament.objects.filter(room__tables=table_id,
                                           status=Tournament.Status.RUNNING).first()
    if tournament is None or user is None or not user.is_authenticated:
        return None
    if Seat.objects.filter(table_id=table_id, user_id=user.pk).exists():
        return None
    if Entry.objects.filter(tournament=tournament, user_id=user.pk,
                            withdrawn_at__isnull=True).exists():
        return gettext("比赛进行中，参赛者只能看自己的牌桌：每张牌桌打的是同一副牌")
    return None


def may_read_board(user, record) -> bool | None:
    board = Board.objects.filter(game_id=record.pk).first()
    if board is None:
        return None
    if user is not None and user.is_authenticated and user.pk in (record.players or []):
        return None
    if board_finished(board.tournament_id, board.round, board.board):
        return None
    return False


def board_finished(tournament_id: int, round_number: int, board: int) -> bool:
    """Whether every table of the round has settled the board."""
    tournament = Tournament.objects.get(pk=tournament_id)
    tables = tournament.room.tables.count()
    settled = Board.objects.filter(tournament_id=tournament_id, round=round_number,
                                   board=board, settled_at__isnull=False).count()
    return settled == tables


def tournament_link(table) -> list[tuple[str, str]]:
    """The table page's way back to the tournament its table plays for."""
    tournament = Tournament.objects.filter(room_id=table.room_id).only("pk", "name").first()
    if tournament is None:
        return []
    return [(gettext("返回比赛：%(name)s") % {"name": tournament.name},
             reverse("tournament", args=[tournament.pk]))]
