"""Sitting, standing and getting ready at tables, and bots filling the empty seats
(RULES §10). A full, ready table starts its game through games.live.lifecycle."""

from __future__ import annotations

import json

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.errors import ActionError
from games.hooks.seat_guards import check_may_sit
from games.hooks.table_choice import choose_tables
from games.live.bot_accounts import bot_user_ids, free_bot, stand_bots_if_alone
from games.live.broadcast import announce_seats
from games.live.lifecycle.deal import game_start
from games.live.message_fields import is_whole_number
from games.live.ready_deadline import ready_deadline
from games.live.ready_flip import flip_ready
from games.live.series import end_series, is_private
from games.models import Room, Seat, Series, Table
from ledger.models import Currency
from ledger.services import balance_of


def room_quick_join(*, user: User, room_id: int) -> Seat:
    """Sit at the first waiting table of the room with a free seat, or a new table."""
    room = Room.objects.filter(pk=room_id, is_open=True).first()
    if room is None:
        raise ActionError(_("这个房间已关闭或不存在"))
    existing = Seat.objects.filter(user=user).select_related("table").first()
    if existing is not None:
        if existing.table.room_id == room.pk:
            return existing
        raise ActionError(_("你已在 %(table)s 就座，请先离座"), {"table": existing.table})
    _check_can_sit(user, room)
    # Most joins find a seat here, each table locked on its own: no room-wide wait.
    seat = _sit_at_a_free_table(user, room)
    if seat is not None:
        return seat
    # None free: look again and open a table as one step with the room locked, so
    # that joins arriving together fill the table the first of them opened instead of
    # each opening one of their own.
    with transaction.atomic():
        lock_room(room.pk)
        return _sit_at_a_free_table(user, room) \
            or table_sit(user=user, table_id=table_create(room).pk)


# Refusals of a sit that only say this table's seats went to others meanwhile.
SEAT_GONE = frozenset({"table_full", "seat_taken", "table_playing"})


def _sit_at_a_free_table(user: User, room: Room) -> Seat | None:
    # Never a private table (好友房): only its invite code seats anyone there. The
    # choosers (ratings' matchmaking in a rated room) say which of the others, in order.
    tables = list(room.tables.filter(status=Table.Status.WAITING, seats__user__isnull=True,
                                     private__isnull=True).distinct().order_by("number"))
    for table in choose_tables(user, room, tables):
        try:
            return table_sit(user=user, table_id=table.pk)
        except ActionError as error:
            if error.code not in SEAT_GONE:
                raise
            # taken or dealt meanwhile: try the next table
    return None


def lock_room(room_id: int) -> None:
    """Lock the room's row until the transaction ends: table numbers are taken, and a
    quick join decides between a free seat and a new table, one at a time per room.

    FOR NO KEY UPDATE rather than FOR UPDATE: every row that points at the room (a new
    table, a game dealt in it) takes FOR KEY SHARE on it, which this lock lets through,
    so nothing but other table openings in the same room waits for it."""
    Room.objects.select_for_update(no_key=True).filter(pk=room_id).values_list("pk").first()


def table_create(room: Room) -> Table:
    """A new waiting table in ``room``, numbered one past the room's highest (the site
    never deletes a table, so numbers run 1, 2, 3 … without gaps). The room stays locked
    (:func:`lock_room`) until the caller's transaction ends: two openings at once read
    the highest number one after the other, never both the same one (the unique
    ``one_table_number_per_room`` refused the second with a 500)."""
    with transaction.atomic():
        lock_room(room.pk)
        highest = Table.objects.filter(room=room).aggregate(Max("number"))["number__max"]
        table = Table.objects.create(room=room, number=(highest or 0) + 1)
        Seat.objects.bulk_create([Seat(table=table, index=index)
                                  for index in range(room.seat_count())])
    return table


def table_sit(*, user: User, table_id: int, seat_index: int | None = None,
              invited: bool = False) -> Seat:
    """Sit at the table. A private table (好友房) seats only players who came with its
    invite code (``invited``, games.live.private_tables)."""
    try:
        return _table_sit(user=user, table_id=table_id, seat_index=seat_index,
                          invited=invited)
    except IntegrityError:
        # Two sits of one user at two tables lock two different table rows, so both
        # pass the check above; the unique seat per user refuses the later one
        #. Its transaction is rolled back: nothing changed.
        raise _seated_elsewhere() from None


def _seated_elsewhere() -> ActionError:
    return ActionError(_("你已在另一张牌桌就座，请先离座"), code="already_seated")


