"""Level titles in the reader's language.

The ladder is data (accounts.Level, seeded from RULES §7 by migration 0003, editable in
admin; and a rule set's own ladder, classic's, RULES §9), so its titles are stored in
Simplified Chinese. The shipped titles are marked here for the catalogs and translated
when shown; a title an operator typed in admin has no translation and is shown as typed.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

SHIPPED_TITLES = [
    gettext_noop("包身工"), gettext_noop("短工"), gettext_noop("长工"), gettext_noop("佃户"),
    gettext_noop("贫农"), gettext_noop("渔夫"), gettext_noop("猎人"), gettext_noop("中农"),
    gettext_noop("富农"), gettext_noop("掌柜"), gettext_noop("商人"), gettext_noop("衙役"),
    gettext_noop("小财主"), gettext_noop("大财主"), gettext_noop("小地主"),
    gettext_noop("大地主"), gettext_noop("知县"), gettext_noop("通判"), gettext_noop("知府"),
    gettext_noop("总督"), gettext_noop("巡抚"), gettext_noop("丞相"), gettext_noop("帝王"),
    # classic's own ladder (RULES §9, a rule set's level_ladder; games.ladders) adds these.
    gettext_noop("流浪汉"), gettext_noop("财主"), gettext_noop("地主"), gettext_noop("知州"),
    gettext_noop("皇帝"),
]
_SHIPPED = frozenset(SHIPPED_TITLES)


def level_title(title: str) -> str:
    """``title`` in the active language when it is one of the shipped titles."""
    return gettext(title) if title in _SHIPPED else title
