"""``manage.py loadtest_prepare --tables 200 [--bot-seats 3 --bot-level strong]``:
players, sessions and seated tables for scripts/loadtest.py, written to a JSON plan file.

With ``--bot-seats N`` the last N seats of every table are server bots of the room's
``--bot-level``, seated and ready: the plan lists only the people's seats,
and the load test measures their actions at tables whose bots move meanwhile."""

from __future__ import annotations

import json
import uuid

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.models import User
from games.live.seating import fill_bots_now, locked_table, table_create, table_sit
from games.models import BotLevel, Room, RuleSetConfig
from games.presets import rule_set_presets_load

ROOM_NAME = "负载测试 qq"


class Command(BaseCommand):
    help = __doc__.splitlines()[0]

    def add_arguments(self, parser) -> None:
        parser.add_argument("--tables", type=int, default=200)
        parser.add_argument("--out", default="loadtest-plan.json")
        parser.add_argument("--bot-seats", type=int, default=0, choices=range(4),
                            help="seats of each table taken by server bots")
        parser.add_argument("--bot-level", choices=BotLevel.values, default=BotLevel.TABLE,
                            help="how the room's bots play")

    def handle(self, *args, tables: int, out: str, bot_seats: int, bot_level: str,
               **options) -> None:
        if tables < 1:
            raise CommandError("--tables must be at least 1")
        if not RuleSetConfig.objects.filter(name="qq").exists():
            rule_set_presets_load()
        room, _ = Room.objects.get_or_create(name=ROOM_NAME, defaults={
            "rule_set": RuleSetConfig.objects.get(name="qq"), "bots_allowed": False,
            "turn_seconds": 60, "first_turn_seconds": 60, "ready_seconds": 3600,
            "position": 999})
        # The room's own bots_allowed stays off: the sweeper fills no seat by itself.
        Room.objects.filter(pk=room.pk).update(bot_level=bot_level)
        run = uuid.uuid4().hex[:6]
        plan = {"room": room.pk, "tables": []}
        for number in range(tables):
            table = table_create(room)
            seats = []
            for seat in range(4 - bot_seats):
                user = User.objects.create_user(username=f"lt-{run}-{number}-{seat}")
                table_sit(user=user, table_id=table.pk, seat_index=seat)
                seats.append({"user": user.pk, "session": _session_for(user)})
            if bot_seats:
                with transaction.atomic():  # ready bots; the game starts when people are
                    fill_bots_now(locked_table(table.pk))
            plan["tables"].append({"table": table.pk, "seats": seats})
        with open(out, "w") as handle:
            json.dump(plan, handle)
        bots = f", {bot_seats} {bot_level} bot(s) each" if bot_seats else ""
        self.stdout.write(f"{tables} tables seated in room {room.pk}{bots}; "
                          f"plan written to {out}")


def _session_for(user: User) -> str:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key
