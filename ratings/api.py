"""HTTP API of the ratings: a player's ratings (and history, as their stats' choice
allows) and the boards. Public, as the pages are."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User

from .models import Family, Season
from .selectors import all_time_board, may_see_history, player_ratings, rating_history, season_board


class RatingSerializer(serializers.Serializer):
    family = serializers.ChoiceField(choices=Family.values,
                                     help_text="four: the four-player rule sets; two: tcy.")
    rating = serializers.IntegerField(help_text="openskill's mu × 60 (1500 to begin with).")
    deviation = serializers.IntegerField(help_text="Its uncertainty, sigma × 60.")
    provisional = serializers.BooleanField(help_text="Not settled yet: off the boards.")
    games = serializers.IntegerField()
    wins = serializers.IntegerField()


class HistoryPointSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    at = serializers.DateTimeField()
    rating = serializers.IntegerField(help_text="After the game.")
    delta = serializers.IntegerField()
    won = serializers.BooleanField()
    escaped = serializers.BooleanField()


class PlayerRatingsSerializer(serializers.Serializer):
    username = serializers.CharField()
    nickname = serializers.CharField()
    ratings = RatingSerializer(many=True)
    history = serializers.DictField(
        child=HistoryPointSerializer(many=True), allow_null=True,
        help_text="family → the newest rated games, oldest first; null when the player "
                  "keeps their stats private and the requester is neither they nor staff.")


class SeasonSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()


class BoardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    nickname = serializers.CharField()
    rating = serializers.IntegerField()
    deviation = serializers.IntegerField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()


class BoardSerializer(serializers.Serializer):
    family = serializers.ChoiceField(choices=Family.values)
    season = SeasonSerializer(allow_null=True, help_text="null: the all-time board.")
    rows = BoardRowSerializer(many=True)


class PlayerRatingsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: PlayerRatingsSerializer,
                              404: OpenApiResponse(description="No active player of that name.")},
                   summary="A player's ratings")
    def get(self, request: Request, username: str) -> Response:
        player = get_object_or_404(User, username=username, is_active=True)
        history = None
        if may_see_history(request.user, player):
            history = {family: [{"game": change.game_id, "at": change.created_at,
                                 "rating": change.rating, "delta": change.delta,
                                 "won": change.won, "escaped": change.escaped}
                                for change in rating_history(player, family)]
                       for family in Family.values}
        return Response(PlayerRatingsSerializer({
            "username": player.username, "nickname": player.nickname,
            "ratings": [vars(rating) for rating in player_ratings(player)],
            "history": history}).data)


class LeaderboardView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("family", enum=Family.values, default=Family.FOUR),
            OpenApiParameter("season", str, description=(
                "Absent or 'all': all time; 'current': the season running now (404 when "
                "none is); a season's id."))],
        responses={200: BoardSerializer, 400: OpenApiResponse(description="A bad parameter."),
                   404: OpenApiResponse(description="No such season.")},
        summary="The rating leaderboard")
    def get(self, request: Request) -> Response:
        family = request.query_params.get("family", Family.FOUR)
        if family not in Family.values:
            return Response({"detail": f"family must be one of {', '.join(Family.values)}"},
                            status=status.HTTP_400_BAD_REQUEST)
        wanted = request.query_params.get("season", "all")
        if wanted == "all":
            season, rows = None, all_time_board(family)
        else:
            if wanted == "current":
                season = Season.current()
            elif wanted.isdigit():
                season = Season.objects.filter(pk=int(wanted)).first()
            else:
                return Response({"detail": "season must be all, current or a season's id"},
                                status=status.HTTP_400_BAD_REQUEST)
            if season is None:
                return Response({"detail": "no such season"}, status=status.HTTP_404_NOT_FOUND)
            rows = season_board(family, season)
        return Response(BoardSerializer({"family": family, "season": season,
                                         "rows": [vars(row) for row in rows]}).data)
