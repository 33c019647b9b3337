"""HTTP API of the games app: the open rooms, a game as the requester may see it, and
the event log of finished games. Hidden information is filtered on the server
(GUIDE): a game's view carries only the requester's own hand, and the log, which
holds every hand and the deal's seed, is published only once the game has ended.
A game at a private table without spectators is its players' only
(games.live.visibility.may_read_game): 401 for an anonymous client, 403 for anyone else."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.live import visibility
from games.live.lobby import lobby_rooms
from games.live.snapshots import game_view
from games.models import BotLevel, GameEvent, GameRecord, Room


class RoomSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    rule_set = serializers.CharField(help_text="The rule set's name: qq, tcy, jinyou, classic…")
    rule_set_label = serializers.CharField()
    seats_per_table = serializers.IntegerField(help_text="Players at a table (tcy: 2).")
    kind = serializers.ChoiceField(choices=Room.Kind.choices)
    kind_label = serializers.CharField()
    stake_unit = serializers.IntegerField(help_text="Points per score unit (points rooms).")
    coefficient = serializers.IntegerField(help_text="N: coins per score unit (coin rooms).")
    fee = serializers.IntegerField(help_text="A: coins each player pays per game.")
    fee_percent = serializers.IntegerField(
        help_text="Coin rooms whose rule set says so (classic): 系统回收 is this percent of "
                  "each winner's gain instead of A; 0: A.")
    coin_multiplier_cap = serializers.IntegerField(
        help_text="Coin rooms: the most the multiplier counts for coins (classic: 5); 0: none.")
    min_coins = serializers.IntegerField(help_text="Coins needed to sit down.")
    max_loss = serializers.IntegerField(help_text="Coins frozen when a game starts.")
    turn_seconds = serializers.IntegerField()
    escape_mode = serializers.ChoiceField(choices=Room.EscapeMode.choices)
    bots_allowed = serializers.BooleanField(help_text="Whether bots fill empty seats.")
    bot_level = serializers.ChoiceField(choices=BotLevel.choices,
                                        help_text="How the room's bots play.")
    seats_taken = serializers.IntegerField(help_text="Occupied seats over all tables, bots too.")
    tables = serializers.IntegerField()
    playing = serializers.IntegerField(help_text="Tables with a game running.")


class GameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    seq = serializers.IntegerField(help_text="Events so far; a client seeing a gap resyncs.")
    status = serializers.ChoiceField(choices=["playing", "ended"])
    rules = serializers.CharField()
    players = serializers.ListField(child=serializers.IntegerField(),
                                    help_text="User ids by seat.")
    seat = serializers.IntegerField(allow_null=True,
                                    help_text="The requester's seat; null for anyone else.")
    hand = serializers.ListField(child=serializers.CharField(), allow_null=True,
                                 help_text="The requester's own cards; null unless seated.")
    hand_counts = serializers.ListField(child=serializers.IntegerField())
    turn = serializers.IntegerField(allow_null=True)
    leader = serializers.IntegerField(allow_null=True)
    current = serializers.JSONField(allow_null=True, help_text="The play to beat.")
    trick = serializers.JSONField()
    finish = serializers.ListField(child=serializers.IntegerField())
    trustee = serializers.ListField(child=serializers.BooleanField())
    timeouts = serializers.ListField(child=serializers.IntegerField())
    revealed = serializers.JSONField(allow_null=True, help_text="明牌, when this game had one.")
    swapped = serializers.JSONField(allow_null=True)
    escaped = serializers.JSONField()
    result = serializers.JSONField(allow_null=True)
    history = serializers.JSONField(help_text="The events, each as this requester may see "
                                              "it (the deal without hands or seed).")
    settlement = serializers.JSONField(allow_null=True,
                                       help_text="Points and coins each seat received.")
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When the current turn times out (UTC); null once over.")


class GameEventsSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    status = serializers.ChoiceField(choices=GameRecord.Status.choices)
    settled = serializers.BooleanField(
        help_text="Whether settlement ran; its `settled` event ends the log.")
    seq = serializers.IntegerField()
    events = serializers.JSONField(help_text="Every event in order, the deal's hands and "
                                             "seed included: enough to replay the game.")


NOT_FOUND = OpenApiResponse(description="No game with that id.")
CLOSED = OpenApiResponse(description="A game at a private table without spectators, and "
                                     "the requester is not one of its players (401 when "
                                     "not signed in).")


def game_or_404(game_id: int) -> GameRecord:
    """The game, or a 404 whose message is in the request's language (Django's own
    ``No GameRecord matches the given query.`` is neither translated nor for players)."""
    record = GameRecord.objects.filter(pk=game_id).first()
    if record is None:
        raise exceptions.NotFound(_("没有编号为 %(game)d 的牌局。") % {"game": game_id})
    return record


def readable_game(request: Request, game_id: int) -> GameRecord:
    """The game if ``request.user`` may read it (games.live.visibility.may_read_game);
    otherwise 404 (no such game), 401 (not signed in) or 403."""
    record = game_or_404(game_id)
    if not visibility.may_read_game(request.user, record):
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        raise exceptions.PermissionDenied(private_game_refusal(record))
    return record


def private_game_refusal(record: GameRecord) -> str:
    return _("牌局 %(game)d 在不允许旁观的好友房：只有这局的玩家可以查看。") % {"game": record.pk}


class RoomListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=RoomSerializer(many=True), summary="The open rooms")
    def get(self, request: Request) -> Response:
        return Response(RoomSerializer(lobby_rooms(), many=True).data)


class GameView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: GameSerializer, 401: CLOSED, 403: CLOSED, 404: NOT_FOUND},
                   summary="A game as the requester may see it")
    def get(self, request: Request, game_id: int) -> Response:
        """The public state of a game. A player seated in it also gets their own hand;
        anyone else, signed in or not, gets no hand."""
        record = readable_game(request, game_id)
        return Response(GameSerializer(game_view(record, visibility.viewer_id(request.user)))
                        .data)


class GameEventsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: GameEventsSerializer, 401: CLOSED,
                   403: OpenApiResponse(description="The game is still running, or it "
                                                    "was at a private table without "
                                                    "spectators (see 401)."),
                   404: NOT_FOUND},
        summary="The event log of a finished game")
    def get(self, request: Request, game_id: int) -> Response:
        """The whole log, hands included, for replays and audits. Refused while the
        game runs: the log would show every player's cards."""
        record = readable_game(request, game_id)
        if record.status != GameRecord.Status.ENDED:
            raise exceptions.PermissionDenied(_(
                "牌局 %(game)d 仍在进行中：事件记录含有各家手牌，对局结束后才公开。")
                % {"game": record.pk})
        events = list(GameEvent.objects.filter(game=record).order_by("seq")
                      .values_list("data", flat=True))
        # Settlement may append its event meanwhile: describe the log as read.
        return Response(GameEventsSerializer({
            "game": record.pk, "status": record.status,
            "settled": any(event["type"] == "settled" for event in events),
            "seq": events[-1]["seq"] if events else 0, "events": events}).data)
