"""Admin of check-ins and counted games: read-only (the coins are ledger postings)."""

from django.contrib import admin

from common.admin_readonly import ReadOnlyMixin

from .models import CheckIn, GameDone


@admin.register(CheckIn)
class CheckInAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("user", "day", "streak", "coins", "created_at")
    list_filter = ("day",)
    search_fields = ("user__username", "user__nickname")
    list_select_related = ("user",)


@admin.register(GameDone)
class GameDoneAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("user", "game", "day", "finished", "won_double", "best_bomb")
    list_filter = ("day", "finished", "won_double")
    search_fields = ("user__username", "user__nickname")
    raw_id_fields = ("user", "game")
    list_select_related = ("user",)
