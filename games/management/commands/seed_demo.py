from django.conf import settings
from django.core.management.base import BaseCommand

from accounts.services import user_ensure


class Command(BaseCommand):
    help = "Create the demo logins: admin/admin (only with DEBUG on) and the player demo/demo."

    def handle(self, *args, **options) -> None:
        if settings.DEBUG:
            admin = user_ensure(username="admin", password="admin", is_superuser=True)
            self.report("admin", *admin)
        else:
            self.stdout.write("superuser admin: skipped (DEBUG is off)")
        self.report("demo", *user_ensure(username="demo", password="demo", nickname="演示玩家"))

    def report(self, username: str, user, created: bool) -> None:
        role = "superuser" if user.is_superuser else "player"
        state = "created" if created else "already there, left unchanged"
        self.stdout.write(f"{role} {username}: {state}")
