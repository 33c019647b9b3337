from django.core.management.base import BaseCommand

from games.presets import rule_set_presets_load


class Command(BaseCommand):
    help = "Insert or update the shipped rule-set presets (qq, tcy, jinyou, classic)."

    def handle(self, *args, **options) -> None:
        for name, created in rule_set_presets_load():
            self.stdout.write(f"preset {name}: {'created' if created else 'updated'}")
