"""The friends API: the list with statuses, a request, an acceptance, whom I blocked
(the table page hides their quick chat), inviting, accepting an invitation, rematch.
Signed-in players only; a refusal is a 400 with ``detail`` and ``code``."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from games.errors import ActionError

from . import invites, presence, rematch, services

ERROR = inline_serializer("FriendsError", {"detail": serializers.CharField(),
                                           "code": serializers.CharField(allow_null=True)})
FRIEND = inline_serializer("Friend", {
    "id": serializers.IntegerField(), "username": serializers.CharField(),
    "name": serializers.CharField(),
    "status": serializers.ChoiceField(
        choices=["playing", "seated", "watching", "online", "offline"]),
    "table": serializers.IntegerField(allow_null=True, help_text="Where they play or watch."),
    "watchable": serializers.BooleanField(help_text="I may open that table's page.")},
    many=True)


def refused(error: ActionError) -> Response:
    return Response({"detail": str(error), "code": getattr(error, "code", None)},
                    status=status.HTTP_400_BAD_REQUEST)


class Signed(APIView):
    permission_classes = [IsAuthenticated]


class FriendsView(Signed):
    @extend_schema(responses={200: FRIEND},
                   summary="My friends and what they are doing now")
    def get(self, request: Request) -> Response:
        friends = User.objects.filter(pk__in=services.friend_ids(request.user.pk))
        return Response([{"id": row.user.pk, "username": row.user.username,
                          "name": str(row.user), "status": row.status, "table": row.table_id,
                          "watchable": row.watchable}
                         for row in presence.statuses(request.user, list(friends))])

    @extend_schema(request=inline_serializer("FriendRequestBody",
                                             {"username": serializers.CharField()}),
                   responses={200: inline_serializer("FriendRequestDone", {
                       "result": serializers.ChoiceField(choices=["sent", "friends"])}),
                       400: ERROR}, summary="Ask a player to be friends")
    def post(self, request: Request) -> Response:
        try:
            other = services.person(request.data.get("username"))
            result = services.friend_request(sender=request.user, recipient=other)
        except ActionError as error:
            return refused(error)
        return Response({"result": result})


class AcceptView(Signed):
    @extend_schema(request=None, responses={200: None, 400: ERROR},
                   summary="Accept a friend request")
    def post(self, request: Request, user_id: int) -> Response:
        try:
            services.friend_accept(user=request.user, sender_id=user_id)
        except ActionError as error:
            return refused(error)
        return Response({"friends": True})


class BlockedView(Signed):
    @extend_schema(responses={200: inline_serializer("Blocked", {
        "users": serializers.ListField(child=serializers.IntegerField())})},
        summary="Whom I blocked (their chat is hidden from me)")
    def get(self, request: Request) -> Response:
        return Response({"users": services.blocked_ids(request.user.pk)})


class InviteView(Signed):
    @extend_schema(request=None, responses={200: None, 400: ERROR},
                   summary="Invite a friend to my private table")
    def post(self, request: Request, user_id: int) -> Response:
        try:
            invite = invites.invite_friend(sender=request.user, recipient_id=user_id)
        except ActionError as error:
            return refused(error)
        return Response({"invite": invite.pk, "table": invite.table_id})


class InviteAcceptView(Signed):
    @extend_schema(request=None, responses={200: None, 400: ERROR},
                   summary="Accept an invitation: sit at its table")
    def post(self, request: Request, invite_id: int) -> Response:
        try:
            seat = invites.invite_accept(user=request.user, invite_id=invite_id)
        except ActionError as error:
            return refused(error)
        return Response({"table": seat.table_id, "seat": seat.index})


class RematchView(Signed):
    @extend_schema(request=None, responses={200: None, 400: ERROR},
                   summary="Rematch: a new private table, the game's players invited")
    def post(self, request: Request, game_id: int) -> Response:
        try:
            private = rematch.rematch(user=request.user, game_id=game_id)
        except ActionError as error:
            return refused(error)
        return Response({"table": private.table_id})
