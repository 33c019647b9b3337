from django.conf import settings
from django.core.management.base import BaseCommand

from accounts.services import user_ensure
from games.models import Room, RuleSetConfig
from ledger.services import LedgerError, grant_starting_coins

# The demo rooms: points rooms for every rule set and coin rooms for qq and tcy
# (RULES §7-§10). tcy's score already holds the stake X of the lowest-level player
# (§9), so its coin room multiplies by N = 1.
POINTS = Room.Kind.POINTS
COINS = Room.Kind.COINS
DEMO_ROOMS = [
    {"name": "QQ 积分场", "rule_set": "qq", "kind": POINTS, "position": 10},
    {"name": "QQ 积分场 · 逃跑托管", "rule_set": "qq", "kind": POINTS, "position": 11,
     "escape_mode": Room.EscapeMode.AUTO_PLAY},
    {"name": "金游 百变积分场", "rule_set": "jinyou", "kind": POINTS, "position": 20},
    {"name": "经典双扣 积分场", "rule_set": "classic", "kind": POINTS, "position": 30,
     "turn_seconds": 25, "first_turn_seconds": 40},
    {"name": "同城游 二人积分场", "rule_set": "tcy", "kind": POINTS, "position": 40,
     "turn_seconds": 15, "first_turn_seconds": 25, "ready_seconds": 30},
    {"name": "QQ 金币场 · 百倍", "rule_set": "qq", "kind": COINS, "position": 50,
     "coefficient": 100, "fee": 10, "min_coins": 1000, "max_loss": 20000,
     "ready_seconds": 30},
    {"name": "QQ 金币场 · 五百倍", "rule_set": "qq", "kind": COINS, "position": 51,
     "coefficient": 500, "fee": 50, "min_coins": 20000, "max_loss": 100000,
     "ready_seconds": 30},
    {"name": "同城游 二人金币场", "rule_set": "tcy", "kind": COINS, "position": 60,
     "coefficient": 1, "fee": 5, "min_coins": 1000, "max_loss": 10000,
     "turn_seconds": 15, "first_turn_seconds": 25, "ready_seconds": 30},
]


class Command(BaseCommand):
    help = ("Create the demo logins, admin/admin (only with DEBUG on) and the player "
            "demo/demo with the starting coins, and the demo rooms (run load_presets first).")

    def handle(self, *args, **options) -> None:
        if settings.DEBUG:
            admin = user_ensure(username="admin", password="admin", is_superuser=True)
            self.report("admin", *admin)
        else:
            self.stdout.write("superuser admin: skipped (DEBUG is off)")
        demo, created = user_ensure(username="demo", password="demo", nickname="演示玩家")
        self.report("demo", demo, created)
        # Keyed per user in the ledger: granted once however often this runs.
        try:
            grant_starting_coins(demo)
        except LedgerError as error:  # e.g. LEDGER_STARTING_COINS changed since
            self.stdout.write(f"demo's starting coins: left as they are ({error})")
        for spec in DEMO_ROOMS:
            self.stdout.write(f"room {spec['name']}: {room_ensure(spec)}")

    def report(self, username: str, user, created: bool) -> None:
        role = "superuser" if user.is_superuser else "player"
        state = "created" if created else "already there, left unchanged"
        self.stdout.write(f"{role} {username}: {state}")


def room_ensure(spec: dict) -> str:
    """Create the room unless one of that name exists (an operator's edits stay);
    returns what happened."""
    if Room.objects.filter(name=spec["name"]).exists():
        return "already there, left unchanged"
    rule_set = RuleSetConfig.objects.filter(name=spec["rule_set"]).first()
    if rule_set is None:
        return f"skipped (no rule set {spec['rule_set']!r}: run load_presets first)"
    room = Room(**{**spec, "rule_set": rule_set})
    room.full_clean()  # the demo obeys the same rules as the admin form
    room.save()
    return "created"
