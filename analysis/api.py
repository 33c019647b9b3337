"""HTTP API of a game's analysis: read it, ask for it.

``GET /api/games/<id>/analysis``: the analysis with its status, its moves and the
summary per human seat (public once the game has ended, like the replay); 404 when
nobody has asked for one. ``POST``: ask for it, as a player of the game or staff:
202 when this request queued it, 200 with the existing one otherwise (it is never
computed twice); 409 while the game runs, 403 for anyone else, 422 for a game
without a human seat. A game at a private table without spectators is read and asked
for by its players (and staff) only, as its replay (games.live.visibility.may_read_game):
401 for an anonymous client, 403 for anyone else."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from analysis.models import GameAnalysis
from analysis.selectors import analysis_data, analysis_of
from analysis.services import AnalysisRefused, analysis_request
from analysis.views import player_namer, refusal_text
from games.models import GameRecord
from games.web.api import CLOSED, NOT_FOUND, readable_game


class MoveSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The move's event in the game's log.")
    step = serializers.IntegerField(help_text="The replay's step showing it (?step=).")
    seat = serializers.IntegerField()
    player = serializers.IntegerField(allow_null=True, help_text="User id.")
    name = serializers.CharField()
    played = serializers.CharField(help_text='Canonical rank text ("7 7") or "pass".')
    played_text = serializers.CharField(help_text="The move in the request's language.")
    best = serializers.CharField(help_text="The engine's preferred play, as `played`.")
    best_text = serializers.CharField()
    played_value = serializers.FloatField(
        help_text="Expected final score difference after the move played (units).")
    best_value = serializers.FloatField(help_text="The same after the preferred play.")
    loss = serializers.FloatField(help_text="best_value − played_value, ≥ 0 (units).")
    mark = serializers.ChoiceField(choices=["ok", "?", "??"])


class SeatSummarySerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    moves = serializers.IntegerField(help_text="Moves analysed (forced ones left out).")
    forced = serializers.IntegerField(help_text="Moves with one legal choice.")
    ok = serializers.IntegerField()
    doubtful = serializers.IntegerField(help_text='Moves marked "?".')
    bad = serializers.IntegerField(help_text='Moves marked "??".')
    accuracy = serializers.FloatField(
        allow_null=True, help_text="Percent of analysed moves marked ok; null if none.")
    mean_loss = serializers.FloatField(allow_null=True)
    mistakes = MoveSerializer(many=True, help_text="The biggest mistakes, at most 3.")


class AnalysisSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    status = serializers.ChoiceField(choices=GameAnalysis.Status.choices)
    status_label = serializers.CharField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    seconds = serializers.FloatField(allow_null=True, help_text="CPU seconds the analysis took.")
    move_budget_ms = serializers.IntegerField(help_text="Engine budget per move.")
    budget_used_ms = serializers.IntegerField(help_text="Budget given over all moves.")
    thresholds = serializers.JSONField(help_text='Losses marking "?" and "??" (units).')
    moves = MoveSerializer(many=True, help_text="Every analysed move; empty until done.")
    summary = SeatSummarySerializer(many=True, help_text="Per human seat; empty until done.")



class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "game_not_ended"


class NothingToAnalyse(exceptions.APIException):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_code = "no_human_seat"


def _body(analysis: GameAnalysis, record: GameRecord) -> dict:
    return AnalysisSerializer(analysis_data(analysis, record, player_namer(record))).data


class GameAnalysisView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        responses={200: AnalysisSerializer, 404: NOT_FOUND, 401: CLOSED,
                   403: OpenApiResponse(description="The game is still running, or it "
                                                    "is closed to the requester (401).")},
        summary="The analysis of a finished game")
    def get(self, request: Request, game_id: int) -> Response:
        record = readable_game(request, game_id)
        if record.status != GameRecord.Status.ENDED:
            raise exceptions.PermissionDenied(refusal_text("game_not_ended"))
        analysis = analysis_of(record)
        if analysis is None:
            raise exceptions.NotFound(_("这局还没有分析。"))
        return Response(_body(analysis, record))

    @extend_schema(
        request=None,
        responses={202: AnalysisSerializer, 200: AnalysisSerializer, 404: NOT_FOUND,
                   403: OpenApiResponse(description="Not a player of the game, nor staff."),
                   409: OpenApiResponse(description="The game is still running."),
                   422: OpenApiResponse(description="No human seat to analyse.")},
        summary="Ask for the analysis of a finished game")
    def post(self, request: Request, game_id: int) -> Response:
        record = readable_game(request, game_id)
        try:
            requested = analysis_request(record=record, user=request.user)
        except AnalysisRefused as refusal:
            text = refusal_text(refusal.code)
            if refusal.code == "game_not_ended":
                raise Conflict(text, refusal.code) from None
            if refusal.code == "no_human_seat":
                raise NothingToAnalyse(text, refusal.code) from None
            raise exceptions.PermissionDenied(text, refusal.code) from None
        requested.analysis.refresh_from_db()  # an eager task may have finished it already
        return Response(_body(requested.analysis, record),
                        status=status.HTTP_202_ACCEPTED if requested.created
                        else status.HTTP_200_OK)
