"""Escapes counted per player and the bans they bring (like lichess's
playban). One row per player and game, written by the game's settlement; a ban is
lifted by adding a row, never by editing or deleting one (docs/fair_play.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class EscapeRecord(models.Model):
    class Kind(models.TextChoices):
        ESCAPE = "escape", _("逃跑")
        DISCONNECT = "disconnect", _("断线未回")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="escape_records", verbose_name=_("玩家"))
    game = models.ForeignKey("games.GameRecord", on_delete=models.PROTECT,
                             related_name="escape_records", verbose_name=_("牌局"))
    kind = models.CharField(_("类型"), max_length=12, choices=Kind.choices)
    occurred_at = models.DateTimeField(_("时间"), db_index=True)
    # Escapes of the player within the window ending here, this one included: 1 is a
    # warning, more bring the ban of the ladder (fair_play.ladder).
    count_in_window = models.PositiveSmallIntegerField(_("窗口内次数"))
    ban_until = models.DateTimeField(_("禁止入座至"), null=True, blank=True)

    class Meta:
        verbose_name = _("逃跑与禁令")
        verbose_name_plural = pgettext_lazy("复数", "逃跑与禁令")
        ordering = ["-occurred_at", "-id"]
        constraints = [
            # A re-run settlement never counts a game twice.
            models.UniqueConstraint(fields=["user", "game"], name="one_escape_per_player_game"),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.game_id} · {self.get_kind_display()}"

    @property
    def is_warning(self) -> bool:
        return self.ban_until is None


class BanLift(models.Model):
    """An admin lifted the ban of an escape record: who, when and why."""

    record = models.OneToOneField(EscapeRecord, on_delete=models.PROTECT, related_name="lift",
                                  verbose_name=_("逃跑与禁令"))
    lifted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                  related_name="+", verbose_name=_("操作人"))
    lifted_at = models.DateTimeField(_("解除时间"), auto_now_add=True)
    reason = models.CharField(_("原因"), max_length=300)

    class Meta:
        verbose_name = _("解除禁令")
        verbose_name_plural = pgettext_lazy("复数", "解除禁令")
        ordering = ["-lifted_at"]
        constraints = [models.CheckConstraint(condition=~models.Q(reason=""),
                                              name="ban_lift_has_reason")]

    def __str__(self) -> str:
        return f"{self.record} · {self.lifted_by}"
