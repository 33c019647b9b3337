from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DailyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "daily"
    verbose_name = _("每日签到与任务")

    def ready(self) -> None:
        # A settled game counts towards the day's tasks, in the settlement's transaction
        # (games.hooks.signals): settled means counted, once.
        from daily.services import count_settled_game
        from games.hooks.signals import game_settled

        game_settled.connect(count_settled_game, dispatch_uid="daily.task_progress")