def _table_sit(*, user: User, table_id: int, seat_index: int | None, invited: bool) -> Seat:
    if seat_index is not None and not is_whole_number(seat_index):
        # JSON's true is Python's True, an int: it sat its sender at seat 1.
        raise ActionError(_("座位必须是从 0 数起的整数，不能是 %(seat)s"),
                          {"seat": json.dumps(seat_index, default=repr)[:40]}, code="bad_seat")
    with transaction.atomic():
        table = locked_table(table_id)
        room = table.room
        private = table.private if is_private(table) else None
        mine = Seat.objects.filter(user=user).first()
        if mine is not None:
            if mine.table_id == table.pk:
                return mine
            raise _seated_elsewhere()
        if not room.is_open:
            raise ActionError(_("这个房间已关闭"))
        if private is not None and (private.closed_at is not None or not invited):
            raise ActionError(_("这是好友房：请用邀请码或邀请链接加入"), code="private_table")
        if table.status != Table.Status.WAITING:
            raise ActionError(_("这张牌桌正在对局"), code="table_playing")
        _check_can_sit(user, room)
        seats = list(table.seats.order_by("index"))
        if seat_index is None:
            seat = next((seat for seat in seats if seat.user_id is None), None)
            if seat is None:
                raise ActionError(_("这张牌桌已经坐满了"), code="table_full")
        else:
            if not 0 <= seat_index < len(seats):
                raise ActionError(_("这张牌桌没有座位 %(seat)s"), {"seat": seat_index},
                                  code="bad_seat")
            seat = seats[seat_index]
            if seat.user_id is not None:
                raise ActionError(_("这个座位已经有人了"), code="seat_taken")
        seat.user = user
        seat.is_ready = False
        seat.ready_deadline = ready_deadline(ready_seconds=room.ready_seconds,
                                             private=private is not None)
        seat.save(update_fields=["user", "is_ready", "ready_deadline"])
        if table.waiting_since is None:
            table.waiting_since = timezone.now()
            table.save(update_fields=["waiting_since"])
        announce_seats(table.pk, table.room_id)
    return seat


def sit_by_id(*, user_id: int, table_id: int, seat_index) -> Seat:
    """:func:`table_sit` for a table socket, which knows its user by id."""
    return table_sit(user=User.objects.get(pk=user_id), table_id=table_id,
                     seat_index=seat_index)


def stand_by_id(*, user_id: int) -> None:
    """:func:`table_stand` for a table socket: by id, with no read of the user."""
    with transaction.atomic():
        seat, table = _my_waiting_table(
            user_id, _("你没有就座"), _("对局进行中：现在离开按逃跑处理（请用“离开对局”）"))
        # `connected` belongs to the occupant's socket: an emptied seat is not connected.
        Seat.objects.filter(pk=seat.pk).update(user=None, is_ready=False, ready_deadline=None,
                                               connected=False)
        end_series(table, Series.End.LEFT)  # a private table's series ends
        stand_bots_if_alone(table)
        announce_seats(table.pk, table.room_id)


def table_stand(*, user: User) -> None:
    """Leave a waiting table. During a game, leaving is an escape (games.live.lifecycle)."""
    stand_by_id(user_id=user.pk)


def table_ready(*, user: User, ready: bool = True) -> None:
    ready_by_id(user_id=user.pk, ready=ready)


def ready_by_id(*, user_id: int, ready: bool) -> None:
    """Ready (or not) at the player's waiting table; the deal once all four are. Most
    flips change the flag alone (games.live.ready_flip: plain SQL, at a cold start
    every socket sends one); a flip that seats bots or readies the last seat goes on
    with the table read whole."""
    with transaction.atomic():
        flip = flip_ready(user_id, ready, not_seated=_("请先入座"),
                          not_waiting=_("对局已经开始了"))
        # Bots fill at once only outside private tables (there only when the host asks).
        fills = ready and flip.bots_allowed and not flip.private \
            and bot_fill_seconds(rated=flip.rated) == 0 and flip.seated < flip.seats
        if not fills and not flip.all_ready:
            announce_seats(flip.table_id, flip.room_id, shared=True)
            return
        table = locked_table(flip.table_id)  # locked by the flip: read whole to deal
        filled = fills and _fill_with_bots(table)
        if not _start_if_ready(table):
            # Only a flag changed, unless bots were seated: their seats go in order.
            announce_seats(table.pk, table.room_id, shared=not filled)


