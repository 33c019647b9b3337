"""The coin and point ledger: double-entry, append-only (RULES §7–§8, GUIDE "Money").

An account belongs to a user or to the system (系统回收 fees, house, issuance,
escrow for frozen coins), in one currency. A transaction has a unique
idempotency key and legs of signed whole amounts that sum to zero per currency.
PostgreSQL enforces it (migration 0002): a deferred constraint trigger checks
the sums, triggers refuse UPDATE and DELETE of legs and transactions, and a
CHECK keeps user coin balances at zero or above. The services assert the same
in Python before writing.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Currency(models.TextChoices):
    COIN = "coin", _("游戏币")
    POINT = "point", _("积分")


class SystemAccount(models.TextChoices):
    FEES = "fees", _("系统回收")
    HOUSE = "house", _("庄家")
    ISSUANCE = "issuance", _("发行")
    ESCROW = "escrow", _("冻结托管")
    # Tournaments' entry fees until the prizes are paid or the entries refunded.
    PRIZE_POOL = "prize_pool", _("比赛奖池")


# Accounts allowed below zero: issuance is where coins come from, and the house pays
# the non-zero-sum part of score tables (RULES §8). Points may go negative (§7).
MAY_GO_NEGATIVE = (SystemAccount.ISSUANCE, SystemAccount.HOUSE)


class Kind(models.TextChoices):
    GRANT = "grant", _("赠送")
    SETTLEMENT = "settlement", _("结算")
    FEE = "fee", _("系统回收")
    FREEZE = "freeze", _("冻结")
    RELEASE = "release", _("解冻")
    ESCAPE_PENALTY = "escape_penalty", _("逃跑罚分")
    CORRECTION = "correction", _("冲正")
    ADJUSTMENT = "admin_adjustment", _("管理调整")
    RELIEF = "relief", _("救济金")
    REWARD = "reward", _("每日奖励")
    TOURNAMENT_ENTRY = "tournament_entry", _("比赛报名费")
    TOURNAMENT_PRIZE = "tournament_prize", _("比赛奖金")
    TOURNAMENT_REFUND = "tournament_refund", _("比赛退费")


class Account(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.PROTECT, related_name="ledger_accounts",
                             verbose_name=_("玩家"))
    # NULL, not "", for user accounts: the owner check and the unique index rely on it.
    system = models.CharField(_("系统账户"), max_length=16,  # noqa: DJ001
                              choices=SystemAccount.choices, null=True, blank=True)
    currency = models.CharField(_("币种"), max_length=8, choices=Currency.choices)
    balance = models.BigIntegerField(_("余额"), default=0)
    created_at = models.DateTimeField(_("创建时间"), auto_now_add=True)

    class Meta:
        verbose_name = pgettext_lazy("账本", "账户")
        verbose_name_plural = pgettext_lazy("复数", "账户")
        constraints = [
            models.CheckConstraint(
                condition=Q(user__isnull=False, system__isnull=True)
                | Q(user__isnull=True, system__isnull=False),
                name="account_has_one_owner",
            ),
            models.UniqueConstraint(fields=["user", "currency"], condition=Q(user__isnull=False),
                                    name="one_account_per_user_and_currency"),
            models.UniqueConstraint(fields=["system", "currency"],
                                    condition=Q(system__isnull=False),
                                    name="one_system_account_per_currency"),
            # ``system IN (...)`` is NULL for a user's account, and a CHECK that is NULL
            # passes: without ``system IS NOT NULL`` user coins could go below zero.
            models.CheckConstraint(
                condition=Q(balance__gte=0) | Q(currency=Currency.POINT)
                | Q(system__isnull=False, system__in=list(MAY_GO_NEGATIVE)),
                name="balance_not_negative",
            ),
        ]

    def __str__(self) -> str:
        owner = self.get_system_display() if self.system else str(self.user)
        return f"{owner} · {self.get_currency_display()}"


class Transaction(models.Model):
    key = models.CharField(_("幂等键"), max_length=200, unique=True,
                           help_text=_("同一笔记账只记一次的键，例如 settle:game:42。"))
    kind = models.CharField(_("类型"), max_length=20, choices=Kind.choices)
    # A hash of the kind and legs: a retry with the same key must carry the same contents.
    fingerprint = models.CharField(_("内容指纹"), max_length=64)
    memo = models.CharField(_("备注"), max_length=300, blank=True)
    game_key = models.CharField(_("对局键"), max_length=100, blank=True, db_index=True)
    reverses = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="reversed_by", verbose_name=_("冲正的原交易"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.PROTECT, related_name="+",
                                   verbose_name=_("操作人"))
    created_at = models.DateTimeField(_("创建时间"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = pgettext_lazy("账本", "交易")
        verbose_name_plural = pgettext_lazy("复数", "交易")
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_kind_display()} {self.key}"


class Hold(models.Model):
    """Coins frozen for a game (金币冻结): a pending hold resolved exactly once, by the
    game's settlement or by a release (TigerBeetle's two-phase transfers)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("冻结中")
        SETTLED = "settled", _("已结算")
        RELEASED = "released", _("已解冻")

    game_key = models.CharField(_("对局键"), max_length=100)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="holds", verbose_name=_("玩家"))
    amount = models.BigIntegerField(_("金额"))
    status = models.CharField(_("状态"), max_length=10, choices=Status.choices,
                              default=Status.PENDING)
    # Not indexed: nothing looks holds up by their transactions (which are never
    # deleted), and with no index on the columns a settlement writes, resolving a hold
    # is a HOT update that adds no index entries (docs/performance.md, "Ledger").
    freeze = models.ForeignKey(Transaction, null=True, blank=True, on_delete=models.PROTECT,
                               related_name="frozen_holds", verbose_name=_("冻结交易"),
                               db_index=False)
    resolved_by = models.ForeignKey(Transaction, null=True, blank=True,
                                    on_delete=models.PROTECT, related_name="resolved_holds",
                                    verbose_name=_("了结交易"), db_index=False)
    created_at = models.DateTimeField(_("创建时间"), auto_now_add=True)
    resolved_at = models.DateTimeField(_("了结时间"), null=True, blank=True)

    class Meta:
        verbose_name = pgettext_lazy("账本", "冻结")
        verbose_name_plural = pgettext_lazy("复数", "冻结")
        constraints = [
            models.UniqueConstraint(fields=["game_key", "user"], name="one_hold_per_game_and_user"),
            models.CheckConstraint(condition=Q(amount__gte=0), name="hold_amount_not_negative"),
            models.CheckConstraint(
                condition=Q(status="pending", resolved_by__isnull=True)
                | (~Q(status="pending") & Q(resolved_by__isnull=False)),
                name="hold_resolved_iff_not_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.amount} ({self.get_status_display()}) {self.game_key}"


class Leg(models.Model):
    transaction = models.ForeignKey(Transaction, on_delete=models.PROTECT, related_name="legs",
                                    verbose_name=pgettext_lazy("账本", "交易"))
    # Indexed by (account, id) below, which serves the account's own lookups too.
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="legs",
                                verbose_name=pgettext_lazy("账本", "账户"), db_index=False)
    amount = models.BigIntegerField(_("金额"))
    # A player's balance after this leg (their statement shows it); empty for the
    # shared system accounts, which are incremented without reading them.
    balance_after = models.BigIntegerField(_("记账后余额"), null=True, blank=True)
    # Escrow legs name the hold they fund or resolve, so the audit can prove each
    # hold was frozen once and resolved at most once.
    hold = models.ForeignKey(Hold, null=True, blank=True, on_delete=models.PROTECT,
                             related_name="legs", verbose_name=pgettext_lazy("账本", "冻结"),
                             db_index=False)

    class Meta:
        verbose_name = pgettext_lazy("账本", "分录")
        verbose_name_plural = pgettext_lazy("复数", "分录")
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="leg_amount_not_zero"),
        ]
        # Most legs have no hold: only escrow's are in the hold's index.
        indexes = [models.Index(fields=["account", "id"]),
                   models.Index(fields=["hold"], condition=Q(hold__isnull=False),
                                name="leg_hold_when_set")]

    def __str__(self) -> str:
        return f"{self.account}: {self.amount:+d}"
