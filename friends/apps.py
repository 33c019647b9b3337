from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FriendsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "friends"
    verbose_name = _("好友")

    def ready(self) -> None:
        # A rematch from the history: its column (games shows it, friends fills it).
        from friends.rematch import history_cells
        from games.archive.panels import HistoryColumn, history_columns

        history_columns.register("rematch", HistoryColumn(
            title=_("再来一局"), template="friends/_history_cell.html", cells=history_cells))
