"""The replay page's panel for a tournament game (games.archive.panels): which board
it was, and the others who held the viewer's hand (or, for a spectator, the seat's
hand at every table) with their scores, linking to the board's comparison."""

from __future__ import annotations

from tournaments.models import Board
from tournaments.pages import comparison


def replay_context(request, record, name) -> dict:
    board = Board.objects.filter(game_id=record.pk).select_related("tournament").first()
    if board is None:
        return {"tournament_board": None}
    compared = comparison(board.tournament, board.round, board.board, request.user)
    return {"tournament_board": board, "tournament_compared": compared}
