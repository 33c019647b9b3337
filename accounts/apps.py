from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save
from django.utils.translation import gettext_lazy


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = gettext_lazy("账户")

    def ready(self) -> None:
        from .models import Level
        from .services import ladder_changed

        # The ladder is cached per process: an edit here is seen at once.
        post_save.connect(ladder_changed, sender=Level, dispatch_uid="ladder_saved")
        post_delete.connect(ladder_changed, sender=Level, dispatch_uid="ladder_deleted")
