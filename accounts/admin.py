"""Admin of players and of the level ladder, and the operator's balance adjustment."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ledger.models import Account, Currency, Transaction
from ledger.selectors import user_balances
from ledger.services import LedgerError, adjust_balance

from .forms import AdminLoginForm, BalanceAdjustForm
from .levels import level_at
from .models import Level, User
from .selectors import point_balance

# The admin login checks passwords too, so it counts failures like the login page.
admin.site.login_form = AdminLoginForm


def _balance(currency: str) -> Subquery:
    return Subquery(Account.objects.filter(user=OuterRef("pk"), currency=currency)
                    .values("balance")[:1])


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    fieldsets = (
        *DjangoUserAdmin.fieldsets,
        (gettext_lazy("玩家"), {"fields": ("nickname", "stats_public", "level", "title",
                                            "points", "coins")}),
    )
    add_fieldsets = (*DjangoUserAdmin.add_fieldsets,
                     (gettext_lazy("昵称"), {"fields": ("nickname",)}))
    # The level is computed from points (accounts.levels); balances move only through
    # the ledger, e.g. the adjustment form below.
    readonly_fields = ("level", "title", "points", "coins")
    list_display = ("username", "nickname", "level", "title", "points", "coins", "is_staff",
                    "is_active", "date_joined")
    search_fields = ("username", "nickname", "email")

    def get_queryset(self, request: HttpRequest):
        return super().get_queryset(request).annotate(
            points_balance=point_balance(),
            coins_balance=_balance(Currency.COIN),
        ).annotate(
            level_number=level_at("points_balance"),
            level_title=level_at("points_balance", "title"),
        )

    # The level follows the points: both columns sort by the level (that is, by points
    # within the ladder), a title's spelling means nothing.
    @admin.display(description=gettext_lazy("等级"), ordering="level_number")
    def level(self, user: User) -> int:
        return user.level_number

    @admin.display(description=gettext_lazy("称号"), ordering="level_number")
    def title(self, user: User) -> str:
        return user.level_title or "-"

    @admin.display(description=gettext_lazy("积分"), ordering="points_balance")
    def points(self, user: User) -> int:
        return user.points_balance

    @admin.display(description=gettext_lazy("游戏币"), ordering="coins_balance")
    def coins(self, user: User) -> int:
        return getattr(user, "coins_balance", None) or 0

    # --- adjust balance -------------------------------------------------------------------

    def has_adjust_permission(self, request: HttpRequest) -> bool:
        # An adjustment posts a ledger transaction.
        return request.user.has_perm("ledger.add_transaction")

    def get_urls(self):
        return [
            path("<path:object_id>/adjust-balance/",
                 self.admin_site.admin_view(self.adjust_balance_view),
                 name="accounts_user_adjust_balance"),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        extra_context = {**(extra_context or {}),
                         "can_adjust_balance": self.has_adjust_permission(request)}
        return super().change_view(request, object_id, form_url, extra_context)

    def adjust_balance_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        if not self.has_adjust_permission(request):
            raise PermissionDenied
        player = self.get_object(request, unquote(object_id))
        if player is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        form = BalanceAdjustForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            # One key per displayed form: a second submit of the same page finds the
            # first transaction and posts nothing (ledger_post is idempotent by key).
            key = f"admin-adjust:{data['key']}"
            repeated = Transaction.objects.filter(key=key).exists()
            try:
                # Our own savepoint: a refusal leaves the request's connection usable.
                with transaction.atomic():
                    posted = adjust_balance(user=player, currency=data["currency"],
                                            amount=data["amount"], reason=data["reason"],
                                            key=key, actor=request.user)
            except LedgerError as error:
                self.message_user(request, _("调整未记账：%(error)s") % {"error": error},
                                  messages.ERROR)
            else:
                if repeated:
                    self.message_user(
                        request, _("这次调整已记过账（交易 #%(id)s），重复提交未再记账。")
                        % {"id": posted.pk}, messages.WARNING)
                else:
                    self.message_user(request, _("已调整 %(player)s 的余额（交易 #%(id)s）。")
                                      % {"player": player, "id": posted.pk}, messages.SUCCESS)
                return HttpResponseRedirect(
                    reverse("admin:accounts_user_change", args=[player.pk]))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "original": player,
            "title": _("调整余额：%(player)s") % {"player": player},
            "form": form,
            "balances": user_balances(player),
            "media": self.media + form.media,
        }
        return TemplateResponse(request, "admin/accounts/user/adjust_balance.html", context)


@admin.register(Level)
class LevelAdmin(admin.ModelAdmin):
    """The ladder of RULES §7. Level.clean() refuses a ladder whose points do not rise
    with the level. Levels are computed from it when read, so an edit moves every
    player's level at once: there is nothing to recompute."""

    list_display = ("number", "title", "min_points")
    ordering = ("number",)
