"""Rematch (再来一局): the people of a finished game again, with one click. The player
who asks opens a new private table in the game's room and sits in their old seat;
each other person of the game gets an invitation keeping their old seat, and the
game's bots sit again where they sat (unless playing elsewhere: the host may then fill
the seat with another bot). When the same players sit down, the first deal carries the
old game's series on (games.live.series), so the running score goes on."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.errors import ActionError
from games.live.bot_accounts import bot_user_ids
from games.live.private_tables import private_of, private_table_open
from games.live.seat_choice import seat_bot_at, seat_move
from games.live.seating import table_stand
from games.live.series import continue_series
from games.models import GameRecord, PrivateTable, Room, Seat, Table

from .invites import invite_friend
from .services import blocks_between


def rematch(*, user: User, game_id: object) -> PrivateTable:
    """Open the rematch of ``game_id`` (a finished game ``user`` played) and invite its
    other people. A player still waiting at a table stands up first; one in a game
    running is refused."""
    record = _finished_game_of(user, game_id)
    room = Room.objects.filter(pk=record.room_id, is_open=True).first()
    if room is None:
        raise ActionError(_("这个房间已关闭"), code="room_closed")
    seat = Seat.objects.filter(user=user).select_related("table").first()
    if seat is not None and seat.table.status != Table.Status.WAITING:
        raise ActionError(_("对局进行中：请等这一局结束"), code="table_playing")
    old_private = private_of(record.table_id)
    with transaction.atomic():
        if seat is not None:
            table_stand(user=user)
        private = private_table_open(
            host=user, room_id=room.pk,
            spectators=old_private.spectators if old_private is not None else True)
        my_index = record.players.index(user.pk)
        if my_index != 0:
            seat_move(user=user, seat_index=my_index)
        if record.series_id is not None:
            continue_series(private, record.series)
        bots = bot_user_ids(record.players)
        for index, other in enumerate(record.players):
            if other in bots:
                seat_bot_at(table_id=private.table_id, seat_index=index, bot_id=other)
                continue
            if other == user.pk or blocks_between(user.pk, other):
                continue
            invite_friend(sender=user, recipient_id=other, seat=index, rematch=True,
                          friends_only=False)
    return private


def _finished_game_of(user: User, game_id: object) -> GameRecord:
    try:
        game_id = int(game_id)
    except (TypeError, ValueError):
        raise ActionError(_("没有这局对局"), code="no_game") from None
    record = GameRecord.objects.filter(pk=game_id).select_related("series").first()
    if record is None or user.pk not in (record.players or []):
        raise ActionError(_("没有这局对局"), code="no_game")
    if record.status != GameRecord.Status.ENDED:
        raise ActionError(_("这局还没有结束"), code="not_ended")
    return record


def history_cells(games: list[GameRecord]) -> dict[int, dict]:
    """The history's 再来一局 column: a rematch form for each finished game."""
    return {game.pk: {"game_id": game.pk} for game in games
            if game.status == GameRecord.Status.ENDED}