def table_fill_bots(*, table_id: int) -> bool:
    """Seat bots in the empty seats of a waiting table that has a person at it
    (the lobby's wait is over) and start when everyone is ready."""
    with transaction.atomic():
        table = locked_table(table_id)
        if table.status != Table.Status.WAITING or not table.room.bots_allowed:
            return False
        if not _humans(table):
            return False
        return fill_bots_now(table)


def bot_fill_seconds(*, rated: bool) -> float:
    """How long a person waits at a table before bots fill it: longer in a rated
    room, where the matchmaking first looks for people of close rating."""
    return settings.GAMES_RATED_BOT_FILL_SECONDS if rated else settings.GAMES_BOT_FILL_SECONDS


def fill_bots_now(table: Table) -> bool:
    """Bots in the empty seats of ``table`` (locked, waiting), then the game if
    everyone is ready."""
    _fill_with_bots(table)
    if not _start_if_ready(table):
        announce_seats(table.pk, table.room_id)
    return True


def table_unseat_unready(*, table_id: int) -> int:
    """Remove people who did not get ready in time (RULES §10)."""
    with transaction.atomic():
        table = locked_table(table_id)
        if table.status != Table.Status.WAITING:
            return 0
        late = table.seats.filter(user__isnull=False, is_ready=False,
                                  ready_deadline__lte=timezone.now())
        count = late.update(user=None, ready_deadline=None, connected=False)
        if count:
            stand_bots_if_alone(table)
            announce_seats(table.pk, table.room_id)
        return count


# --- internals --------------------------------------------------------------------------

def _my_waiting_table(user_id: int, not_seated, not_waiting) -> tuple[Seat, Table]:
    """The player's seat and its table, locked and waiting for a game: the seat read
    after the lock, so as the table's other writers left it."""
    table_id = Seat.objects.filter(user_id=user_id).order_by() \
        .values_list("table_id", flat=True).first()
    if table_id is None:
        raise ActionError(not_seated)
    table = locked_table(table_id)
    if table.status != Table.Status.WAITING:
        raise ActionError(not_waiting)
    seat = Seat.objects.filter(user_id=user_id, table_id=table_id).order_by().first()
    if seat is None:  # stood up before the lock
        raise ActionError(not_seated)
    return seat, table


def locked_table(table_id: int) -> Table:
    # With its private row (好友房), if any: the sit and the deal ask, and it costs no query.
    table = Table.objects.select_for_update(of=("self",)) \
        .select_related("room__rule_set", "private").filter(pk=table_id).first()
    if table is None:
        raise ActionError(_("没有牌桌 %(table)s"), {"table": table_id})
    return table


def _check_can_sit(user: User, room: Room) -> None:
    check_may_sit(user)  # the seat guards (fair_play's bans): every way to a seat comes here
    if room.is_coins and balance_of(user, Currency.COIN) < room.min_coins:
        raise ActionError(_("这个房间至少要有 %(coins)s 游戏币才能入座"), {"coins": room.min_coins})


def _humans(table: Table) -> list[int]:
    users = [seat.user_id for seat in table.seats.all() if seat.user_id]
    bots = bot_user_ids(users)
    return [user for user in users if user not in bots]


# A bot picked for a seat may have sat down elsewhere a moment before (below): the
# tries before the fill gives up and asks the player to try again.
BOT_TRIES = 5


def _fill_with_bots(table: Table) -> bool:
    """Seat a bot in each empty seat; whether there was any."""
    empty = list(table.seats.filter(user__isnull=True).order_by("index"))
    for seat in empty:
        _seat_a_bot(seat, table.room)
    return bool(empty)


def _seat_a_bot(seat: Seat, room: Room) -> None:
    """Seat a free bot (games.live.bot_accounts.free_bot locks it, so a fill at another
    table at the same time takes another one). A bot whose seat elsewhere committed
    between our read of the seats and our lock of its row is still refused by the
    unique seat per player: that bot is passed over and the next one tried, in a
    savepoint, so the fill never fails with the database's error (it did: a 500)."""
    passed_over: list[int] = []
    for _try in range(BOT_TRIES):
        bot = free_bot(room, passed_over=passed_over)
        try:
            with transaction.atomic():
                # a bot has no socket: not connected
                Seat.objects.filter(pk=seat.pk).update(
                    user=bot, is_ready=True, ready_deadline=None, connected=False)
        except IntegrityError:
            passed_over.append(bot.pk)
            continue
        return
    raise ActionError(_("牌局正忙，请重试"), code="busy")


def _start_if_ready(table: Table) -> bool:
    seats = list(table.seats.order_by("index"))
    if any(seat.user_id is None or not seat.is_ready for seat in seats):
        return False
    game_start(table, seats)
    return True
