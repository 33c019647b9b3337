"""Admin of rule sets, rooms, tables, games and bots.

Operators edit rule sets and rooms (RULES §9: 配置文件让运营商能够自主调整). Tables,
seats, games and their events are written only by games.live.seating, games.live.lifecycle and
games.settlement.settle, in their transactions, so here they are read-only.
"""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin
from django.db import models
from django.db.models import Count, OuterRef, Q, Subquery
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy

from common.admin_readonly import ReadOnlyMixin
from games.admin import private  # noqa: F401 - the import registers private tables. admin
from games.admin.escapes import game_ledger_link  # the import registers the escapes' admin
from games.models import BotPlayer, GameEvent, GameRecord, Room, RuleSetConfig, Seat, Table
from ledger.models import Account, Currency


class RuleSetJSONField(forms.JSONField):
    """A rule set one field a line, so an operator can find and edit a value."""

    def prepare_value(self, value):
        if isinstance(value, dict) and value:
            lines = (f"  {json.dumps(key)}: {json.dumps(item, ensure_ascii=False)}"
                     for key, item in value.items())
            return "{\n" + ",\n".join(lines) + "\n}"
        return super().prepare_value(value)


@admin.register(RuleSetConfig)
class RuleSetConfigAdmin(admin.ModelAdmin):
    # The model form runs RuleSetConfig.clean(), so a bad config comes back as a form error.
    formfield_overrides = {models.JSONField: {
        "form_class": RuleSetJSONField,
        "widget": forms.Textarea(attrs={"rows": 40, "cols": 90, "spellcheck": "false"})}}
    list_display = ("name", "label", "is_preset", "updated_at")
    list_filter = ("is_preset",)
    search_fields = ("name", "label")
    readonly_fields = ("updated_at",)


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    # The model form runs Room.clean(): a bad value comes back as an error on its field.
    list_display = ("name", "rule_set", "kind", "stake_unit", "coefficient", "fee",
                    "min_coins", "max_loss", "turn_seconds", "escape_mode", "bots_allowed",
                    "bot_level", "rated", "is_open", "position", "table_count")
    list_editable = ("is_open", "position")
    list_filter = ("kind", "rule_set", "escape_mode", "bot_level", "rated", "is_open")
    list_select_related = ("rule_set",)
    search_fields = ("name",)
    fieldsets = (
        (None, {"fields": ("name", "rule_set", "kind", "rated", "is_open", "position",
                           "bots_allowed", "bot_level")}),
        (gettext_lazy("积分场"), {"fields": ("stake_unit",)}),
        (gettext_lazy("金币场"), {"fields": ("coefficient", "fee", "min_coins", "max_loss")}),
        (gettext_lazy("时间与逃跑"), {"fields": ("turn_seconds", "first_turn_seconds",
                                                "ready_seconds", "escape_mode")}),
    )

    def get_queryset(self, request: HttpRequest):
        return super().get_queryset(request).annotate(tables_total=Count("tables"))

    @admin.display(description=gettext_lazy("牌桌"), ordering="tables_total")
    def table_count(self, room: Room) -> int:
        return room.tables_total


class SeatInline(ReadOnlyMixin, admin.TabularInline):
    model = Seat
    fields = ("index", "user", "is_ready", "ready_deadline", "connected")
    readonly_fields = fields
    extra = 0
    ordering = ("index",)

    def get_queryset(self, request: HttpRequest):
        return super().get_queryset(request).select_related("user")


@admin.register(Table)
class TableAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("__str__", "room", "number", "status", "seats_taken", "game_link",
                    "waiting_since")
    list_filter = ("status", "room")
    list_select_related = ("room",)
    fields = ("room", "number", "status", "game_link", "last_result", "waiting_since")
    readonly_fields = fields
    inlines = [SeatInline]

    def get_queryset(self, request: HttpRequest):
        return super().get_queryset(request).annotate(
            taken=Count("seats", filter=Q(seats__user__isnull=False)))

    @admin.display(description=gettext_lazy("在座"), ordering="taken")
    def seats_taken(self, table: Table) -> int:
        return table.taken

    @admin.display(description=gettext_lazy("当前对局"))
    def game_link(self, table: Table) -> str:
        if table.current_game_id is None:
            return "-"
        url = reverse("admin:games_gamerecord_change", args=[table.current_game_id])
        return format_html('<a href="{}">{}</a>', url, table.current_game_id)


class GameEventInline(ReadOnlyMixin, admin.TabularInline):
    model = GameEvent
    fields = ("seq", "type", "data", "created_at")
    readonly_fields = fields
    extra = 0
    ordering = ("seq",)


@admin.register(GameRecord)
class GameRecordAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "room", "table", "rule_set_name", "status", "seq", "created_at",
                    "ended_at", "settled_at", "replay_link")
    list_filter = ("status", "rule_set_name", "room")
    list_select_related = ("room", "table__room")
    date_hierarchy = "created_at"
    fields = ("room", "table", "rule_set_name", "players", "bot_seats", "bot_level", "rated",
              "status",
              "seq", "turn", "deadline", "result", "settlement", "created_at", "ended_at",
              "settled_at", "replay_link", "ledger_link")
    readonly_fields = fields
    inlines = [GameEventInline]

    @admin.display(description=gettext_lazy("回放"))
    def replay_link(self, record: GameRecord) -> str:
        # Running games have no replay yet (their page refuses): link finished ones only.
        if record.status != GameRecord.Status.ENDED:
            return "-"
        url = reverse("game-replay", args=[record.pk])
        return format_html('<a href="{}">{}</a>', url, url)

    @admin.display(description=gettext_lazy("账目"))
    def ledger_link(self, record: GameRecord) -> str:
        return game_ledger_link(record)


@admin.register(BotPlayer)
class BotPlayerAdmin(admin.ModelAdmin):
    """Bots are made on demand when a table needs one (games.live.bot_accounts.free_bot); an
    operator may also turn an existing account into a bot here."""

    list_display = ("user", "table_link", "coins", "created_at")
    list_select_related = ("user",)
    search_fields = ("user__username", "user__nickname")
    raw_id_fields = ("user",)
    readonly_fields = ("created_at",)

    def get_queryset(self, request: HttpRequest):
        return super().get_queryset(request).annotate(
            seated_at=Subquery(Seat.objects.filter(user=OuterRef("user_id"))
                               .values("table_id")[:1]),
            coins_balance=Subquery(Account.objects.filter(
                user=OuterRef("user_id"), currency=Currency.COIN).values("balance")[:1]))

    @admin.display(description=gettext_lazy("牌桌"))
    def table_link(self, bot: BotPlayer) -> str:
        if bot.seated_at is None:
            return "-"
        url = reverse("admin:games_table_change", args=[bot.seated_at])
        return format_html('<a href="{}">{}</a>', url, bot.seated_at)

    @admin.display(description=gettext_lazy("游戏币"), ordering="coins_balance")
    def coins(self, bot: BotPlayer) -> int:
        return bot.coins_balance or 0
