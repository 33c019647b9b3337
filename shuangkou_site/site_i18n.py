"""Template filters for texts stored as data (``{% load site_i18n %}``, registered in
settings.TEMPLATES): level titles, the ledger's kinds, currencies and system memos
(ledger.labels), and the ``lang`` attribute. See docs/i18n.md."""

from __future__ import annotations

from django import template

from accounts.titles import level_title as _level_title
from ledger.labels import currency_label, kind_label, ledger_memo

register = template.Library()


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


register.filter("ledger_kind", kind_label)
register.filter("currency_label", currency_label)
register.filter("ledger_memo", ledger_memo)
