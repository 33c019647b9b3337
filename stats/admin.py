"""Admin of the stored stats facts: read-only (they are written at settlement and by
the ``stats_backfill`` command)."""

from django.contrib import admin

from .models import SeatBombs, SeatFacts


class SeatBombsInline(admin.TabularInline):
    model = SeatBombs
    fields = ("stars", "count")
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(SeatFacts)
class SeatFactsAdmin(admin.ModelAdmin):
    list_display = ("game", "seat", "user", "rule_set_name", "room_kind", "kou", "won",
                    "escaped", "bombs", "ended_at")
    list_filter = ("rule_set_name", "room_kind", "kou", "won", "escaped")
    search_fields = ("user__username", "user__nickname")
    raw_id_fields = ("game", "user")
    list_select_related = ("user",)
    inlines = [SeatBombsInline]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
