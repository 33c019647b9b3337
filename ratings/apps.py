from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"
    verbose_name = _("等级分")

    def ready(self) -> None:
        # Every rated game moves its people's ratings in the settlement's transaction:
        # settled means rated (games.hooks.signals).
        from games.hooks.signals import game_settled
        from ratings.services import rate_settled_game

        game_settled.connect(rate_settled_game, dispatch_uid="ratings.rate_game")
        # Quick join in a rated room seats people of close rating (ratings.matchmaking).
        from games.hooks.table_choice import table_choosers
        from ratings.matchmaking import choose_rated_tables

        table_choosers.register("ratings.matchmaking", choose_rated_tables)
        # Each seat's rating in the table's public state (the table page shows it).
        from games.hooks.seat_fields import SeatField, seat_fields
        from ratings.selectors import seat_rating, seat_rating_annotations

        seat_fields.register("rating", SeatField(seat_rating_annotations, seat_rating))
