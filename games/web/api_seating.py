"""HTTP API for taking a seat: quick join of a room, as the lobby's button does.
Thin: games.live.seating decides (its one check refuses a banned player, fair_play)."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.errors import ActionError
from games.live import seating


class SeatTakenSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    seat = serializers.IntegerField()
    url = serializers.CharField(help_text="The table page.")


class SeatRefusedSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="Why, in the request's language.")
    code = serializers.CharField(allow_null=True,
                                 help_text="e.g. play_banned, already_seated; often null.")


class RoomJoinView(APIView):
    """Sit at the first waiting table of the room with a free seat (or a new one)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: SeatTakenSerializer, 400: SeatRefusedSerializer},
                   summary="Quick join a room")
    def post(self, request: Request, room_id: int) -> Response:
        try:
            seat = seating.room_quick_join(user=request.user, room_id=room_id)
        except ActionError as error:
            return Response({"detail": str(error), "code": error.code},
                            status=status.HTTP_400_BAD_REQUEST)
        return Response(SeatTakenSerializer({
            "table": seat.table_id, "seat": seat.index,
            "url": reverse("table", args=[seat.table_id])}).data)
