"""Friends (README, "Friends"): requests, friendships, blocks, a page's last poll (who
is online) and invitations to a private table."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

USER = settings.AUTH_USER_MODEL


class FriendRequest(models.Model):
    sender = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+",
                               verbose_name=_("申请人"))
    recipient = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+",
                                  verbose_name=_("对方"))
    created_at = models.DateTimeField(_("时间"), auto_now_add=True)

    class Meta:
        verbose_name = _("好友申请")
        verbose_name_plural = _("好友申请")
        constraints = [
            models.UniqueConstraint(fields=["sender", "recipient"], name="one_request_per_pair"),
            models.CheckConstraint(condition=~Q(sender=F("recipient")),
                                   name="no_request_to_oneself"),
        ]

    def __str__(self) -> str:
        return f"{self.sender_id} → {self.recipient_id}"


class Friendship(models.Model):
    """Two friends, the lower user id first: one row per pair, whoever asked."""

    low = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+",
                            verbose_name=_("玩家"))
    high = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+",
                             verbose_name=_("玩家"))
    created_at = models.DateTimeField(_("时间"), auto_now_add=True)

    class Meta:
        verbose_name = _("好友")
        verbose_name_plural = _("好友")
        constraints = [
            models.UniqueConstraint(fields=["low", "high"], name="one_friendship_per_pair"),
            models.CheckConstraint(condition=Q(low__lt=F("high")), name="friendship_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.low_id} ↔ {self.high_id}"


class Block(models.Model):
    """``blocker`` blocked ``blocked``: no requests or invitations from them, their
    quick chat hidden from the blocker."""

    blocker = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+",
                                verbose_name=_("屏蔽者"))
    blocked = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+",
                                verbose_name=_("被屏蔽者"))
    created_at = models.DateTimeField(_("时间"), auto_now_add=True)

    class Meta:
        verbose_name = _("屏蔽")
        verbose_name_plural = _("屏蔽")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_per_pair"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")),
                                   name="no_block_of_oneself"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} ⊘ {self.blocked_id}"


class Seen(models.Model):
    """When a page of the user last polled its notices: online while recent."""

    user = models.OneToOneField(USER, on_delete=models.CASCADE, primary_key=True,
                                related_name="+", verbose_name=_("玩家"))
    seen_at = models.DateTimeField(_("最近在线"))

    class Meta:
        verbose_name = _("在线记录")
        verbose_name_plural = _("在线记录")

    def __str__(self) -> str:
        return f"{self.user_id} @ {self.seen_at:%Y-%m-%d %H:%M:%S}"


class TableInvite(models.Model):
    """An invitation to a private table, shown to ``recipient`` on whatever page they
    are on until answered or stale; ``seat``: the seat kept for them (a rematch)."""

    class Answer(models.TextChoices):
        ACCEPTED = "accepted", _("已接受")
        DECLINED = "declined", _("已拒绝")

    sender = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+",
                               verbose_name=_("邀请人"))
    recipient = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+",
                                  verbose_name=_("被邀请人"))
    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="+",
                              verbose_name=_("牌桌"))
    seat = models.PositiveSmallIntegerField(_("座位"), null=True, blank=True)
    rematch = models.BooleanField(_("再来一局"), default=False)
    created_at = models.DateTimeField(_("时间"))
    answer = models.CharField(_("回复"), max_length=8, choices=Answer.choices, blank=True)
    answered_at = models.DateTimeField(_("回复时间"), null=True, blank=True)

    class Meta:
        verbose_name = _("牌桌邀请")
        verbose_name_plural = _("牌桌邀请")
        constraints = [models.UniqueConstraint(fields=["sender", "recipient", "table"],
                                               name="one_invite_per_table_and_pair")]
        indexes = [models.Index(fields=["recipient", "answer", "created_at"])]

    def __str__(self) -> str:
        return f"{self.sender_id} → {self.recipient_id} @ {self.table_id}"
