from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy


class User(AbstractUser):
    """A player or operator. Custom from the first migration so fields can be added later."""

    nickname = models.CharField(gettext_lazy("昵称"), max_length=32, blank=True)
    # The player's choice: others see the stats page only when it is on;
    # the player and staff always do (stats.selectors.may_see_stats).
    stats_public = models.BooleanField(gettext_lazy("公开统计"), default=True)
    # No level here: it is computed from the point balance and the Level table
    # (accounts.levels, RULES §7), so it has one source.

    def __str__(self) -> str:
        return self.nickname or self.username


class Level(models.Model):
    """One rung of the title ladder (RULES §7), editable in admin."""

    number = models.PositiveSmallIntegerField(gettext_lazy("等级"), unique=True)
    title = models.CharField(gettext_lazy("称号"), max_length=20)
    min_points = models.BigIntegerField(gettext_lazy("所需积分"), unique=True)

    class Meta:
        ordering = ["number"]
        verbose_name = gettext_lazy("等级")
        verbose_name_plural = pgettext_lazy("复数", "等级")
        constraints = [
            models.CheckConstraint(condition=models.Q(number__gte=1), name="level_number_from_1"),
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.title}"

    def clean(self) -> None:
        """A higher level needs more points: refuse points not strictly between those of
        the neighbouring levels (the ladder is read highest-reached-wins)."""
        super().clean()
        if self.number is None or self.min_points is None:
            return
        others = Level.objects.exclude(pk=self.pk)
        below = others.filter(number__lt=self.number).order_by("-number").first()
        above = others.filter(number__gt=self.number).order_by("number").first()
        if below is not None and self.min_points <= below.min_points:
            raise ValidationError({"min_points": _(
                "等级 %(number)d 所需积分必须大于等级 %(below)d（%(below_title)s）的 "
                "%(below_points)d。") % {"number": self.number, "below": below.number,
                                         "below_title": below.title,
                                         "below_points": below.min_points}})
        if above is not None and self.min_points >= above.min_points:
            raise ValidationError({"min_points": _(
                "等级 %(number)d 所需积分必须小于等级 %(above)d（%(above_title)s）的 "
                "%(above_points)d。") % {"number": self.number, "above": above.number,
                                         "above_title": above.title,
                                         "above_points": above.min_points}})
