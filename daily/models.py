"""The daily check-in (签到) and what each settled game did towards the day's tasks.
The coins themselves are ledger postings (kind ``reward``) under keys that say the
day: ``daily:<user>:<date>:checkin`` and ``daily:<user>:<date>:task:<task>``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class CheckIn(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+", verbose_name=_("玩家"))
    day = models.DateField(_("日期"))
    streak = models.PositiveIntegerField(_("连续签到天数"))
    coins = models.PositiveIntegerField(_("奖励金币"))
    created_at = models.DateTimeField(_("时间"), auto_now_add=True)

    class Meta:
        verbose_name = _("签到")
        verbose_name_plural = _("签到")
        constraints = [models.UniqueConstraint(fields=["user", "day"],
                                               name="one_check_in_per_day")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.day} ×{self.streak}"


class GameDone(models.Model):
    """A person's settled game, as the day's tasks count it: one row per game and
    player (a unique constraint), written in the settlement's transaction."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+", verbose_name=_("玩家"))
    game = models.ForeignKey("games.GameRecord", on_delete=models.CASCADE, related_name="+",
                             verbose_name=_("对局"))
    day = models.DateField(_("日期"))
    finished = models.BooleanField(_("完成"), help_text=_("打完这一局（没有逃跑）"))
    won_double = models.BooleanField(_("赢双扣"))
    best_bomb = models.PositiveSmallIntegerField(_("最大炸弹星数"), default=0)

    class Meta:
        verbose_name = _("每日任务对局")
        verbose_name_plural = _("每日任务对局")
        constraints = [models.UniqueConstraint(fields=["user", "game"],
                                               name="one_task_row_per_game_and_player")]
        indexes = [models.Index(fields=["user", "day"])]

    def __str__(self) -> str:
        return f"{self.user_id} {self.game_id} {self.day}"
