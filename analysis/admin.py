"""Admin of game analyses: read-only (the task writes them, once)."""

from django.contrib import admin

from common.admin_readonly import ReadOnlyMixin

from .models import AnalysisOptions, GameAnalysis


@admin.register(GameAnalysis)
class GameAnalysisAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("game", "status", "requested_by", "created_at", "finished_at", "seconds",
                    "move_budget_ms", "attempts")
    list_filter = ("status",)
    search_fields = ("game__id", "requested_by__username")
    raw_id_fields = ("game", "requested_by")


@admin.register(AnalysisOptions)
class AnalysisOptionsAdmin(admin.ModelAdmin):
    """One row: the operator's switch for analysing coin games automatically."""

    list_display = ("__str__", "auto_coin_games", "updated_at")

    def has_add_permission(self, request) -> bool:
        return super().has_add_permission(request) and not AnalysisOptions.objects.exists()

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
