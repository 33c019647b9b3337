"""HTTP API of private tables (好友房; games.live.private_tables). Thin: parse,
call one service, answer. A refusal is a 400 with the reason and its code, and changes
nothing.

Who reads what (games.live.visibility): the invite code and link only the host and the
players seated there; anyone else signed in reads the table's other facts if they may
watch it, else gets 403; an anonymous client gets 401. Joining by code is limited per
user and per client address (games.web.invite_limits): 429 with Retry-After past the
limits, 503 with Retry-After while they cannot be checked."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.errors import ActionError
from games.live import private_tables, visibility
from games.live.series import series_score
from games.models import PrivateTable, Series
from games.web import invite_limits
from games.web.invite_limits import InviteLimitsUnavailable, InviteTriesExceeded

REFUSED = OpenApiResponse(description="Refused: `detail` says why, `code` names the case "
                                      "(invite_unknown, invite_expired, invite_closed, "
                                      "already_seated, not_host, …). Nothing changed.")


class OpenSerializer(serializers.Serializer):
    room = serializers.IntegerField(help_text="The room to open the table in.")
    spectators = serializers.BooleanField(default=True, help_text="Whether others may watch.")


class JoinSerializer(serializers.Serializer):
    code = serializers.CharField(max_length=32, help_text="The invite code (any case).")


class RemoveSerializer(serializers.Serializer):
    user = serializers.IntegerField(help_text="The player to remove.")


class SeriesSerializer(serializers.Serializer):
    series = serializers.IntegerField()
    games = serializers.IntegerField(help_text="Settled games of the series so far.")
    ended = serializers.BooleanField()
    players = serializers.JSONField(help_text="[{user, points, coins}] summed over its games.")


class PrivateTableSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    host = serializers.IntegerField()
    code = serializers.CharField(allow_null=True,
                                 help_text="Only for its players and host; null for others.")
    invite_url = serializers.CharField(allow_null=True)
    expires_at = serializers.DateTimeField()
    spectators = serializers.BooleanField()
    closed = serializers.BooleanField()
    series = SeriesSerializer(allow_null=True, help_text="The running or last series.")


def describe(private: PrivateTable, request: Request) -> dict:
    """The table as ``request.user`` may read it: the code and link for its insiders
    only (games.live.visibility.private_insider; never for a missing id)."""
    insider = visibility.private_insider(request.user, private)
    series = Series.objects.filter(table_id=private.table_id).order_by("-pk").first()
    return {"table": private.table_id, "host": private.host_id,
            "code": private.code if insider else None,
            "invite_url": request.build_absolute_uri(reverse("invite", args=[private.code]))
            if insider else None,
            "expires_at": private.expires_at, "spectators": private.spectators,
            "closed": private.closed_at is not None,
            "series": series_score(series) if series else None}


def refusal(error: ActionError) -> Response:
    return Response({"detail": str(error), "code": error.code},
                    status=status.HTTP_400_BAD_REQUEST)


class PrivateTableOpenView(APIView):
    @extend_schema(request=OpenSerializer, responses={201: PrivateTableSerializer, 400: REFUSED},
                   summary="Open a private table (好友房)")
    def post(self, request: Request) -> Response:
        data = _valid(OpenSerializer, request)
        try:
            private = private_tables.private_table_open(
                host=request.user, room_id=data["room"], spectators=data["spectators"])
        except ActionError as error:
            return refusal(error)
        return Response(PrivateTableSerializer(describe(private, request)).data,
                        status=status.HTTP_201_CREATED)


class InviteCheckUnavailable(exceptions.APIException):
    """503 with Retry-After (DRF sets the header from ``wait``): the invite limits cannot
    be checked, so no code is (games.web.invite_limits says why)."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_code = "invite_unavailable"

    def __init__(self, unavailable: InviteLimitsUnavailable) -> None:
        super().__init__(detail=unavailable.message)
        self.wait = unavailable.retry_after_seconds


class PrivateTableJoinView(APIView):
    @extend_schema(request=JoinSerializer, responses={
        200: PrivateTableSerializer, 400: REFUSED,
        429: OpenApiResponse(description="Too many wrong codes from this user or address; "
                                         "Retry-After says when to try again."),
        503: OpenApiResponse(description="The limits cannot be checked; retry later.")},
        summary="Join a private table by its invite code")
    def post(self, request: Request) -> Response:
        data = _valid(JoinSerializer, request)
        try:
            with invite_limits.code_lookup(request):
                seat = private_tables.private_table_join(user=request.user, code=data["code"])
        except InviteTriesExceeded as blocked:
            raise exceptions.Throttled(wait=blocked.retry_after_seconds,
                                       detail=blocked.message) from None
        except InviteLimitsUnavailable as unavailable:
            raise InviteCheckUnavailable(unavailable) from None
        except ActionError as error:
            return refusal(error)
        private = private_tables.private_of(seat.table_id)
        return Response(PrivateTableSerializer(describe(private, request)).data)


class PrivateTableView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={
        200: PrivateTableSerializer,
        401: OpenApiResponse(description="Not signed in."),
        403: OpenApiResponse(description="Spectators are off and the requester is neither "
                                         "seated there nor its host."),
        404: OpenApiResponse(description="Not a private table.")},
        summary="A private table and its series")
    def get(self, request: Request, table_id: int) -> Response:
        private = _private_or_404(table_id)
        if not visibility.may_watch(request.user, table_id):
            raise exceptions.PermissionDenied(_("这张好友房不允许旁观"))
        return Response(PrivateTableSerializer(describe(private, request)).data)


class PrivateTableRemoveView(APIView):
    @extend_schema(request=RemoveSerializer, responses={200: PrivateTableSerializer,
                                                        400: REFUSED},
                   summary="The host removes a player between games")
    def post(self, request: Request, table_id: int) -> Response:
        data = _valid(RemoveSerializer, request)
        return _host_action(request, table_id, private_tables.private_table_remove,
                            user_id=data["user"])


class PrivateTableFillBotsView(APIView):
    @extend_schema(request=None, responses={200: PrivateTableSerializer, 400: REFUSED},
                   summary="The host fills the empty seats with bots")
    def post(self, request: Request, table_id: int) -> Response:
        return _host_action(request, table_id, private_tables.private_table_fill_bots)


class PrivateTableCloseView(APIView):
    @extend_schema(request=None, responses={200: PrivateTableSerializer, 400: REFUSED},
                   summary="The host closes the table (its series ends)")
    def post(self, request: Request, table_id: int) -> Response:
        return _host_action(request, table_id, private_tables.private_table_close)


def _host_action(request: Request, table_id: int, action, **params) -> Response:
    private = _private_or_404(table_id)
    try:
        action(host=request.user, table_id=table_id, **params)
    except ActionError as error:
        return refusal(error)
    private.refresh_from_db()
    return Response(PrivateTableSerializer(describe(private, request)).data)


def _private_or_404(table_id: int) -> PrivateTable:
    private = private_tables.private_of(table_id)
    if private is None:
        raise exceptions.NotFound(_("没有这张好友房"))
    return private


def _valid(serializer_class, request: Request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
