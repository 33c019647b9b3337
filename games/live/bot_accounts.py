"""Server bot players: accounts that fill empty seats (RULES §10's 托管 move at least)."""

from __future__ import annotations

import uuid
from collections.abc import Collection

from django.db import transaction

from accounts.models import User
from games.models import BotPlayer, Room, Seat, Table
from ledger.models import Currency
from ledger.services import balance_of, grant_coins

BOT_COINS = 1_000_000


def free_bot(room: Room, *, passed_over: Collection[int] = ()) -> User:
    """A bot not seated anywhere (nor one of ``passed_over``, user ids), created if none
    is free, with coins for the room. Call inside a transaction: the bot's row stays
    locked until it ends, and a table filling its seats at the same moment skips it
    (SKIP LOCKED) for the next free one, instead of seating the same bot twice."""
    seated = Seat.objects.filter(user__isnull=False).values("user_id")
    bot = (BotPlayer.objects.select_for_update(skip_locked=True, of=("self",))
           .select_related("user").exclude(user_id__in=seated)
           .exclude(user_id__in=list(passed_over)).order_by("pk").first())
    if bot is None:
        with transaction.atomic():
            name = f"bot-{uuid.uuid4().hex[:8]}"
            user = User.objects.create_user(username=name, nickname=f"机器人{name[-4:]}")
            user.set_unusable_password()
            user.save(update_fields=["password"])
            bot = BotPlayer.objects.create(user=user)
    if room.is_coins:
        need = max(room.min_coins, room.max_loss)
        have = balance_of(bot.user, Currency.COIN)
        if have < need:
            grant_coins(user=bot.user, amount=BOT_COINS + need - have,
                        key=f"grant:bot:{uuid.uuid4().hex}", memo="机器人补充金币")
    return bot.user


def bot_user_ids(user_ids: list[int]) -> set[int]:
    return set(BotPlayer.objects.filter(user_id__in=user_ids).values_list("user_id", flat=True))


def stand_bots_if_alone(table: Table) -> bool:
    """Bots never play alone: when no person is left at ``table`` (locked by the
    caller), the bots stand up too and the table stops waiting. Returns whether it
    emptied the table."""
    users = [user for user in table.seats.filter(user__isnull=False)
             .values_list("user_id", flat=True)]
    if set(users) - bot_user_ids(users):
        return False
    table.seats.filter(user__isnull=False).update(user=None, is_ready=False,
                                                  ready_deadline=None, connected=False)
    table.waiting_since = None
    table.save(update_fields=["waiting_since"])
    return True
