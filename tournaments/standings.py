"""The standings of a tournament, read from its settled boards (tournaments.matchpoints
does the arithmetic), and what its pages and socket show."""

from __future__ import annotations

from tournaments.matchpoints import SeatResult, Standing, matchpoints, standings
from tournaments.models import Board, Entry, Tournament


def seat_results(tournament: Tournament) -> list[SeatResult]:
    results = []
    for round_number, board, players, scores in Board.objects.filter(
            tournament=tournament, settled_at__isnull=False).values_list(
            "round", "board", "players", "scores"):
        results.extend(SeatResult(round_number, board, seat, user, score)
                       for seat, (user, score) in enumerate(zip(players, scores)))
    return results


def entrants(tournament: Tournament) -> list[int]:
    """User ids of the tournament's players (active entries), in registration order."""
    return list(Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True)
                .order_by("pk").values_list("user_id", flat=True))


def current_standings(tournament: Tournament) -> list[Standing]:
    return standings(seat_results(tournament), entrants(tournament))


def board_matchpoints(tournament: Tournament) -> dict[tuple[int, int, int, int], int]:
    """(round, board, seat, user) → matchpoints, for the board pages."""
    return {(result.round, result.board, result.seat, result.user): points
            for result, points in matchpoints(seat_results(tournament)).items()}
