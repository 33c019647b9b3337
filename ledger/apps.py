from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class LedgerConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ledger"
    verbose_name = gettext_lazy("账本")
