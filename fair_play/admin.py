"""Admin: each player's escape records and bans; a ban is lifted by adding a BanLift
(who and when are filled in, the reason is required); nothing is edited or deleted."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from fair_play.bans import lift_ban
from fair_play.models import BanLift, EscapeRecord


class BanLiftInline(admin.StackedInline):
    model = BanLift
    extra = 0
    can_delete = False
    readonly_fields = ("lifted_by", "lifted_at", "reason")

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(EscapeRecord)
class EscapeRecordAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "game", "occurred_at", "count_in_window", "ban_until",
                    "lifted")
    list_filter = ("kind",)
    search_fields = ("user__username", "user__nickname")
    date_hierarchy = "occurred_at"
    readonly_fields = ("user", "game", "kind", "occurred_at", "count_in_window", "ban_until")
    inlines = [BanLiftInline]

    @admin.display(boolean=True, description=_("已解除"))
    def lifted(self, record: EscapeRecord) -> bool:
        return hasattr(record, "lift")

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class BanLiftForm(forms.ModelForm):
    class Meta:
        model = BanLift
        fields = ("record", "reason")

    def clean(self):
        data = super().clean()
        record = data.get("record")
        if record is not None and record.ban_until is None:
            raise ValidationError(_("这条记录只是警告，没有禁令可解除"))
        return data


@admin.register(BanLift)
class BanLiftAdmin(admin.ModelAdmin):
    form = BanLiftForm
    list_display = ("record", "lifted_by", "lifted_at", "reason")
    search_fields = ("record__user__username", "reason")
    raw_id_fields = ("record",)

    def save_model(self, request, obj: BanLift, form, change: bool) -> None:
        lifted = lift_ban(record=obj.record, actor=request.user, reason=obj.reason)
        obj.pk, obj.lifted_by, obj.lifted_at = lifted.pk, lifted.lifted_by, lifted.lifted_at

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
