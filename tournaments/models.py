"""Duplicate tournaments (比赛场): templates an operator makes, tournaments run from
them, their entrants, the boards each table was dealt and each seat's result there
(docs/tournaments.md). The game logs stay the truth: a board's result is copied from
its game's result at settlement, and the standings are computed from those."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.models import BotLevel, GameRecord, Room, RuleSetConfig, Table

MIN_SIZE, MAX_SIZE = 8, 64


class StartMode(models.TextChoices):
    WHEN_FULL = "when_full", _("满员即开")
    SCHEDULED = "scheduled", _("定时开赛")


class TournamentTemplate(models.Model):
    """What an operator sets once; each tournament copies it when it is opened."""

    name = models.CharField(_("名称"), max_length=60)
    rule_set = models.ForeignKey(RuleSetConfig, on_delete=models.PROTECT,
                                 verbose_name=_("规则"))
    kind = models.CharField(_("牌桌类型"), max_length=8, choices=Room.Kind.choices,
                            default=Room.Kind.POINTS,
                            help_text=_("每副牌按积分场还是金币场结算。"))
    stake = models.PositiveIntegerField(
        _("每分计"), default=1, help_text=_("积分场：积分单位；金币场：房间系数 N。"))
    entry_fee = models.PositiveIntegerField(_("报名费（金币）"), default=0,
                                            help_text=_("0：免费报名。"))
    fee_percent = models.PositiveSmallIntegerField(
        _("系统回收比例 %"), default=10, help_text=_("每份报名费中归系统回收的百分比。"))
    prize_table = models.JSONField(
        _("奖励表"), default=list, blank=True,
        help_text=_("按名次分配奖池的百分比，例如 [50, 30, 20]。"))
    size = models.PositiveSmallIntegerField(_("人数"), default=16)
    rounds = models.PositiveSmallIntegerField(_("轮数"), default=3)
    boards_per_round = models.PositiveSmallIntegerField(_("每轮牌数"), default=2)
    turn_seconds = models.PositiveSmallIntegerField(_("出牌时限"), default=20)
    start_mode = models.CharField(_("开赛方式"), max_length=10, choices=StartMode.choices,
                                  default=StartMode.WHEN_FULL)
    registration_minutes = models.PositiveIntegerField(
        _("报名时长（分钟）"), default=60, help_text=_("定时开赛：开赛前多久开放报名。"))
    bots_for_no_shows = models.BooleanField(_("机器人补位"), default=True,
                                            help_text=_("开赛时空位由机器人补上。"))
    bot_level = models.CharField(_("机器人水平"), max_length=8, choices=BotLevel.choices,
                                 default=BotLevel.TABLE)
    next_start_at = models.DateTimeField(
        _("下一场开赛时间"), null=True, blank=True,
        help_text=_("定时开赛：用“开一场比赛”操作开出的下一场在这个时间开赛。"))
    created_at = models.DateTimeField(_("创建时间"), auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("比赛模板")
        verbose_name_plural = pgettext_lazy("复数", "比赛模板")

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        from tournaments.terms import terms_errors  # noqa: PLC0415 (models load first)

        super().clean()
        errors = terms_errors(self)
        if errors:
            raise ValidationError(errors)


class Tournament(models.Model):
    class Status(models.TextChoices):
        REGISTERING = "registering", _("报名中")
        RUNNING = "running", _("进行中")
        FINISHED = "finished", _("已结束")
        CANCELLED = "cancelled", _("已取消")

    template = models.ForeignKey(TournamentTemplate, on_delete=models.PROTECT,
                                 related_name="tournaments", verbose_name=_("模板"))
    name = models.CharField(_("名称"), max_length=80)
    # The template's settings as they were when it opened (tournaments.terms.Terms).
    terms = models.JSONField(_("赛制"), default=dict)
    room = models.OneToOneField(Room, on_delete=models.PROTECT, related_name="tournament",
                                verbose_name=_("比赛房间"))
    status = models.CharField(_("状态"), max_length=12, choices=Status.choices,
                              default=Status.REGISTERING)
    registration_opens_at = models.DateTimeField(_("开放报名时间"))
    starts_at = models.DateTimeField(_("开赛时间"), null=True, blank=True,
                                     help_text=_("定时开赛的时间；满员即开的为空。"))
    started_at = models.DateTimeField(_("实际开赛时间"), null=True, blank=True)
    finished_at = models.DateTimeField(_("结束时间"), null=True, blank=True)
    current_round = models.PositiveSmallIntegerField(_("当前轮次"), default=0)
    # Every board's deal derives from it (tournaments.boards): the same at every table.
    seed = models.CharField(_("发牌种子"), max_length=80)
    cancel_reason = models.CharField(_("取消原因"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("创建时间"), auto_now_add=True)

    class Meta:
        ordering = ["-pk"]
        verbose_name = _("比赛")
        verbose_name_plural = pgettext_lazy("复数", "比赛")
        indexes = [models.Index(fields=["status", "starts_at"], name="tournament_due_idx")]

    def __str__(self) -> str:
        return self.name

    @property
    def ledger_prefix(self) -> str:
        return f"tournament:{self.pk}"


class Entry(models.Model):
    """A player in a tournament: registered (and paid) or a bot seated for a no-show.
    A withdrawal keeps the row (its refund's key needs the entry's number)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="entries", verbose_name=_("比赛"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="tournament_entries", verbose_name=_("玩家"))
    is_bot = models.BooleanField(_("机器人"), default=False)
    # The n-th time this player registered here: entry and refund keys carry it.
    number = models.PositiveSmallIntegerField(_("报名次数"), default=1)
    paid = models.PositiveIntegerField(_("已付报名费"), default=0)
    registered_at = models.DateTimeField(_("报名时间"), auto_now=True)
    withdrawn_at = models.DateTimeField(_("退出时间"), null=True, blank=True)
    # The player escaped a board: 托管 plays their seat to the end.
    left_at = models.DateTimeField(_("离开时间"), null=True, blank=True)
    place = models.PositiveSmallIntegerField(_("名次"), null=True, blank=True)
    matchpoints = models.IntegerField(_("比赛分"), null=True, blank=True)
    score = models.IntegerField(_("总得分"), null=True, blank=True)
    prize = models.PositiveIntegerField(_("奖金"), default=0)

    class Meta:
        ordering = ["tournament", "pk"]
        verbose_name = _("报名")
        verbose_name_plural = pgettext_lazy("复数", "报名")
        constraints = [models.UniqueConstraint(fields=["tournament", "user"],
                                               name="one_entry_per_player")]

    def __str__(self) -> str:
        return f"{self.tournament_id}:{self.user}"

    @property
    def active(self) -> bool:
        return self.withdrawn_at is None


