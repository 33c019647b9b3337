from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A player or operator. Custom from the first migration so fields can be added later."""

    nickname = models.CharField("昵称", max_length=32, blank=True)
    # Follows the player's points through the Level table (RULES §7); the ledger
    # recomputes it whenever points are posted.
    level = models.PositiveSmallIntegerField("等级", default=1)

    def __str__(self) -> str:
        return self.nickname or self.username


class Level(models.Model):
    """One rung of the title ladder (RULES §7), editable in admin."""

    number = models.PositiveSmallIntegerField("等级", unique=True)
    title = models.CharField("称号", max_length=20)
    min_points = models.BigIntegerField("所需积分", unique=True)

    class Meta:
        ordering = ["number"]
        verbose_name = "等级"
        verbose_name_plural = "等级"
        constraints = [
            models.CheckConstraint(condition=models.Q(number__gte=1), name="level_number_from_1"),
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.title}"
