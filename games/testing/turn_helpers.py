"""Helpers of the tests that step a live game turn by turn: its log, the bots moved on
to a seat's turn by their deadlines, a legal move of that seat."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.engine.game import Game
from games.live.hints import game_hints
from games.live.lifecycle.deadlines import game_deadline
from games.models import GameEvent, GameRecord
from games.testing.room_helpers import make_player, make_room, start_game_with_bots


def event_log(game_id: int) -> list[dict]:
    """The game's events as stored, in order."""
    return list(GameEvent.objects.filter(game_id=game_id).order_by("seq")
                .values_list("data", flat=True))


def bots_to(record: GameRecord, seat: int) -> GameRecord:
    """Let the bots' turns expire (their think time is not 0 here) until ``seat``'s turn."""
    for _turn in range(20):
        record.refresh_from_db()
        if record.status != GameRecord.Status.PLAYING or record.turn == seat:
            return record
        GameRecord.objects.filter(pk=record.pk).update(
            deadline=timezone.now() - timedelta(seconds=1))
        game_deadline(game_id=record.pk, seq=record.seq)
    raise AssertionError("the bots never reached the seat")


def a_legal_move(game: Game, seat: int) -> tuple[str, list[str] | None]:
    """A legal move of ``seat`` on its turn: its smallest play, else a pass."""
    plays = game_hints(game, seat)
    return ("play", plays[0]) if plays else ("pass", None)


def game_at_alices_turn(name: str) -> tuple[GameRecord, int, int]:
    """A game of ``name`` with three bots, at ``name``'s turn: the game, the seat, the
    user id."""
    alice = make_player(name)
    record = start_game_with_bots(alice, make_room(f"{name} room"))
    seat = record.players.index(alice.pk)
    return bots_to(record, seat), seat, alice.pk
