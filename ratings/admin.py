"""Seasons are edited here; ratings, their changes and the rated games are read-only
(they are written by the settlement only)."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from common.admin_readonly import ReadOnlyMixin

from .models import RatedGame, Rating, RatingChange, Season


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("name", "starts_at", "ends_at")
    search_fields = ("name",)


@admin.register(Rating)
class RatingAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("user", "family", "rating", "deviation", "provisional", "games", "wins",
                    "updated_at")
    list_filter = ("family",)
    search_fields = ("user__username", "user__nickname")
    list_select_related = ("user",)

    @admin.display(boolean=True, description=_("定级中"))
    def provisional(self, rating: Rating) -> bool:
        return rating.provisional


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("game", "user", "family", "seat", "won", "escaped", "rating", "delta",
                    "weight", "created_at")
    list_filter = ("family", "won", "escaped")
    search_fields = ("user__username",)
    list_select_related = ("user",)


@admin.register(RatedGame)
class RatedGameAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("game", "family", "outcome", "weight", "created_at")
    list_filter = ("family", "outcome")
