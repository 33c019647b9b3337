"""Admin of the ledger: everything read-only (legs and transactions are append-only);
the only write is a correction, a reversing transaction posted by the service."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Prefetch
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.admin_readonly import ReadOnlyMixin

from .labels import ledger_memo
from .models import Account, Hold, Leg, Transaction
from .services import LedgerError, correct_transaction


@admin.register(Account)
class AccountAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "owner", "currency", "balance", "created_at")
    list_filter = ("currency", "system")
    search_fields = ("user__username", "user__nickname", "system")
    list_select_related = ("user",)
    ordering = ("id",)

    @admin.display(description=gettext_lazy("所有者"))
    def owner(self, account: Account) -> str:
        return account.get_system_display() if account.system else str(account.user)


class LegInline(ReadOnlyMixin, admin.TabularInline):
    model = Leg
    fields = ("account", "amount", "balance_after", "hold")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("account__user", "hold__user")


class CorrectionForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("冲正原因"), max_length=300,
                             widget=forms.Textarea(attrs={"rows": 3, "cols": 60}))


@admin.register(Transaction)
class TransactionAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "key", "kind", "game_key", "memo_shown", "created_by", "created_at",
                    "corrected")
    list_filter = ("kind",)
    search_fields = ("key", "game_key", "memo")
    list_select_related = ("created_by",)
    inlines = [LegInline]
    actions = ["correct_selected"]
    fields = ("key", "kind", "memo_shown", "game_key", "reverses", "correction", "created_by",
              "created_at", "fingerprint")
    readonly_fields = ("correction", "memo_shown")

    def get_queryset(self, request: HttpRequest):
        return super().get_queryset(request).annotate(
            is_corrected=Exists(Transaction.objects.filter(reverses=OuterRef("pk"))))

    @admin.display(description=gettext_lazy("已冲正"), boolean=True, ordering="is_corrected")
    def corrected(self, txn: Transaction) -> bool:
        return txn.is_corrected

    @admin.display(description=gettext_lazy("备注"), ordering="memo")
    def memo_shown(self, txn: Transaction) -> str:
        """The services' own memos (新玩家赠送, 对局结算 …) in the reader's language; an
        operator's reason as written."""
        return ledger_memo(txn.memo)

    @admin.display(description=gettext_lazy("冲正交易"))
    def correction(self, txn: Transaction) -> str:
        reversal = Transaction.objects.filter(reverses=txn).first()
        return str(reversal) if reversal else "-"

    # --- corrections ------------------------------------------------------------------------

    def has_correct_permission(self, request: HttpRequest) -> bool:
        # A correction posts a new transaction.
        return request.user.has_perm("ledger.add_transaction")

    def get_urls(self):
        return [
            path("<path:object_id>/correct/", self.admin_site.admin_view(self.correct_view),
                 name="ledger_transaction_correct"),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        extra_context = {**(extra_context or {}),
                         "can_correct": self.has_correct_permission(request)}
        return super().change_view(request, object_id, form_url, extra_context)

    @admin.action(description=gettext_lazy("冲正所选交易"), permissions=["correct"])
    def correct_selected(self, request: HttpRequest, queryset) -> HttpResponse | None:
        form = CorrectionForm(request.POST if request.POST.get("post") == "yes" else None)
        if form.is_valid():
            for original in queryset.order_by("pk"):
                self._correct(request, original, form.cleaned_data["reason"])
            return None  # back to the changelist, where the messages show
        return self._correct_page(request, queryset, form, action="correct_selected")

    def correct_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        if not self.has_correct_permission(request):
            raise PermissionDenied
        original = self.get_object(request, unquote(object_id))
        if original is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        form = CorrectionForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            correction = self._correct(request, original, form.cleaned_data["reason"])
            target = correction or original
            return HttpResponseRedirect(
                reverse("admin:ledger_transaction_change", args=[target.pk]))
        queryset = Transaction.objects.filter(pk=original.pk)
        return self._correct_page(request, queryset, form, action=None)

    def _correct(self, request: HttpRequest, original: Transaction,
                 reason: str) -> Transaction | None:
        try:
            # Our own savepoint: a refusal leaves the request's connection usable.
            with transaction.atomic():
                correction = correct_transaction(original=original, reason=reason,
                                                 actor=request.user)
        except (LedgerError, IntegrityError) as error:
            self.message_user(request, _("交易 #%(id)s 未冲正：%(error)s")
                              % {"id": original.pk, "error": error}, messages.ERROR)
            return None
        self.message_user(request, _("交易 #%(id)s 已冲正：冲正交易 #%(correction)s。")
                          % {"id": original.pk, "correction": correction.pk},
                          messages.SUCCESS)
        return correction

    def _correct_page(self, request: HttpRequest, queryset, form: CorrectionForm,
                      action: str | None) -> TemplateResponse:
        transactions = queryset.order_by("pk").prefetch_related(
            Prefetch("legs", queryset=Leg.objects.select_related("account__user")))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": _("冲正交易"),
            "transactions": transactions,
            "form": form,
            "action": action,
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
            "media": self.media + form.media,
        }
        return TemplateResponse(request, "admin/ledger/transaction/correct.html", context)


@admin.register(Hold)
class HoldAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "user", "game_key", "amount", "status", "created_at", "resolved_at")
    list_filter = ("status",)
    search_fields = ("game_key", "user__username", "user__nickname")
    list_select_related = ("user",)
