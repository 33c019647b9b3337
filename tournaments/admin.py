"""Admin: tournament templates (checked like any form: tournaments.terms), opening a
tournament from one, and the tournaments with their entries and boards (read-only),
started now or cancelled (every entry refunded) by an action."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from games.errors import ActionError
from tournaments import flow
from tournaments.models import Board, Entry, Tournament, TournamentTemplate
from tournaments.registration import open_tournament


@admin.register(TournamentTemplate)
class TournamentTemplateAdmin(admin.ModelAdmin):
    list_display = ("name", "rule_set", "kind", "size", "rounds", "boards_per_round",
                    "entry_fee", "start_mode", "bots_for_no_shows", "next_start_at")
    list_filter = ("kind", "start_mode", "rule_set")
    actions = ["open_one"]

    @admin.action(description=_("开一场比赛"))
    def open_one(self, request, queryset) -> None:
        for template in queryset:
            try:
                tournament = open_tournament(template, starts_at=template.next_start_at)
            except ActionError as error:
                self.message_user(request, f"{template}: {error}", messages.ERROR)
                continue
            self.message_user(request, _("已开出比赛：%(name)s") % {"name": tournament})


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    can_delete = False
    fields = ("user", "is_bot", "paid", "withdrawn_at", "left_at", "place", "matchpoints",
              "score", "prize")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class BoardInline(admin.TabularInline):
    model = Board
    extra = 0
    can_delete = False
    fields = ("round", "board", "table", "game", "players", "scores", "settled_at")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "status", "starts_at", "started_at", "current_round",
                    "finished_at")
    list_filter = ("status",)
    readonly_fields = ("template", "terms", "room", "status", "registration_opens_at",
                       "starts_at", "started_at", "finished_at", "current_round", "seed",
                       "cancel_reason")
    fields = ("name", *readonly_fields)
    inlines = [EntryInline, BoardInline]
    actions = ["start_now", "cancel"]

    def has_add_permission(self, request) -> bool:
        return False  # opened from a template (its action)

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    @admin.action(description=_("立即开赛"))
    def start_now(self, request, queryset) -> None:
        for tournament in queryset:
            flow.start(tournament.pk, force=True)

    @admin.action(description=_("取消比赛（退还报名费）"))
    def cancel(self, request, queryset) -> None:
        for tournament in queryset:
            if not flow.cancel(tournament.pk):
                self.message_user(request, _("%(name)s 已开赛或已结束，不能取消") % {
                    "name": tournament}, messages.ERROR)
