from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StatsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "stats"
    verbose_name = _("玩家统计")

    def ready(self) -> None:
        # Each seat's facts are written in the settlement's transaction: settled means
        # counted (games.hooks.signals).
        from games.hooks.signals import game_settled
        from stats.services import record_facts_of_settled_game

        game_settled.connect(record_facts_of_settled_game, dispatch_uid="stats.game_facts")
