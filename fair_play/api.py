"""HTTP API: the requesting player's own ban status."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from fair_play.bans import ban_status


class BanStatusSerializer(serializers.Serializer):
    banned = serializers.BooleanField()
    until = serializers.DateTimeField(allow_null=True)
    seconds_left = serializers.IntegerField()
    escapes_in_window = serializers.IntegerField()
    warning = serializers.BooleanField()
    window_hours = serializers.FloatField()


class MyBanView(APIView):
    """Whether the requesting player may sit down: a running escape ban, its end and
    the escapes counted in the window."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=BanStatusSerializer, summary="My escape ban status")
    def get(self, request: Request) -> Response:
        return Response(BanStatusSerializer(ban_status(request.user.pk)).data)
