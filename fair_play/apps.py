from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FairPlayConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "fair_play"
    verbose_name = _("公平游戏")
