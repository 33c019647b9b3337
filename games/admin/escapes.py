"""Admin of escapes (逃跑, RULES §10): every ``escape`` event with its player, game, room,
time, escape mode and what the settlement charged and paid out. Read-only: escapes are
written and settled by games.live.lifecycle; corrections go through the ledger."""

from __future__ import annotations

import json

from django.contrib import admin
from django.contrib.admin.views.main import ChangeList
from django.db.models import Q
from django.http import HttpRequest
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from common.admin_readonly import ReadOnlyMixin
from games.models import GameEscape, GameRecord, Room
from games.settlement.escape_costs import EscapeCost, escape_costs

MAX_SEATS = 4  # the largest table (RULES §1): seats an escaper may have held


class EscapeModeFilter(admin.SimpleListFilter):
    title = gettext_lazy("逃跑处理")
    parameter_name = "mode"

    def lookups(self, request, model_admin):
        return Room.EscapeMode.choices

    def queryset(self, request, queryset):
        if self.value() in Room.EscapeMode.values:
            return queryset.filter(data__mode=self.value())
        return queryset


class EscapeChangeList(ChangeList):
    def get_results(self, request) -> None:
        super().get_results(request)
        # One page's costs in a few queries, instead of several per row.
        self.result_list = list(self.result_list)
        costs = escape_costs(self.result_list)
        for escape in self.result_list:
            escape.cost = costs[escape.pk]


@admin.register(GameEscape)
class GameEscapeAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("escaped_at", "player_link", "game_link", "replay_link", "room",
                    "mode", "penalty_units", "penalty", "compensation", "escaper_settlement")
    list_display_links = ("escaped_at",)
    list_filter = (("game__room", admin.RelatedOnlyFieldListFilter), "game__room__kind",
                   EscapeModeFilter, ("created_at", admin.DateFieldListFilter))
    list_select_related = ("game__room",)
    date_hierarchy = "created_at"
    # Searched by get_search_results below: the escaper is the game's player at the
    # event's seat, which no single field holds.
    search_fields = ("player",)
    search_help_text = gettext_lazy("玩家的用户名或昵称，或对局编号")
    list_per_page = 50
    fields = ("escaped_at", "player_link", "seat", "game_link", "replay_link", "room",
              "mode", "penalty_units", "penalty", "compensation", "escaper_settlement",
              "ledger_link", "event")
    readonly_fields = fields

    def get_changelist(self, request: HttpRequest, **kwargs):
        return EscapeChangeList

    def get_search_results(self, request: HttpRequest, queryset, search_term: str):
        term = search_term.strip()
        if not term:
            return queryset, False
        players = list(User.objects.filter(Q(username__icontains=term)
                                           | Q(nickname__icontains=term))
                       .values_list("pk", flat=True)[:500])
        # The escaper of an event at seat s is the game's players[s] (after any swap).
        match = Q()
        for seat in range(MAX_SEATS):
            match |= Q(data__seat=seat, **{f"game__players__{seat}__in": players})
        if term.isdigit():
            match |= Q(game_id=int(term))
        return queryset.filter(match), False

    def _cost(self, escape: GameEscape) -> EscapeCost:
        # Set for a changelist page by EscapeChangeList; the detail page reads its own.
        if not hasattr(escape, "cost"):
            escape.cost = escape_costs([escape])[escape.pk]
        return escape.cost

    # --- columns ---------------------------------------------------------------------------

    @admin.display(description=gettext_lazy("时间"), ordering="created_at")
    def escaped_at(self, escape: GameEscape) -> str:
        # As a string: the detail page shows a method's datetime unformatted, in UTC.
        return formats.localize(timezone.localtime(escape.created_at))

    @admin.display(description=gettext_lazy("事件"))
    def event(self, escape: GameEscape) -> str:
        return json.dumps(escape.data, ensure_ascii=False)

    @admin.display(description=gettext_lazy("玩家"))
    def player_link(self, escape: GameEscape) -> str:
        player = self._cost(escape).player
        if player is None:
            return "-"
        url = reverse("admin:accounts_user_change", args=[player.pk])
        return format_html('<a href="{}">{}</a>', url, player)

    @admin.display(description=gettext_lazy("座位"))
    def seat(self, escape: GameEscape) -> int:
        return escape.data["seat"]

    @admin.display(description=gettext_lazy("对局"), ordering="game_id")
    def game_link(self, escape: GameEscape) -> str:
        url = reverse("admin:games_gamerecord_change", args=[escape.game_id])
        return format_html('<a href="{}">{}</a>', url, escape.game_id)

    @admin.display(description=gettext_lazy("回放"))
    def replay_link(self, escape: GameEscape) -> str:
        # Running games have no replay yet (auto_play: the game goes on after an escape).
        if escape.game.status != GameRecord.Status.ENDED:
            return "-"
        return format_html('<a href="{}">{}</a>', reverse("game-replay", args=[escape.game_id]),
                           _("回放"))

    @admin.display(description=gettext_lazy("房间"), ordering="game__room")
    def room(self, escape: GameEscape) -> Room:
        return escape.game.room

    @admin.display(description=gettext_lazy("逃跑处理"))
    def mode(self, escape: GameEscape) -> str:
        mode = escape.data["mode"]
        return Room.EscapeMode(mode).label if mode in Room.EscapeMode.values else mode

    @admin.display(description=gettext_lazy("罚分"))
    def penalty_units(self, escape: GameEscape) -> str:
        units = self._cost(escape).penalty_units
        return str(units) if units else "-"

    @admin.display(description=gettext_lazy("罚没"))
    def penalty(self, escape: GameEscape) -> str:
        cost = self._cost(escape)
        if not cost.penalty_units:
            return "-"
        if not cost.settled:
            return _("未结算")
        return _amounts(-cost.penalty_points if cost.penalty_points is not None else None,
                        -cost.penalty_coins if cost.penalty_coins is not None else None,
                        coin_room=escape.game.room.is_coins)

    @admin.display(description=gettext_lazy("补偿（其他玩家各得）"))
    def compensation(self, escape: GameEscape) -> str:
        cost = self._cost(escape)
        if not cost.penalty_units or not escape.game.room.is_coins:
            return "-"  # points penalties go to the house (RULES §10)
        if not cost.settled:
            return _("未结算")
        if cost.compensation_coins is None:
            return _("未知")
        return _("金币 %(coins)+d") % {"coins": cost.compensation_coins}

    @admin.display(description=gettext_lazy("逃跑者结算"))
    def escaper_settlement(self, escape: GameEscape) -> str:
        cost = self._cost(escape)
        if not cost.settled:
            return _("未结算")
        return _amounts(cost.points, cost.coins, coin_room=escape.game.room.is_coins)

    @admin.display(description=gettext_lazy("账目"))
    def ledger_link(self, escape: GameEscape) -> str:
        return game_ledger_link(escape.game)


def game_ledger_link(record: GameRecord) -> str:
    """A link to the ledger's transactions of the game ``record``."""
    key = record.ledger_key
    url = reverse("admin:ledger_transaction_changelist") + "?" + urlencode({"game_key": key})
    return format_html('<a href="{}">{}</a>', url, key)


def _amounts(points: int | None, coins: int | None, *, coin_room: bool) -> str:
    """Points, and coins in a coin room; an amount that cannot be reproduced is unknown."""
    parts = [_("积分 %(points)+d") % {"points": points} if points is not None
             else _("积分 未知")]
    if coin_room:
        parts.append(_("金币 %(coins)+d") % {"coins": coins} if coins is not None
                     else _("金币 未知"))
    return " · ".join(parts)
