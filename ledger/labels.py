"""How the ledger's stored words read (RULES §7–§8): transaction kinds, currencies and
the services' own memos, in the active language. The statements, the admin and the
site's template filters (shuangkou_site.site_i18n, docs/i18n.md) show them from here."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from .models import Currency, Kind

# The statements' labels: fuller than the model's (对局结算 for 结算, 金币冻结 for 冻结).
KIND_LABELS = {
    Kind.GRANT: _("赠送"),
    Kind.SETTLEMENT: _("对局结算"),
    Kind.FEE: _("系统回收"),
    Kind.FREEZE: _("金币冻结"),
    Kind.RELEASE: _("解冻"),
    Kind.ESCAPE_PENALTY: _("逃跑结算"),
    Kind.CORRECTION: _("冲正"),
    Kind.ADJUSTMENT: _("管理调整"),
    Kind.RELIEF: _("救济金"),
    Kind.REWARD: _("每日奖励"),
    Kind.TOURNAMENT_ENTRY: _("比赛报名费"),
    Kind.TOURNAMENT_PRIZE: _("比赛奖金"),
    Kind.TOURNAMENT_REFUND: _("比赛退费"),
}

# Memos the services write on their own postings (ledger.services, games.live.bot_accounts): shown
# translated. Memos a person wrote (an operator's reason) are shown as written.
SYSTEM_MEMOS = frozenset((
    gettext_noop("新玩家赠送"), gettext_noop("机器人补充金币"), gettext_noop("金币冻结"),
    gettext_noop("解冻"), gettext_noop("逃跑结算"), gettext_noop("对局结算"),
    gettext_noop("救济金"), gettext_noop("签到奖励"), gettext_noop("每日任务奖励"),
    gettext_noop("救济金"), gettext_noop("比赛报名费"), gettext_noop("比赛奖金"),
    gettext_noop("比赛退费"),
))


def kind_label(kind: str) -> str:
    """A transaction kind's label, as the statements show it."""
    label = KIND_LABELS.get(kind)
    return str(label) if label is not None else kind


def currency_label(currency: str) -> str:
    """A currency's label, as ledger.models.Currency names it."""
    return str(Currency(currency).label) if currency in Currency.values else currency


def ledger_memo(memo: str) -> str:
    """A system memo translated; a memo a person wrote (an operator's reason) as written."""
    return gettext(memo) if memo in SYSTEM_MEMOS else memo
