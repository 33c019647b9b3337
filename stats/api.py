"""HTTP API of player stats: the same as the page (stats.views), in JSON."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from accounts.selectors import player_standing

from .selectors import may_see_stats, player_stats


class GroupSerializer(serializers.Serializer):
    rule_set = serializers.CharField(help_text="The rule set's name, e.g. qq, tcy.")
    rule_set_label = serializers.CharField()
    room_kind = serializers.ChoiceField(choices=["points", "coins"])
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True, help_text="Percent, 0.1 precision.")


class KouSerializer(serializers.Serializer):
    kou = serializers.ChoiceField(
        choices=["double", "single", "draw", "escape"],
        help_text="双扣, 单扣, 平扣, or a game ended by someone's escape.")
    games = serializers.IntegerField()
    wins = serializers.IntegerField(help_text="Of those, games the player's side won.")
    rate = serializers.FloatField(allow_null=True,
                                  help_text="Percent of all the player's games; null with none.")


class BombSerializer(serializers.Serializer):
    stars = serializers.IntegerField(help_text="相 (RULES §4.1).")
    count = serializers.IntegerField()


class StatsSerializer(serializers.Serializer):
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True, help_text="Percent, 0.1 precision.")
    escapes = serializers.IntegerField(help_text="Games the player escaped from.")
    escape_rate = serializers.FloatField(allow_null=True)
    by_rule_set = GroupSerializer(many=True)
    by_kou = KouSerializer(many=True)
    bombs_by_stars = BombSerializer(many=True)


class PlayerStatsSerializer(serializers.Serializer):
    username = serializers.CharField()
    nickname = serializers.CharField()
    level = serializers.IntegerField()
    title = serializers.CharField()
    public = serializers.BooleanField(help_text="The player's choice to show their stats.")
    stats = StatsSerializer(allow_null=True, help_text=(
        "null when the player keeps their stats private and the requester is neither "
        "that player nor staff."))


class PlayerStatsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: PlayerStatsSerializer,
                   404: OpenApiResponse(description="No active player of that name.")},
        summary="A player's stats",
        description=("Settled games by rule set and room kind, win rate, 双扣/单扣/平扣 "
                     "rates, bombs played by stars, escapes, level and title. A private "
                     "player (public = false) gets a reduced body to others: name, level "
                     "and title, with stats null; the player and staff get everything."))
    def get(self, request: Request, username: str) -> Response:
        player = get_object_or_404(User, username=username, is_active=True)
        stats = player_stats(player) if may_see_stats(request.user, player) else None
        current = (stats.standing if stats else player_standing(player)).progress.current
        body = {"username": player.username, "nickname": player.nickname,
                "level": current.number, "title": current.title,
                "public": player.stats_public, "stats": None}
        if stats is not None:
            body["stats"] = {
                "games": stats.total.games, "wins": stats.total.wins,
                "win_rate": stats.total.win_rate, "escapes": stats.escapes,
                "escape_rate": stats.escape_rate,
                "by_rule_set": [vars(group) | {"win_rate": group.win_rate}
                                for group in stats.groups],
                "by_kou": [vars(kou) for kou in stats.kous],
                "bombs_by_stars": [{"stars": stars, "count": count}
                                   for stars, count in stats.bombs.items()],
            }
        return Response(PlayerStatsSerializer(body).data)
