"""Seating a round and dealing its boards (docs/tournaments.md). A board is dealt at a
table through games' own deal (games.live.lifecycle.game_start) with the board's seed
(games.hooks.deals.DealPlan): every table of the round gets the same cards, seat by
seat. A tournament's table is dealt only from here: a player's ready there is refused
(:func:`refuse_other_deals`, registered as a deal planner)."""

from __future__ import annotations

import contextvars
from contextlib import contextmanager

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games.errors import ActionError
from games.hooks.deals import DealPlan
from games.live.broadcast import announce_seats
from games.live.lifecycle.deadlines import game_disconnected
from games.live.lifecycle.deal import game_start
from games.live.seating import locked_table
from games.models import Seat, Table, TableSocket
from tournaments.boards import board_seed
from tournaments.models import Board, Entry, Pairing, Tournament

_dealing = contextvars.ContextVar("tournament_dealing", default=False)


def refuse_other_deals(table: Table) -> DealPlan | None:
    """The deal planner (games.hooks.deals): a tournament's table is never dealt by a
    ready or a fill, only by :func:`deal_board`, which passes its plan itself."""
    # A tournament's room is closed: an open room's deal costs no query here.
    if not _dealing.get() and not table.room.is_open \
            and Tournament.objects.filter(room_id=table.room_id).exists():
        raise ActionError(_("比赛牌桌由比赛自动发牌"))
    return None


@contextmanager
def _dealing_here():
    token = _dealing.set(True)
    try:
        yield
    finally:
        _dealing.reset(token)


def tables_of(tournament: Tournament) -> list[Table]:
    return list(Table.objects.filter(room_id=tournament.room_id).order_by("number"))


def create_tables(tournament: Tournament, count: int, per_table: int) -> list[Table]:
    tables = []
    for number in range(1, count + 1):
        table = Table.objects.create(room_id=tournament.room_id, number=number)
        Seat.objects.bulk_create([Seat(table=table, index=index) for index in range(per_table)])
        tables.append(table)
    return tables


def seat_round(tournament: Tournament, round_number: int, seatings: list[list[int]]) -> None:
    """Write the round's pairings and sit everyone down, in one transaction: the old
    round's seats are emptied and the new ones filled before anyone else sees either,
    so no one else (a lobby's bot fill) can take a tournament bot in between."""
    tables = tables_of(tournament)
    users = [user for seating in seatings for user in seating]
    # A player's seat elsewhere at a waiting table (registered, then sat down in a
    # room while waiting for the start): stood up, the tournament seats them.
    Seat.objects.filter(user_id__in=users, table__status=Table.Status.WAITING).update(
        user=None, is_ready=False, ready_deadline=None, connected=False)
    rows = []
    for table, seating in zip(tables, seatings):
        for index, user in enumerate(seating):
            rows.append(Pairing(tournament=tournament, round=round_number, table=table,
                                index=index, user_id=user))
            Seat.objects.filter(table=table, index=index).update(user_id=user, is_ready=True)
    Pairing.objects.bulk_create(rows)


def deal_board(tournament: Tournament, table_id: int, round_number: int, board: int) -> Board:
    """Deal board ``board`` of the round at the table, its players in the round's
    seats (a leaver, stood up when their last game ended, is seated again: 托管 plays
    for them), then 托管 for those who left or are not at the table."""
    table = locked_table(table_id)
    seating = list(Pairing.objects.filter(tournament=tournament, round=round_number,
                                          table_id=table_id).order_by("index")
                   .values_list("user_id", flat=True))
    seats = list(Seat.objects.filter(table_id=table_id).order_by("index"))
    moved = [seat for seat, user in zip(seats, seating) if seat.user_id != user]
    if moved:
        Seat.objects.filter(pk__in=[seat.pk for seat in moved]).update(user=None)
        Seat.objects.filter(user_id__in=[user for seat, user in zip(seats, seating)
                                         if seat in moved],
                            table__status=Table.Status.WAITING).update(user=None)
        for seat, user in zip(seats, seating):
            if seat in moved:
                seat.user_id = user
                seat.save(update_fields=["user"])
    for seat in seats:
        seat.is_ready = True
    seed = board_seed(tournament.seed, round_number, board)
    with _dealing_here():
        record = game_start(table, seats, plan=DealPlan(seed=seed, previous=None))
    row = Board.objects.create(tournament=tournament, round=round_number, board=board,
                               table=table, game=record, seed=str(seed), seating=seating)
    absent = _absent(tournament, seating, first_of_tournament=round_number == 1 and board == 1)
    for user in absent:
        transaction.on_commit(lambda user=user: game_disconnected(user_id=user,
                                                                  game_id=record.pk))
    if moved:
        announce_seats(table.pk, table.room_id)
    return row


def _absent(tournament: Tournament, seating: list[int], *,
           first_of_tournament: bool) -> list[int]:
    """Players 托管 plays for from the deal: those who left the tournament (escaped a
    board), and, but for the very first board (everyone comes from the waiting page),
    people with no socket at any of the tournament's tables (gone: they switch 托管
    off when they come back)."""
    left = set(Entry.objects.filter(tournament=tournament, user_id__in=seating,
                                    left_at__isnull=False).values_list("user_id", flat=True))
    away: set[int] = set()
    if not first_of_tournament:
        bots = set(Entry.objects.filter(tournament=tournament, user_id__in=seating,
                                        is_bot=True).values_list("user_id", flat=True))
        present = set(TableSocket.objects.filter(table__room_id=tournament.room_id,
                                                 user_id__in=seating)
                      .values_list("user_id", flat=True))
        away = set(seating) - present - bots
    return [user for user in seating if user in left | away]
