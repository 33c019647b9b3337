"""HTTP API of the accounts app: the requesting player, the level ladder, API tokens."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .login_limits import LoginBlocked, LoginUnavailable, authenticate_limited
from .selectors import ladder, player_standing
from .services import api_token_for


class LevelSerializer(serializers.Serializer):
    level = serializers.IntegerField(source="number")
    title = serializers.CharField()
    min_points = serializers.IntegerField(help_text="Points needed to reach this level.")


class NextLevelSerializer(LevelSerializer):
    points_needed = serializers.IntegerField(help_text="Points still to earn to reach it.")


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    nickname = serializers.CharField()
    level = serializers.IntegerField()
    title = serializers.CharField()
    points = serializers.IntegerField()
    coins = serializers.IntegerField()
    progress_percent = serializers.IntegerField(
        help_text="How far through the current level, 0–100 (100 at the top level).")
    next_level = NextLevelSerializer(allow_null=True, help_text="null at the top level.")


class MeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=MeSerializer, summary="The requesting player")
    def get(self, request: Request) -> Response:
        standing = player_standing(request.user)
        progress = standing.progress
        next_level = None
        if progress.next is not None:
            next_level = {"number": progress.next.number, "title": progress.next.title,
                          "min_points": progress.next.min_points,
                          "points_needed": progress.points_to_next}
        data = {
            "username": request.user.username,
            "nickname": request.user.nickname,
            "level": progress.current.number,
            "title": progress.current.title,
            "points": progress.points,
            "coins": standing.coins,
            "progress_percent": progress.percent,
            "next_level": next_level,
        }
        return Response(MeSerializer(data).data)


class LevelListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=LevelSerializer(many=True), summary="The level ladder")
    def get(self, request: Request) -> Response:
        return Response(LevelSerializer(ladder(), many=True).data)


class TokenRequestSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, write_only=True, trim_whitespace=False,
                                     style={"input_type": "password"})


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(
        help_text="Send it as the header `Authorization: Token <token>`.")


class LoginTemporarilyUnavailable(exceptions.APIException):
    """503 with Retry-After (DRF sets the header from ``wait``): the failed-login limits
    cannot be checked, so no password is (accounts.login_limits says why)."""

    status_code = 503
    default_code = "login_unavailable"

    def __init__(self) -> None:
        super().__init__(detail=_("登录暂时不可用，请稍后再试。"))
        self.wait = LoginUnavailable.RETRY_AFTER_SECONDS


class TokenView(APIView):
    """Exchange a username and password for the player's API token. Failed attempts
    count against the same limits as the login page."""

    # The credentials are in the body; a session cookie must not add a CSRF check.
    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(
        request=TokenRequestSerializer,
        responses={200: TokenSerializer,
                   400: OpenApiResponse(description="Missing fields or wrong credentials."),
                   429: OpenApiResponse(description="Too many failed attempts."),
                   503: OpenApiResponse(description="Logins are briefly unavailable "
                                        "(the failed-login limits cannot be checked); "
                                        "retry after Retry-After seconds.")},
        summary="Get an API token", auth=[],
    )
    def post(self, request: Request) -> Response:
        credentials = TokenRequestSerializer(data=request.data)
        credentials.is_valid(raise_exception=True)
        try:
            user = authenticate_limited(request._request, **credentials.validated_data)
        except LoginBlocked as blocked:
            raise exceptions.Throttled(
                wait=blocked.retry_after_seconds,
                detail=_("登录失败次数过多，请 %(minutes)d 分钟后再试。")
                % {"minutes": blocked.minutes}) from None
        except LoginUnavailable:
            raise LoginTemporarilyUnavailable() from None
        if user is None:
            raise exceptions.ValidationError(
                {"non_field_errors": [_("用户名或密码不正确。")]}, code="invalid_login")
        return Response(TokenSerializer({"token": api_token_for(user).key}).data)
