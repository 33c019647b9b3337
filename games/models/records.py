"""A game as it was played: its row (what queries and the sweeper need) and its event
log, the truth (GUIDE "State = fold(events)")."""

from django.contrib.postgres.indexes import GinIndex
from django.db import models
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.models.rooms import BotLevel, Room
from games.models.tables import Series, Table


class GameRecord(models.Model):
    """A game at a table: its event log is the truth (GUIDE "State = fold(events)");
    this row holds what queries and the deadline sweeper need."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("对局中")
        ENDED = "ended", _("已结束")

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="games",
                              verbose_name=_("牌桌"))
    room = models.ForeignKey(Room, on_delete=models.PROTECT, related_name="games",
                             verbose_name=_("房间"))
    rule_set_name = models.CharField(_("规则"), max_length=40)
    players = models.JSONField(_("各座玩家"),
                               help_text=_("按座位排列的玩家编号（换座之后）。"))
    bot_seats = models.JSONField(_("机器人座位"), default=list,
                                 help_text=_("由服务器的机器人出牌的座位。"))
    # The room's level when the game was dealt: an operator's later edit applies to
    # the next game, as the money terms do.
    bot_level = models.CharField(_("机器人水平"), max_length=8, choices=BotLevel.choices,
                                 default=BotLevel.TABLE)
    status = models.CharField(_("状态"), max_length=8, choices=Status.choices,
                              default=Status.PLAYING)
    seq = models.PositiveIntegerField(_("事件数"), default=0)
    turn = models.PositiveSmallIntegerField(_("轮到座位"), null=True, blank=True)
    deadline = models.DateTimeField(_("出牌截止时间"), null=True, blank=True)
    # Set (only on the failure path) when events of this game could not be sent to the
    # table; cleared when they are re-announced. While set, a person's turn does not
    # time out: a fault of the server must never count against a player (GUIDE).
    undelivered_since = models.DateTimeField(_("事件未送达时间"), null=True, blank=True)
    result = models.JSONField(_("结果"), null=True, blank=True)
    settled_at = models.DateTimeField(_("结算时间"), null=True, blank=True)
    settlement = models.JSONField(_("结算"), null=True, blank=True,
                                  help_text=_("每个座位得到的积分和金币。"))
    terms = models.JSONField(_("结算条款"), default=dict, blank=True,
                             help_text=_("发牌时房间的结算条款。"))
    created_at = models.DateTimeField(_("开始时间"), auto_now_add=True)
    ended_at = models.DateTimeField(_("结束时间"), null=True, blank=True)
    series = models.ForeignKey(Series, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="games", verbose_name=_("系列赛"))

    class Meta:
        ordering = ["-pk"]
        verbose_name = _("对局")
        verbose_name_plural = pgettext_lazy("复数", "对局")
        indexes = [
            models.Index(fields=["status", "deadline"], name="game_deadline_idx"),
            models.Index(fields=["status", "settled_at"], name="game_unsettled_idx"),
            # A table's latest game: the heartbeat (one probe per table) and each snapshot read it.
            models.Index(fields=["table", "id"], name="game_table_latest_idx"),
            # Small: only games the channel layer failed to tell (games.live.delivery),
            # which the beat sweep looks for every second.
            models.Index(fields=["undelivered_since"], name="game_undelivered_idx",
                         condition=models.Q(undelivered_since__isnull=False)),
            # A player's games, ``players__contains=[user id]`` (``@>``): the home page
            # asks on every signed-in visit whether the player has played yet
            # (games.onboarding), the history lists them (games.archive.history).
            GinIndex(fields=["players"], name="game_players_idx",
                     opclasses=["jsonb_path_ops"]),
        ]

    def __str__(self) -> str:
        return gettext("对局 %(game)s（%(status)s）") % {
            "game": self.pk, "status": self.get_status_display()}

    @property
    def ledger_key(self) -> str:
        return f"game:{self.pk}"


class GameEvent(models.Model):
    game = models.ForeignKey(GameRecord, on_delete=models.PROTECT, related_name="events",
                             verbose_name=_("对局"))
    seq = models.PositiveIntegerField(_("序号"))
    type = models.CharField(_("类型"), max_length=16)
    data = models.JSONField(_("数据"))
    created_at = models.DateTimeField(_("时间"), auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        verbose_name = _("对局事件")
        verbose_name_plural = pgettext_lazy("复数", "对局事件")
        constraints = [models.UniqueConstraint(fields=["game", "seq"],
                                               name="one_event_per_game_seq")]

    def __str__(self) -> str:
        return gettext("对局 %(game)s #%(seq)s %(type)s") % {
            "game": self.game_id, "seq": self.seq, "type": self.type}


class EscapeManager(models.Manager):
    def get_queryset(self):
        return super().get_queryset().filter(type="escape")


class GameEscape(GameEvent):
    """An escape (逃跑, RULES §10): an ``escape`` event of a game's log, as the admin
    lists it. A proxy: no table of its own, nothing to keep in step."""

    objects = EscapeManager()

    class Meta:
        proxy = True
        ordering = ["-created_at", "-pk"]
        verbose_name = gettext_lazy("逃跑记录")
        verbose_name_plural = pgettext_lazy("复数", "逃跑记录")
