"""Rooms and their rule sets, as operators edit them in the admin (RULES §7-§10), and the
accounts the server's bots play as."""

from django.apps import apps
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.engine.rulesets import RuleSet, RuleSetError


class RuleSetConfig(models.Model):
    """A rule set as operators edit it in admin (RULES §9); the engine validates it."""

    name = models.SlugField(_("名称"), max_length=40, unique=True)
    label = models.CharField(_("显示名"), max_length=80)
    config = models.JSONField(
        _("配置"),
        default=dict,
        help_text=_("规则集的 JSON；引擎 RuleSet 的每个字段都必须填写。"),
    )
    is_preset = models.BooleanField(_("预设"), default=False)
    updated_at = models.DateTimeField(_("更新时间"), auto_now=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("规则配置")
        verbose_name_plural = pgettext_lazy("复数", "规则配置")

    def __str__(self) -> str:
        return self.label or self.name

    def clean(self) -> None:
        super().clean()
        try:
            rule_set = self.as_rule_set()
        except RuleSetError as error:
            raise ValidationError({"config": gettext("规则配置无效：%(error)s")
                                   % {"error": error}}) from error
        # One name for both, so a room's rule set reads the same in admin and in the engine.
        if self.name and rule_set.name != self.name:
            raise ValidationError({"config": gettext(
                "规则配置中的 name “%(config_name)s” 必须与名称 “%(name)s” 一致。")
                % {"config_name": rule_set.name, "name": self.name}})
        self._check_seats(rule_set.players)
        self._check_fees(rule_set.winner_fee_percent)

    def _check_fees(self, percent: int) -> None:
        """A rule set whose 系统回收 is a percent of each winner's gain (classic, RULES §9)
        charges no flat A: refuse it while coin rooms using it still say they do (Room.clean
        checks the same from the room's side)."""
        if self.pk is None or not percent:
            return
        rooms = list(Room.objects.filter(rule_set_id=self.pk, kind=Room.Kind.COINS, fee__gt=0)
                     .order_by("pk").values_list("name", flat=True))
        if rooms:
            raise ValidationError({"config": gettext(
                "使用此规则的金币场（%(rooms)s）设有系统回收 A；这套规则按每位赢家所得的 "
                "%(percent)d%% 收取，请先把这些房间的 A 改为 0。")
                % {"rooms": "、".join(rooms), "percent": percent}})

    def _check_seats(self, players: int) -> None:
        """A table has one seat per player: the rule set of rooms that have tables keeps
        its number of players (Room.clean checks the same from the room's side)."""
        if self.pk is None:
            return
        sizes = _table_sizes(table__room__rule_set_id=self.pk)
        if sizes and sizes != {players}:
            raise ValidationError({"config": gettext(
                "使用此规则的房间已有 %(seats)s 人的牌桌，不能改为 %(players)d 人规则。")
                % {"seats": "、".join(map(str, sorted(sizes))), "players": players}})

    def as_rule_set(self) -> RuleSet:
        """The engine's immutable rule set; raises RuleSetError when the config is bad."""
        return RuleSet.from_dict(self.config)


def _table_sizes(**seats) -> set[int]:
    """How many seats the tables of the ``seats`` filter have (a table has one per
    player of its rule set)."""
    # A room's tables are defined after it and import it: the model by name, no cycle.
    seat_model = apps.get_model("games", "Seat")
    return set(seat_model.objects.filter(**seats).order_by().values("table_id")
               .annotate(count=models.Count("pk")).values_list("count", flat=True))


MIN_TURN_SECONDS = 5
MIN_READY_SECONDS = 5


class BotLevel(models.TextChoices):
    """How the server's bots of a room play (RULES §10 for 托管)."""

    EASY = "easy", _("简单（托管出牌）")
    TABLE = "table", _("普通")
    EXPERT = "expert", _("高手")
    STRONG = "strong", _("强")


class Room(models.Model):
    """A room players pick in the lobby: a rule set and its money settings (RULES §7, §10)."""

    class Kind(models.TextChoices):
        POINTS = "points", _("积分场")
        COINS = "coins", _("金币场")

    class EscapeMode(models.TextChoices):
        END_GAME = "end_game", _("逃跑即结束")
        AUTO_PLAY = "auto_play", _("逃跑后托管")

    name = models.CharField(_("名称"), max_length=60, unique=True)
    rule_set = models.ForeignKey(RuleSetConfig, on_delete=models.PROTECT, verbose_name=_("规则"))
    kind = models.CharField(_("类型"), max_length=8, choices=Kind.choices, default=Kind.POINTS)
    stake_unit = models.PositiveIntegerField(_("积分单位"), default=1,
                                             help_text=_("每一分计多少积分。"))
    coefficient = models.PositiveIntegerField(_("房间系数 N"), default=0,
                                              help_text=_("每一分计多少金币（金币场）。"))
    fee = models.PositiveIntegerField(_("系统回收 A"), default=0,
                                      help_text=_("每位玩家每局缴纳的金币。"))
    min_coins = models.PositiveIntegerField(_("入座最低金币"), default=0)
    max_loss = models.PositiveIntegerField(_("最多冻结金币"), default=0,
                                           help_text=_("开局时冻结的金币。"))
    turn_seconds = models.PositiveSmallIntegerField(_("出牌时限"), default=20)
    first_turn_seconds = models.PositiveSmallIntegerField(_("首出时限"), default=30)
    ready_seconds = models.PositiveSmallIntegerField(_("准备时限"), default=60)
    escape_mode = models.CharField(_("逃跑处理"), max_length=10, choices=EscapeMode.choices,
                                   default=EscapeMode.END_GAME)
    bots_allowed = models.BooleanField(_("允许机器人"), default=True)
    bot_level = models.CharField(
        _("机器人水平"), max_length=8, choices=BotLevel.choices, default=BotLevel.TABLE,
        help_text=_("补位机器人怎样出牌：简单＝托管的出法（能压就用最小的同型牌，"
                    "不用炸弹）；普通＝一般牌桌的出法；高手＝按牌型规划出牌、会配合同伴的"
                    "机器人；强＝会推算牌局的机器人，在后台计算，稍慢一些。"
                    "对下一局起效，私人牌桌也一样。"))
    rated = models.BooleanField(
        _("排位"), default=False,
        help_text=_("排位房的对局计入等级分（ratings），快速加入按等级分相近配桌；"
                    "好友房的对局一律不计。对下一局起效。"))
    is_open = models.BooleanField(_("开放"), default=True)
    position = models.PositiveSmallIntegerField(_("排序"), default=0)

    class Meta:
        ordering = ["position", "pk"]
        verbose_name = _("房间")
        verbose_name_plural = pgettext_lazy("复数", "房间")

    def __str__(self) -> str:
        return self.name

    @property
    def is_coins(self) -> bool:
        return self.kind == self.Kind.COINS

    def money_terms(self) -> dict:
        """What a game dealt now settles by (RULES §7, §8): kept on the game, so an
        operator's later edit of the room applies to the next game, not this one."""
        return {"coins": self.is_coins, "stake_unit": self.stake_unit,
                "coefficient": self.coefficient, "fee": self.fee}

    def clean(self) -> None:
        """Refuse settings the tables cannot run with, each error on its own field
        (the admin shows it there). Money rules: RULES §7, §8; time: §10."""
        super().clean()
        errors = {}
        # Fields that failed their own checks arrive here as None: read them as 0.
        fee, max_loss, min_coins = self.fee or 0, self.max_loss or 0, self.min_coins or 0
        if self.is_coins:
            if not self.coefficient:
                errors["coefficient"] = gettext("金币场的房间系数 N 至少为 1。")
            # A game starts by freezing max_loss (RULES §8); the fee comes out of it.
            if not max_loss or max_loss < fee:
                errors["max_loss"] = gettext(
                    "最多冻结金币（%(max_loss)d）必须为正，且不少于系统回收 A（%(fee)d）。"
                ) % {"max_loss": max_loss, "fee": fee}
            if not min_coins or min_coins < fee:
                errors["min_coins"] = gettext(
                    "入座最低金币（%(min_coins)d）必须为正，且不少于系统回收 A（%(fee)d）。"
                ) % {"min_coins": min_coins, "fee": fee}
        elif self.stake_unit == 0:
            errors["stake_unit"] = gettext("积分场的积分单位至少为 1。")
        for field in ("turn_seconds", "first_turn_seconds"):
            if getattr(self, field) is not None and getattr(self, field) < MIN_TURN_SECONDS:
                errors[field] = ngettext("出牌时限至少为 %(seconds)d 秒。",
                                         "出牌时限至少为 %(seconds)d 秒。",
                                         MIN_TURN_SECONDS) % {"seconds": MIN_TURN_SECONDS}
        if self.ready_seconds is not None and self.ready_seconds < MIN_READY_SECONDS:
            errors["ready_seconds"] = ngettext(
                "准备时限至少为 %(seconds)d 秒。", "准备时限至少为 %(seconds)d 秒。",
                MIN_READY_SECONDS) % {"seconds": MIN_READY_SECONDS}
        rule_set_error = self._rule_set_error()
        if rule_set_error:
            errors["rule_set"] = rule_set_error
        elif self.is_coins and fee and self.rule_set_id:
            percent = self.rule_set.as_rule_set().winner_fee_percent
            if percent:
                # classic (RULES §9): the fee is a percent of each winner's gain instead.
                errors["fee"] = gettext(
                    "这套规则的系统回收是每位赢家所得的 %(percent)d%%，不收每人每局的固定回收："
                    "系统回收 A 须为 0。") % {"percent": percent}
        if self._kind_changes_during_a_game():
            # A running game settles by the room's kind: coins with no frozen stakes
            # (RULES §8) could never be settled.
            errors["kind"] = gettext("房间内有对局进行中，不能更改类型。")
        if errors:
            raise ValidationError(errors)

    def _kind_changes_during_a_game(self) -> bool:
        # A room's games are defined after it and import it: the model by name, no cycle.
        game_model = apps.get_model("games", "GameRecord")
        if self.pk is None:
            return False
        stored = Room.objects.filter(pk=self.pk).values_list("kind", flat=True).first()
        return (stored is not None and stored != self.kind
                and game_model.objects.filter(room_id=self.pk,
                                              status=game_model.Status.PLAYING).exists())

    def _rule_set_error(self) -> str | None:
        """The rule set must be valid (it sizes the tables), and a room that has tables
        keeps a rule set with as many players as the tables have seats."""
        if not self.rule_set_id:
            return None
        try:
            players = self.rule_set.as_rule_set().players
        except RuleSetError as error:
            return gettext("规则配置无效：%(error)s") % {"error": error}
        if self.pk is None:
            return None
        sizes = _table_sizes(table__room_id=self.pk)
        if sizes and sizes != {players}:
            return gettext("这个房间的牌桌有 %(seats)s 个座位，不能用 %(players)d 人的规则。") % {
                "seats": "、".join(map(str, sorted(sizes))), "players": players}
        return None

    def seat_count(self) -> int:
        return self.rule_set.as_rule_set().players


class BotPlayer(models.Model):
    """A user account played by the server's bot: it fills empty seats when a room
    allows bots, and holds coins like anyone else so coin rooms settle normally."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                related_name="bot_player", verbose_name=_("用户"))
    created_at = models.DateTimeField(_("创建时间"), auto_now_add=True)

    class Meta:
        verbose_name = _("机器人")
        verbose_name_plural = pgettext_lazy("复数", "机器人")

    def __str__(self) -> str:
        return str(self.user)
