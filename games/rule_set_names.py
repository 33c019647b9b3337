"""The names players know the shipped rule sets by, and a one-line description of each
(RULES §9), in the reader's language.

A rule set's code (``qq``, ``tcy`` …) is what the engine, admin and the protocol use;
players know the games as QQ游戏's, 同城游's … so pages show these names. A rule set an
operator saved under a name of their own keeps the label they typed (data is not
translated, docs/i18n.md) and has no description.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

# RULES §9's column headings, in players' words.
_NAMES = {
    "qq": _("QQ游戏 火拼双扣"),
    "tcy": _("同城游 二人火拼"),
    "jinyou": _("金游 百变双扣"),
    "classic": _("经典双扣"),
}

_SUMMARIES = {
    "qq": _(
        "四人两两对家，大王百搭；每局翻一张明牌定首出和搭档，6 相以上的炸弹当场收贡献分。"),
    "tcy": _(
        "二人对战，大小王都是财神（百搭）；一人出完即结束，按输家剩余张数算平扣、单扣或双扣。"),
    "jinyou": _(
        "四人，大王百搭；连环炸弹里 2 能和 A、3 相连，天王炸是最小的七相；双扣后才重新明牌。"),
    "classic": _(
        "四人，不用百搭，没有连环炸弹和三王炸；炸弹按张数比大小，天王炸最大，不算贡献分；"
        "得分再乘桌上积分最少者的等级倍率。"),
}


def rule_set_name(code: str, label: str = "") -> str:
    """What players call the rule set ``code``: its own name for a shipped one, else the
    label the operator gave it (else the code)."""
    name = _NAMES.get(code)
    return str(name) if name is not None else (label or code)


def rule_set_summary(code: str) -> str:
    """One line on what sets the rule set apart; empty for an operator's own rule set."""
    summary = _SUMMARIES.get(code)
    return str(summary) if summary is not None else ""
