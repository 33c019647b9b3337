from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games.models import GameRecord
from stats.services import game_facts_record


class Command(BaseCommand):
    help = ("Store the player stats facts (stats.models) of settled games that have "
            "none yet, e.g. games settled before the stats existed. Safe to run again.")

    def add_arguments(self, parser) -> None:
        parser.add_argument("--batch", type=int, default=500,
                            help="games looked up per query (default 500)")

    def handle(self, *args, batch: int, **options) -> None:
        if batch < 1:
            raise CommandError("--batch must be at least 1")
        games = rows = 0
        last = 0
        while True:
            ids = list(GameRecord.objects.filter(pk__gt=last, settled_at__isnull=False,
                                                 seat_facts__isnull=True)
                       .order_by("pk").values_list("pk", flat=True)[:batch])
            if not ids:
                break
            for game_id in ids:
                with transaction.atomic():
                    # The same lock as settlement: a game is written by one of them only.
                    record = GameRecord.objects.select_for_update(of=("self",)) \
                        .select_related("room").get(pk=game_id)
                    written = game_facts_record(record=record)
                games += bool(written)
                rows += written
            last = ids[-1]
        self.stdout.write(f"stats_backfill: {games} games, {rows} seat rows written")
