"""HTTP API of the tournaments (docs/tournaments.md, "API"): the list, one tournament
with its live standings, registration and withdrawal, a board compared."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.errors import ActionError
from tournaments import pages
from tournaments.models import Tournament
from tournaments.registration import register, withdraw


def _tournament(tournament_id: int) -> Tournament | None:
    return Tournament.objects.filter(pk=tournament_id).first()


def _not_found() -> Response:
    return Response({"detail": "not found"}, status=status.HTTP_404_NOT_FOUND)


class TournamentListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(summary="Tournaments: upcoming, running, finished")
    def get(self, request: Request) -> Response:
        return Response({group: [pages.summary(tournament) for tournament in rows]
                         for group, rows in pages.tournament_lists().items()})


class TournamentView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(summary="A tournament: terms, live standings, your entry and table")
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament(tournament_id)
        if tournament is None:
            return _not_found()
        found = pages.detail(tournament, request.user)
        entry = found["entry"]
        return Response({**found["tournament"], "players": found["state"]["count"],
                         "standings": found["state"]["standings"],
                         "registered": entry is not None, "my_table": found["my_table"],
                         "boards": found["boards"]})


class RegisterView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, summary="Register (pays the entry fee)")
    def post(self, request: Request, tournament_id: int) -> Response:
        try:
            entry = register(user=request.user, tournament_id=tournament_id)
        except ActionError as error:
            return Response({"detail": str(error), "code": error.code},
                            status=status.HTTP_400_BAD_REQUEST)
        return Response({"registered": True, "paid": entry.paid},
                        status=status.HTTP_201_CREATED)


class WithdrawView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, summary="Withdraw before the start (the entry refunded)")
    def post(self, request: Request, tournament_id: int) -> Response:
        try:
            withdraw(user=request.user, tournament_id=tournament_id)
        except ActionError as error:
            return Response({"detail": str(error), "code": error.code},
                            status=status.HTTP_400_BAD_REQUEST)
        return Response({"registered": False})


class BoardView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(summary="A board at every table, with matchpoints (once finished everywhere)")
    def get(self, request: Request, tournament_id: int, round_number: int,
            board: int) -> Response:
        tournament = _tournament(tournament_id)
        compared = pages.comparison(tournament, round_number, board, request.user) \
            if tournament else None
        if compared is None:
            return _not_found()
        return Response(compared)
