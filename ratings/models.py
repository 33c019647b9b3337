"""Ratings (docs/ratings.md): each person's skill per family of rule sets, what every
rated game changed, which games were rated and why not, and the seasons the boards
are cut by."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import GameRecord

from .rating_math import START_MU, START_SIGMA, shown


class Family(models.TextChoices):
    """Rule sets rated together: one rating for every four-player rule set (qq, jinyou,
    classic), one for tcy's two-player game."""

    FOUR = "four", _("四人")
    TWO = "two", _("二人")


def family_of(players: int) -> str:
    return Family.TWO if players == 2 else Family.FOUR


class Rating(models.Model):
    """A person's skill in one family: openskill's mu and sigma (ratings.rating_math)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="ratings", verbose_name=_("玩家"))
    family = models.CharField(_("类别"), max_length=4, choices=Family.choices)
    mu = models.FloatField(_("μ"), default=START_MU)
    sigma = models.FloatField(_("σ"), default=START_SIGMA)
    games = models.PositiveIntegerField(_("排位局数"), default=0)
    wins = models.PositiveIntegerField(_("胜局"), default=0)
    updated_at = models.DateTimeField(_("更新时间"), default=timezone.now)

    class Meta:
        ordering = ["family", "-mu"]
        verbose_name = _("等级分")
        verbose_name_plural = pgettext_lazy("复数", "等级分")
        constraints = [models.UniqueConstraint(fields=["user", "family"],
                                               name="one_rating_per_family")]
        indexes = [models.Index(fields=["family", "-mu"], name="rating_board_idx")]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.family}:{self.rating}"

    @property
    def rating(self) -> int:
        return shown(self.mu)

    @property
    def deviation(self) -> int:
        return shown(self.sigma)

    @property
    def provisional(self) -> bool:
        return self.sigma > settings.RATINGS_PROVISIONAL_SIGMA


class RatedGame(models.Model):
    """One row per settled game the ratings looked at (its primary key is the game's:
    a game is rated once), with whether it was rated and, if not, why."""

    class Outcome(models.TextChoices):
        RATED = "rated", _("已计分")
        CASUAL = "casual", _("休闲（非排位房或好友房）")
        NO_PEOPLE = "no_people", _("没有真人")

    game = models.OneToOneField(GameRecord, on_delete=models.CASCADE, primary_key=True,
                                related_name="rating_outcome", verbose_name=_("对局"))
    family = models.CharField(_("类别"), max_length=4, choices=Family.choices)
    outcome = models.CharField(_("结果"), max_length=10, choices=Outcome.choices)
    # The people of the game, sorted ids: repeated groups are damped (anti-farming).
    group = models.CharField(_("玩家组"), max_length=100, blank=True)
    weight = models.FloatField(_("权重"), default=1.0)
    created_at = models.DateTimeField(_("时间"), default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("排位对局")
        verbose_name_plural = pgettext_lazy("复数", "排位对局")
        indexes = [models.Index(fields=["family", "group", "created_at"],
                                name="rated_game_group_idx")]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.outcome}"


class RatingChange(models.Model):
    """What one rated game did to one person's rating: the history chart's points."""

    game = models.ForeignKey(GameRecord, on_delete=models.CASCADE, related_name="+",
                             verbose_name=_("对局"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="rating_changes", verbose_name=_("玩家"))
    family = models.CharField(_("类别"), max_length=4, choices=Family.choices)
    seat = models.PositiveSmallIntegerField(_("座位序号"))
    won = models.BooleanField(_("获胜"))
    escaped = models.BooleanField(_("逃跑"), default=False)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    weight = models.FloatField(_("权重"), default=1.0)
    created_at = models.DateTimeField(_("时间"), default=timezone.now)

    class Meta:
        ordering = ["-pk"]
        verbose_name = _("等级分变动")
        verbose_name_plural = pgettext_lazy("复数", "等级分变动")
        constraints = [models.UniqueConstraint(fields=["game", "user"],
                                               name="one_rating_change_per_game_and_user")]
        indexes = [models.Index(fields=["user", "family", "created_at"],
                                name="rating_change_history_idx"),
                   models.Index(fields=["family", "created_at"],
                                name="rating_change_season_idx")]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.user_id}:{self.delta:+d}"

    @property
    def rating(self) -> int:
        return shown(self.mu_after)

    @property
    def delta(self) -> int:
        return shown(self.mu_after) - shown(self.mu_before)


class Season(models.Model):
    """A stretch of time the season boards rank (admin-edited): the ratings players
    reached with the rated games they played in it."""

    name = models.CharField(_("名称"), max_length=60, unique=True)
    starts_at = models.DateTimeField(_("开始"))
    ends_at = models.DateTimeField(_("结束"))

    class Meta:
        ordering = ["-starts_at"]
        verbose_name = _("赛季")
        verbose_name_plural = pgettext_lazy("复数", "赛季")
        constraints = [models.CheckConstraint(condition=models.Q(ends_at__gt=models.F("starts_at")),
                                              name="season_ends_after_it_starts")]

    def __str__(self) -> str:
        return self.name

    @classmethod
    def current(cls, now=None) -> "Season | None":
        now = now or timezone.now()
        return cls.objects.filter(starts_at__lte=now, ends_at__gt=now) \
            .order_by("-starts_at").first()