class Board(models.Model):
    """A game of the tournament: round r, board b, at table t. Every table of a round
    is dealt board b from the same seed."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="boards", verbose_name=_("比赛"))
    round = models.PositiveSmallIntegerField(_("轮次"))
    board = models.PositiveSmallIntegerField(_("牌号"))
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+",
                              verbose_name=_("牌桌"))
    game = models.OneToOneField(GameRecord, on_delete=models.PROTECT,
                                related_name="tournament_board", verbose_name=_("对局"))
    seed = models.CharField(_("种子"), max_length=40)
    # The round's seating (seat index → user id) the board was dealt to, before any 明牌 swap.
    seating = models.JSONField(_("座位"), default=list)
    # Filled at the game's settlement, by seat after any swap: the game's players and
    # each one's score (the game's result), the figures the matchpoints compare.
    players = models.JSONField(_("各座玩家"), null=True, blank=True)
    scores = models.JSONField(_("得分"), null=True, blank=True)
    settled_at = models.DateTimeField(_("结算时间"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "round", "board", "table"]
        verbose_name = _("比赛牌局")
        verbose_name_plural = pgettext_lazy("复数", "比赛牌局")
        constraints = [models.UniqueConstraint(fields=["tournament", "round", "board", "table"],
                                               name="one_game_per_board_and_table")]

    def __str__(self) -> str:
        return gettext("%(tournament)s 第%(round)d轮 第%(board)d副 %(table)s") % {
            "tournament": self.tournament_id, "round": self.round, "board": self.board,
            "table": self.table_id}


class Pairing(models.Model):
    """Who sits where in a round: seat ``index`` of the round's table ``table``."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="pairings", verbose_name=_("比赛"))
    round = models.PositiveSmallIntegerField(_("轮次"))
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+",
                              verbose_name=_("牌桌"))
    index = models.PositiveSmallIntegerField(_("座位序号"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="+", verbose_name=_("玩家"))

    class Meta:
        ordering = ["tournament", "round", "table", "index"]
        verbose_name = _("比赛座位")
        verbose_name_plural = pgettext_lazy("复数", "比赛座位")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "round", "user"],
                                    name="one_pairing_per_round_and_player"),
            models.UniqueConstraint(fields=["tournament", "round", "table", "index"],
                                    name="one_pairing_per_round_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}:{self.round}:{self.table_id}:{self.index}"
