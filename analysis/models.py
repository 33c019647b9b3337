"""The analysis of a finished game: the strong bot's view of every move of
each human seat, computed once by a Celery task (analysis.tasks) and kept."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import GameRecord


class GameAnalysis(models.Model):
    """One per game (the one-to-one is the database's guarantee that two requests, or a
    request racing the automatic one, make one analysis). ``moves`` and ``summary`` are
    written once, when the task finishes; nothing recomputes a finished analysis."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("排队中")
        RUNNING = "running", _("分析中")
        DONE = "done", _("已完成")
        FAILED = "failed", _("失败")

    game = models.OneToOneField(GameRecord, on_delete=models.CASCADE, related_name="analysis",
                                verbose_name=_("对局"))
    status = models.CharField(_("状态"), max_length=8, choices=Status.choices,
                              default=Status.QUEUED)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                     on_delete=models.SET_NULL, related_name="+",
                                     verbose_name=_("申请人"),
                                     help_text=_("空：金币场结算后自动分析。"))
    created_at = models.DateTimeField(_("申请时间"), auto_now_add=True)
    started_at = models.DateTimeField(_("开始时间"), null=True, blank=True)
    finished_at = models.DateTimeField(_("完成时间"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(_("尝试次数"), default=0)
    seconds = models.FloatField(_("引擎用时（秒）"), null=True, blank=True,
                                help_text=_("分析所用的 CPU 时间。"))
    move_budget_ms = models.PositiveIntegerField(_("每步预算（毫秒）"), default=0)
    budget_used_ms = models.PositiveIntegerField(_("已用预算（毫秒）"), default=0,
                                                 help_text=_("各步分到的预算之和。"))
    thresholds = models.JSONField(_("标记阈值"), default=dict, blank=True,
                                  help_text=_("分析时“?”与“??”的失分阈值。"))
    wildcards = models.JSONField(_("百搭牌"), default=list, blank=True,
                                 help_text=_("对局规则中的百搭牌，用于显示牌型。"))
    moves = models.JSONField(_("着法"), default=list, blank=True,
                             help_text=_("每一步：序号、座位、所出、建议、失分、标记。"))
    summary = models.JSONField(_("汇总"), default=list, blank=True,
                               help_text=_("每位真人玩家：准确率、标记数、最大失误。"))
    error = models.TextField(_("错误"), blank=True)

    class Meta:
        ordering = ["-pk"]
        verbose_name = _("牌局分析")
        verbose_name_plural = pgettext_lazy("复数", "牌局分析")

    def __str__(self) -> str:
        return f"{self.game_id}:{self.status}"

    @property
    def finished(self) -> bool:
        return self.status == self.Status.DONE


class AnalysisOptions(models.Model):
    """The operator's choices, edited in admin: one row at most. Until an operator
    saves it, settings.ANALYSIS_AUTO_COIN_GAMES decides (analysis.selectors.auto_coin_games)."""

    auto_coin_games = models.BooleanField(
        _("金币场自动分析"), default=True,
        help_text=_("金币场的每局结算后自动分析真人玩家的出牌。"))
    updated_at = models.DateTimeField(_("更新时间"), auto_now=True)

    class Meta:
        verbose_name = _("分析设置")
        verbose_name_plural = pgettext_lazy("复数", "分析设置")

    def __str__(self) -> str:
        return str(self._meta.verbose_name)
