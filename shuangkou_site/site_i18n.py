"""Template filters for texts stored as data (``{% load site_i18n %}``, registered in
settings.TEMPLATES): level titles, the ledger's kinds, currencies and system memos, and
the ``lang`` attribute. See docs/i18n.md."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext, gettext_noop

from accounts.titles import level_title as _level_title
from ledger.models import Currency

register = template.Library()

# Memos the services write on their own postings (ledger.services, games.live.bot_accounts): shown
# translated. Memos a person wrote (an operator's reason) are shown as written.
SYSTEM_MEMOS = frozenset((
    gettext_noop("新玩家赠送"), gettext_noop("机器人补充金币"), gettext_noop("金币冻结"),
    gettext_noop("解冻"), gettext_noop("逃跑结算"), gettext_noop("对局结算"),
    gettext_noop("救济金"),
))


@register.filter
def html_lang(code: str) -> str:
    """A Django language code as a BCP 47 tag for ``lang``: ``zh-hans`` → ``zh-Hans``."""
    language, _, script = (code or "").partition("-")
    if len(script) == 4:
        return f"{language}-{script.title()}"
    return code


@register.filter
def level_title(title: str) -> str:
    return _level_title(title or "")


@register.filter
def ledger_kind(kind: str) -> str:
    """A transaction kind's label, as the statements show it."""
    from ledger.views import KIND_LABELS

    label = KIND_LABELS.get(kind)
    return str(label) if label is not None else kind


@register.filter
def currency_label(currency: str) -> str:
    """A currency's label, as ledger.models.Currency names it."""
    return str(Currency(currency).label) if currency in Currency.values else currency


@register.filter
def ledger_memo(memo: str) -> str:
    return gettext(memo) if memo in SYSTEM_MEMOS else memo
