"""The daily API: today's check-in and tasks, checking in, claiming a task's reward."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.services import LedgerError

from .services import DailyStatus, check_in, claim_task, daily_status


class TaskSerializer(serializers.Serializer):
    name = serializers.CharField(source="task.name")
    title = serializers.CharField(source="task.title")
    target = serializers.IntegerField(source="task.target")
    coins = serializers.IntegerField(source="task.coins")
    progress = serializers.IntegerField()
    done = serializers.BooleanField()
    claimed = serializers.BooleanField()


class DailySerializer(serializers.Serializer):
    day = serializers.DateField()
    checked_in = serializers.SerializerMethodField()
    streak = serializers.IntegerField()
    checkin_coins = serializers.IntegerField()
    tasks = TaskSerializer(many=True)
    paid = serializers.IntegerField(help_text="Coins paid today by check-in and tasks.")
    cap = serializers.IntegerField(help_text="The most a day's rewards pay.")
    played = serializers.BooleanField(help_text="Has finished a game: rewards need one.")

    def get_checked_in(self, status: DailyStatus) -> bool:
        return status.checked_in is not None


def _refused(error: LedgerError) -> Response:
    return Response({"detail": str(error)}, status=status.HTTP_400_BAD_REQUEST)


class DailyView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=DailySerializer, summary="My check-in and tasks today")
    def get(self, request: Request) -> Response:
        return Response(DailySerializer(daily_status(request.user)).data)


class CheckInView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=DailySerializer, summary="Check in today")
    def post(self, request: Request) -> Response:
        try:
            check_in(user=request.user)
        except LedgerError as error:
            return _refused(error)
        return Response(DailySerializer(daily_status(request.user)).data)


class ClaimView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=DailySerializer, summary="Claim a task's reward")
    def post(self, request: Request, task: str) -> Response:
        try:
            claim_task(user=request.user, task=task)
        except LedgerError as error:
            return _refused(error)
        return Response(DailySerializer(daily_status(request.user)).data)
