"""A player's ready flag flipped at their waiting table, in plain SQL.

At a cold start every socket sends its ``ready`` at once, and each went through the
ORM: the table locked with its room, rule set and private row built as model
instances, the seat read twice and saved, the four seats read as instances. That was
the largest single part of a socket's start on its process's database thread (over
half of its samples in a profile of a start), for what is four short statements
(docs/performance.md, "A start without a queue"). Here they are those four, with
parameters bound and no string-built values; games.live.seating decides what follows
(the flag announced, or bots seated and the deal).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection

from games.errors import ActionError
from games.live.ready_deadline import ready_deadline
from games.models import Table

_TABLE_OF = "SELECT table_id FROM games_seat WHERE user_id = %s"
# The table's row locked (not the room's nor the private row's: FOR UPDATE OF), as
# seating.locked_table locks it, so flips, sits and deals of one table go one at a time.
_LOCK = (
    "SELECT t.status, t.room_id, r.bots_allowed, r.rated, r.ready_seconds, "
    "EXISTS (SELECT 1 FROM games_privatetable p WHERE p.table_id = t.id) "
    "FROM games_table t JOIN games_room r ON r.id = t.room_id "
    "WHERE t.id = %s FOR UPDATE OF t"
)
_FLIP = ("UPDATE games_seat SET is_ready = %s, ready_deadline = %s "
         "WHERE table_id = %s AND user_id = %s")
_SEATS = "SELECT user_id, is_ready FROM games_seat WHERE table_id = %s"


@dataclass(frozen=True)
class Flip:
    """What a flip left at its table (still locked: the caller's transaction)."""

    table_id: int
    room_id: int
    bots_allowed: bool
    rated: bool
    private: bool
    seated: int  # seats with a player (bot or person)
    ready: int  # of them, ready
    seats: int

    @property
    def all_ready(self) -> bool:
        return self.ready == self.seats


def flip_ready(user_id: int, ready: bool, *, not_seated, not_waiting) -> Flip:
    """Set ``user_id``'s ready flag at their waiting table inside the caller's
    transaction; ActionError with ``not_seated`` or ``not_waiting`` (and nothing
    written) otherwise."""
    with connection.cursor() as cursor:
        cursor.execute(_TABLE_OF, [user_id])
        row = cursor.fetchone()
        if row is None:
            raise ActionError(not_seated)
        table_id = row[0]
        cursor.execute(_LOCK, [table_id])
        status, room_id, bots_allowed, rated, ready_seconds, private = cursor.fetchone()
        if status != Table.Status.WAITING:
            raise ActionError(not_waiting)
        deadline = None if ready else \
            ready_deadline(ready_seconds=ready_seconds, private=private)
        # The seat as the table's other writers left it (they lock the table first):
        # the player may have stood up between the first read and the lock.
        cursor.execute(_FLIP, [ready, deadline, table_id, user_id])
        if cursor.rowcount == 0:
            raise ActionError(not_seated)
        cursor.execute(_SEATS, [table_id])
        seats = cursor.fetchall()
    return Flip(table_id=table_id, room_id=room_id, bots_allowed=bots_allowed, rated=rated,
                private=private, seated=sum(user is not None for user, _flag in seats),
                ready=sum(user is not None and flag for user, flag in seats),
                seats=len(seats))
