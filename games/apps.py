from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = gettext_lazy("牌局")
