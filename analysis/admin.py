"""Admin of game analyses: read-only (the task writes them, once)."""

from django.contrib import admin

from shuangkou_site.admin_readonly import ReadOnlyMixin

from .models import GameAnalysis


@admin.register(GameAnalysis)
class GameAnalysisAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("game", "status", "requested_by", "created_at", "finished_at", "seconds",
                    "move_budget_ms", "attempts")
    list_filter = ("status",)
    search_fields = ("game__id", "requested_by__username")
    raw_id_fields = ("game", "requested_by")
