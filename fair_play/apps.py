from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FairPlayConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "fair_play"
    verbose_name = _("公平游戏")

    def ready(self) -> None:
        # games asks; fair play answers (README, "Layout"): a banned player is refused
        # every seat, and a settled game's escapers get their records and bans in the
        # settlement's transaction.
        from fair_play.bans import check_may_sit
        from fair_play.escapes import escape_games, record_escapes_of_settled_game
        from games.hooks.escapes import escape_readers
        from games.hooks.seat_guards import seat_guards
        from games.hooks.signals import game_settled

        seat_guards.register("fair_play.escape_ban", check_may_sit)
        # Which games were a player's escapes: the history and the stats read it.
        escape_readers.register("fair_play.escape_records", escape_games)
        game_settled.connect(record_escapes_of_settled_game,
                             dispatch_uid="fair_play.record_escapes")
