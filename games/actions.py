"""Every write to a running game: one short transaction per action (GUIDE).

Lock the game row, check the action with the engine, append its events, update
the row (seq, turn, deadline), commit, then notify the table. Errors reach only
the sender and change nothing.
"""

from __future__ import annotations

import random
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from games.engine.game import Game, GameError, event_for

from . import live
from .broadcast import send_after_commit, table_group
from .errors import ActionError
from .messages import engine_message
from .models import GameEvent, GameRecord, Room

MAX_AUTOMATIC_MOVES = 400  # a whole game is far fewer; a guard against a loop


def game_act(*, user_id: int, game_id: int, action: str, cards: str | list | None = None,
             reading: dict | None = None, on: bool | None = None,
             client_seq: int | None = None) -> list[dict]:
    """A seated player's action: ``play``, ``pass``, ``trustee`` (on/off) or ``leave``
    (an escape, RULES §10). ``client_seq`` is the last seq the client saw: an action
    based on an older state is refused as stale. Returns the public events."""
    with transaction.atomic():
        record = _locked(game_id)
        if record.status != GameRecord.Status.PLAYING:
            raise ActionError(gettext_lazy("本局已经结束"))
        if user_id not in record.players:
            raise ActionError(gettext_lazy("你没有参加这局牌"))
        seat = record.players.index(user_id)
        if client_seq is not None and client_seq != record.seq:
            raise ActionError(
                gettext_lazy("操作已过期：牌局已到第 %(seq)s 步，你发送的是第 %(sent)s 步；"
                             "请重新获取牌局状态"),
                {"seq": record.seq, "sent": client_seq}, code="stale")
        game = live.engine_for(record)
        mark = len(game.events)
        try:
            if action in ("play", "pass") and seat in game.escaped:
                # RULES §10 auto_play: the seat stays in 托管 to the end. Without this an
                # escaper could still move whenever 托管 has think time (bots' delay).
                live.remember(record.pk, game)  # refused before the engine: unchanged
                raise ActionError(gettext_lazy("你已离开本局：托管将替这个座位打到结束"))
            if action == "play":
                game.play(seat, cards if cards is not None else "", reading)
            elif action == "pass":
                game.pass_turn(seat)
            elif action == "trustee":
                game.set_trustee(seat, bool(on), "player")
            elif action == "leave":
                game.escape(seat)
            else:
                raise ActionError(gettext_lazy("未知的操作 %(action)s"), {"action": repr(action)})
        except GameError as error:
            live.remember(record.pk, game)  # the engine refused: it is unchanged
            # Translated when shown, in the reader's language, from the refusal's code
            # and params (games.messages, games.refusals).
            raise ActionError(engine_message(error)) from None
        return _commit(record, game, mark)


def game_disconnected(*, user_id: int, game_id: int) -> list[dict]:
    """A seat's socket went away: 托管 at once (RULES §10). Coming back does not
    cancel it: the player does that when they choose to."""
    with transaction.atomic():
        record = _locked(game_id)
        if record.status != GameRecord.Status.PLAYING or user_id not in record.players:
            return []
        game = live.engine_for(record)
        mark = len(game.events)
        game.set_trustee(record.players.index(user_id), True, "disconnect")
        return _commit(record, game, mark)


def game_deadline(*, game_id: int, seq: int) -> list[dict]:
    """The turn deadline of ``game_id`` at ``seq`` passed: the bot or 托管 seat acts,
    or a person's turn times out (RULES §10). Claims the turn with the row lock and
    the seq: if anything happened meanwhile, nothing is done."""
    with transaction.atomic():
        record = (GameRecord.objects.select_for_update(skip_locked=True, of=("self",))
                  .filter(pk=game_id, seq=seq, status=GameRecord.Status.PLAYING,
                          deadline__lte=timezone.now()).select_related("room").first())
        if record is None:
            return []
        game = live.engine_for(record)
        mark = len(game.events)
        seat = game.turn
        if seat in record.bot_seats:
            _bot_move(record, game)
        elif game.trustee[seat]:
            game.bot_turn()
        else:
            game.timeout(seat)
        return _commit(record, game, mark)


def record_new_game(record: GameRecord, game: Game) -> list[dict]:
    """Store a just-dealt game's events (call inside the table's transaction)."""
    return _commit(record, game, 0)


def _locked(game_id: int) -> GameRecord:
    # of=("self",): lock the game row only. Without it PostgreSQL also locks the joined
    # room row, and every action at every table of the room queued on that one row.
    record = GameRecord.objects.select_for_update(of=("self",)).select_related("room") \
        .filter(pk=game_id).first()
    if record is None:
        raise ActionError(gettext_lazy("没有牌局 %(game)s"), {"game": game_id})
    return record


def _bot_move(record: GameRecord, game: Game) -> None:
    game.bot_turn(rng=random.Random(f"{record.pk}:{len(game.events)}"))


def _run_automatic(record: GameRecord, game: Game) -> None:
    """With no think time, bots and 托管 seats move at once, in the same transaction."""
    if settings.GAMES_BOT_THINK_SECONDS > 0:
        return
    for _ in range(MAX_AUTOMATIC_MOVES):
        if game.status != "playing":
            return
        seat = game.turn
        if seat in record.bot_seats:
            _bot_move(record, game)
        elif game.trustee[seat]:
            game.bot_turn()
        else:
            return


def _commit(record: GameRecord, game: Game, mark: int) -> list[dict]:
    _run_automatic(record, game)
    new = game.events[mark:]
    if not new:
        live.remember(record.pk, game)
        return []
    GameEvent.objects.bulk_create(
        [GameEvent(game=record, seq=event["seq"], type=event["type"], data=event)
         for event in new])
    record.seq = len(game.events)
    record.turn = game.turn
    record.deadline = _deadline(record, game)
    fields = ["seq", "turn", "deadline"]
    if game.status == "ended":
        record.status = GameRecord.Status.ENDED
        record.result = game.result.to_dict()
        record.ended_at = timezone.now()
        fields += ["status", "result", "ended_at"]
    record.save(update_fields=fields)
    public = [event_for(event, None) for event in new]
    record_id, table_id = record.pk, record.table_id
    transaction.on_commit(lambda: live.remember(record_id, game))
    send_after_commit(table_group(table_id), {
        "type": "game.events", "game": record_id, "seq": record.seq, "turn": record.turn,
        "deadline": record.deadline.isoformat() if record.deadline else None,
        "events": public})
    if game.status == "ended":
        from .tasks import settle_game_task

        # robust: the action has committed; a broker that refuses the task must not turn
        # it into an error for the player (whose socket would close and go to 托管).
        # sweep_unsettled settles any game whose task was lost.
        transaction.on_commit(lambda: settle_game_task.delay(record_id), robust=True)
    return public


def _deadline(record: GameRecord, game: Game):
    if game.status != "playing":
        return None
    room: Room = record.room
    seat = game.turn
    if seat in record.bot_seats or game.trustee[seat]:
        seconds = settings.GAMES_BOT_THINK_SECONDS
    elif game.plays == 0:
        seconds = room.first_turn_seconds
    else:
        seconds = room.turn_seconds
    return timezone.now() + timedelta(seconds=seconds)
