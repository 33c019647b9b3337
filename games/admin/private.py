"""Admin of private tables (好友房) and their series: read-only, as they are
written only by games.live.private_tables and games.live.series in their transactions.
An operator sees who hosts which table, its code and whether it is closed, and each
series with its players, games and running score."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Count
from django.http import HttpRequest
from django.utils.translation import gettext_lazy

from common.admin_readonly import ReadOnlyMixin
from games.live.series import series_score
from games.models import PrivateTable, Series


@admin.register(PrivateTable)
class PrivateTableAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("table", "host", "code", "spectators", "created_at", "expires_at",
                    "closed_at")
    list_filter = ("spectators", "table__room")
    list_select_related = ("table__room", "host")
    search_fields = ("code", "host__username", "host__nickname")
    fields = list_display
    readonly_fields = fields


@admin.register(Series)
class SeriesAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "table", "players", "game_count", "started_at", "ended_at",
                    "end_reason")
    list_filter = ("end_reason",)
    list_select_related = ("table__room",)
    fields = ("table", "players", "started_at", "ended_at", "end_reason", "score")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest):
        return super().get_queryset(request).annotate(games_played=Count("games"))

    @admin.display(description=gettext_lazy("局数"), ordering="games_played")
    def game_count(self, series: Series) -> int:
        return series.games_played

    @admin.display(description=gettext_lazy("系列赛总分"))
    def score(self, series: Series) -> str:
        return ", ".join(f"{row['user']}: {row['points']:+d}"
                         for row in series_score(series)["players"])
