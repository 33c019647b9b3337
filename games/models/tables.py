"""The tables of a room, their seats and open sockets, and what a private table
(好友房) adds: its invite and its series of games."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.models.rooms import Room


class Table(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("等待")
        PLAYING = "playing", _("对局中")

    room = models.ForeignKey(Room, on_delete=models.PROTECT, related_name="tables",
                             verbose_name=_("房间"))
    number = models.PositiveIntegerField(_("桌号"))
    status = models.CharField(_("状态"), max_length=8, choices=Status.choices,
                              default=Status.WAITING)
    current_game = models.ForeignKey("GameRecord", null=True, blank=True,
                                     on_delete=models.SET_NULL, related_name="+",
                                     verbose_name=_("当前对局"))
    # The last game's first out and result: the next first lead depends on it (RULES §9).
    last_result = models.JSONField(_("上一局结果"), null=True, blank=True)
    waiting_since = models.DateTimeField(_("开始等待时间"), null=True, blank=True)

    class Meta:
        ordering = ["room", "number"]
        verbose_name = _("牌桌")
        verbose_name_plural = pgettext_lazy("复数", "牌桌")
        constraints = [models.UniqueConstraint(fields=["room", "number"],
                                               name="one_table_number_per_room")]

    def __str__(self) -> str:
        return f"{self.room} #{self.number}"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats",
                              verbose_name=_("牌桌"))
    index = models.PositiveSmallIntegerField(_("座位序号"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.PROTECT, related_name="seats",
                             verbose_name=_("玩家"))
    is_ready = models.BooleanField(_("已准备"), default=False)
    ready_deadline = models.DateTimeField(_("准备截止时间"), null=True, blank=True)
    connected = models.BooleanField(_("在线"), default=False)
    # Set when the occupant's last table socket closed during a game: at this time the
    # seat goes to 托管 unless a socket of theirs came back (games.live.presence).
    away_deadline = models.DateTimeField(_("断线托管时间"), null=True, blank=True)

    class Meta:
        ordering = ["table", "index"]
        verbose_name = _("座位")
        verbose_name_plural = pgettext_lazy("复数", "座位")
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="one_seat_per_index"),
            # A player sits at one seat at a time, anywhere.
            models.UniqueConstraint(fields=["user"], condition=models.Q(user__isnull=False),
                                    name="one_seat_per_player"),
        ]

    def __str__(self) -> str:
        return gettext("%(table)s 座位 %(seat)d：%(player)s") % {
            "table": self.table, "seat": self.index, "player": self.user or "-"}


class PrivateTable(models.Model):
    """A table a player opened for friends (好友房): joined only by its invite
    code or link, not listed in the lobby, filled with bots only when the host says so
    (games.live.private_tables)."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, primary_key=True,
                                 related_name="private", verbose_name=_("牌桌"))
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="+", verbose_name=_("房主"))
    code = models.CharField(_("邀请码"), max_length=12, unique=True)
    expires_at = models.DateTimeField(_("邀请码有效期至"))
    spectators = models.BooleanField(_("允许旁观"), default=True)
    created_at = models.DateTimeField(_("创建时间"), auto_now_add=True)
    closed_at = models.DateTimeField(_("关闭时间"), null=True, blank=True)
    # A rematch's table (friends.rematch): the series its first deal goes on with, when
    # that deal seats the same players (games.live.series.series_for_deal).
    continues = models.ForeignKey("Series", null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+", verbose_name=_("接续的系列赛"))

    class Meta:
        verbose_name = _("好友房")
        verbose_name_plural = pgettext_lazy("复数", "好友房")

    def __str__(self) -> str:
        return f"{self.table} ({self.code})"


class Series(models.Model):
    """Games of one private table played by the same four (or two) players one after
    another: the running score is the sum of their settled games."""

    class End(models.TextChoices):
        CLOSED = "closed", _("房主关闭")
        LEFT = "left", _("有玩家离开")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="series",
                              verbose_name=_("牌桌"))
    players = models.JSONField(_("玩家"), help_text=_("开始时各座玩家的 id"))
    started_at = models.DateTimeField(_("开始时间"), auto_now_add=True)
    ended_at = models.DateTimeField(_("结束时间"), null=True, blank=True)
    end_reason = models.CharField(_("结束原因"), max_length=8, choices=End.choices, blank=True)

    class Meta:
        verbose_name = _("系列赛")
        verbose_name_plural = pgettext_lazy("复数", "系列赛")
        constraints = [models.UniqueConstraint(fields=["table"], condition=models.Q(
            ended_at__isnull=True), name="one_running_series_per_table")]

    def __str__(self) -> str:
        return f"{self.table} #{self.pk}"


class TableSocket(models.Model):
    """An open table socket, one row per socket, on whichever server process holds it:
    a seat's player is away only when none of their sockets at the table is left
    (games.live.presence).

    Every socket of a process has its row updated on each heartbeat, all at once: the
    row keeps few indexes and none on what the beat writes, and its pages keep room
    (migration 0017's fillfactor), so the update is HOT and adds no index entries
    (docs/performance.md, "Socket rows updated in place")."""

    # Unique by a constraint, not ``unique=True``: no second (LIKE) index on it.
    channel = models.CharField(_("通道"), max_length=200)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+", verbose_name=_("玩家"))
    # Looked up through the (table, user) index below.
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="sockets",
                              verbose_name=_("牌桌"), db_index=False)
    opened_at = models.DateTimeField(_("连接时间"), auto_now_add=True)
    # Moved on by its process's heartbeat (games.live.heartbeat): a row whose process
    # died without closing its sockets stops moving and is dropped (games.live.presence).
    # Not indexed: the stale sweep reads the table, one row per open socket.
    seen_at = models.DateTimeField(_("最近确认"), default=timezone.now)
    # The server process holding it (games.live.socket_rows.this_process): whether that
    # process still lives is known from its own row (SocketProcess), beaten more often.
    process = models.CharField(_("进程"), max_length=100, blank=True, default="")

    class Meta:
        verbose_name = _("牌桌连接")
        verbose_name_plural = pgettext_lazy("复数", "牌桌连接")
        indexes = [models.Index(fields=["table", "user"], name="table_socket_user_idx")]
        constraints = [models.UniqueConstraint(fields=["channel"],
                                               name="one_row_per_socket_channel")]

    def __str__(self) -> str:
        return f"{self.table_id}:{self.user_id}:{self.channel}"


class SocketProcess(models.Model):
    """A server process holding table sockets (games.live.socket_rows.this_process),
    moved on every GAMES_PROCESS_BEAT_SECONDS by its heartbeat (games.live.heartbeat).
    One that stopped moving was killed or hangs: a turn of a player whose socket it
    held does not time out (games.live.socket_rows.lost_with_its_process)."""

    name = models.CharField(_("进程"), max_length=100, unique=True)
    seen_at = models.DateTimeField(_("最近确认"), db_index=True)

    class Meta:
        verbose_name = _("连接进程")
        verbose_name_plural = pgettext_lazy("复数", "连接进程")

    def __str__(self) -> str:
        return self.name
