"""What each seat of a settled game did, written once at settlement (stats.services):
the player stats page adds these rows up in SQL instead of replaying every event log
on each view (docs/features.md, "Player stats")."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import GameRecord, Room


class SeatFacts(models.Model):
    """One seat of one settled game: who sat there and how the game went for them."""

    game = models.ForeignKey(GameRecord, on_delete=models.CASCADE, related_name="seat_facts",
                             verbose_name=_("对局"))
    seat = models.PositiveSmallIntegerField(_("座位序号"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="seat_facts", verbose_name=_("玩家"))
    rule_set_name = models.CharField(_("规则"), max_length=40)
    room_kind = models.CharField(_("类型"), max_length=8, choices=Room.Kind.choices)
    # The engine's result names (games.engine.scoring): double, single, draw, escape.
    kou = models.CharField(_("结果"), max_length=8)
    won = models.BooleanField(_("获胜"))
    escaped = models.BooleanField(_("逃跑"))
    bombs = models.PositiveSmallIntegerField(_("炸弹数"), default=0)
    ended_at = models.DateTimeField(_("结束时间"), null=True, blank=True)

    class Meta:
        ordering = ["-game_id", "seat"]
        verbose_name = _("座位统计")
        verbose_name_plural = pgettext_lazy("复数", "座位统计")
        constraints = [models.UniqueConstraint(fields=["game", "seat"],
                                               name="one_stats_row_per_seat")]
        indexes = [models.Index(fields=["user", "rule_set_name", "room_kind", "kou"],
                                name="seat_facts_by_player_idx")]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.seat}:{self.user_id}"


class SeatBombs(models.Model):
    """How many bombs of a number of stars (相, RULES §4.1) one seat played in one game."""

    facts = models.ForeignKey(SeatFacts, on_delete=models.CASCADE, related_name="bombs_by_stars",
                              verbose_name=_("座位统计"))
    # Copied from the seat's row so a player's bombs add up without a join.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+", verbose_name=_("玩家"))
    stars = models.PositiveSmallIntegerField(_("星数"))
    count = models.PositiveSmallIntegerField(_("数量"))

    class Meta:
        ordering = ["facts", "stars"]
        verbose_name = _("炸弹统计")
        verbose_name_plural = pgettext_lazy("复数", "炸弹统计")
        constraints = [models.UniqueConstraint(fields=["facts", "stars"],
                                               name="one_bomb_row_per_seat_and_stars")]
        indexes = [models.Index(fields=["user", "stars"], name="seat_bombs_by_player_idx")]

    def __str__(self) -> str:
        return f"{self.facts_id}:{self.stars}×{self.count}"
