from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = gettext_lazy("牌局")

    def ready(self) -> None:
        # Register the Celery tasks in every process, not only in workers: the game's
        # lifecycle enqueues its settlement by the task's name (games.live.lifecycle),
        # and a name the app does not know would bypass eager mode under `make run`.
        # Imported here because models must be loaded first.
        from games import tasks  # noqa: F401
