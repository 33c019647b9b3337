"""The game's words in the reader's language: ranks, cards, readings of plays and how a
game ended (RULES §1, §4, §6). The live table (games.web.views.table_strings hands
these texts to the table page's script), socket refusals (games.live.refusals) and the
archive (replays, history) all speak through this module, so a reading reads the same
everywhere. Every text is translated (``gettext``) in the language active when called.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.engine.cards import FULL_DECK, RANK_INDEX, RANK_TOKENS, SUIT_SYMBOLS

# How ranks are printed on card faces and in texts (RULES §1: T is the 10).
RANK_LABELS = {token: token for token in RANK_TOKENS}
RANK_LABELS["T"] = "10"
_CARD_BY_CODE = {card.code: card for card in FULL_DECK}


def rank_label(token: str) -> str:
    if token == "SJ":
        return _("小王")
    if token == "BJ":
        return _("大王")
    return RANK_LABELS.get(token, token)


# The words of a reading (RULES §4), by its type, and of the jokers standing in for
# other ranks. games.web.views.table_strings hands the same texts to the table page (as
# "reading_<key>"), whose readingText (static/js/table/readings.js) puts them together
# like reading_text here.
READING_TEXTS = {
    "single": gettext_noop("单张 %(rank)s"),
    "pair": gettext_noop("对子 %(rank)s"),
    "triple": gettext_noop("三张 %(rank)s"),
    "straight": gettext_noop("顺子 %(low)s–%(rank)s"),
    "pairs": gettext_noop("连对 %(low)s–%(rank)s"),
    "triples": gettext_noop("连三张 %(low)s–%(rank)s"),
    "bomb": gettext_noop("%(stars)d 相炸弹 %(rank)s"),
    "chain_bomb": gettext_noop("%(length)d 连环炸弹到 %(rank)s（%(size)d 张，%(stars)d 星）"),
    "four_jokers": gettext_noop("天王炸弹"),
    "three_jokers": gettext_noop("三王炸弹"),
    "joker_bomb": gettext_noop("%(name)s（%(stars)d 星）"),
    "wilds": gettext_noop("（%(wilds)s）"),
    "wild": gettext_noop("%(joker)s当%(rank)s"),
}
READING_TYPES = ("single", "pair", "triple", "straight", "pairs", "triples", "bomb",
                 "chain_bomb", "joker_bomb")


def reading_text(reading: Mapping[str, Any], cards: Sequence[str] = (),
                 wildcards: Sequence[str] = ()) -> str:
    """A recorded reading (RULES §4, the ``play`` event's ``reading``) in words."""
    kind = reading.get("type")
    length = reading.get("length", 1)
    low = ""
    if kind in ("straight", "pairs", "triples") and reading.get("rank") in RANK_INDEX:
        low = rank_label(RANK_TOKENS[RANK_INDEX[reading["rank"]] - length + 1])
    if kind in READING_TYPES:
        jokers = "four_jokers" if reading.get("size") == 4 else "three_jokers"
        text = _(READING_TEXTS[kind]) % {
            "rank": rank_label(reading.get("rank", "")), "low": low, "length": length,
            "size": reading.get("size", 0), "stars": reading.get("stars", 0),
            "name": _(READING_TEXTS[jokers])}
    else:
        text = reading.get("text", "")
    filled = reading.get("filled") or []
    if filled:
        text += _(READING_TEXTS["wilds"]) % {"wilds": _("、").join(
            _(READING_TEXTS["wild"]) % {"joker": rank_label(joker), "rank": rank_label(token)}
            for joker, token in zip(_wild_jokers(reading, cards, wildcards), filled))}
    return text


def _wild_jokers(reading: Mapping[str, Any], cards: Sequence[str],
                 wildcards: Sequence[str]) -> list[str]:
    """Which jokers of a play stood in for other ranks, big first (RULES §4.1); the
    engine's own description orders them the same way."""
    if reading.get("type") == "pair" and reading.get("rank") in ("SJ", "BJ"):
        return ["BJ" if reading["rank"] == "SJ" else "SJ"]
    # Physical codes (a play event's cards) or rank tokens (a refused play's text).
    tokens = [RANK_TOKENS[_CARD_BY_CODE[code].rank] if code in _CARD_BY_CODE else code
              for code in cards if code in _CARD_BY_CODE or code in RANK_INDEX]
    jokers = ["BJ"] * tokens.count("BJ") + ["SJ"] * tokens.count("SJ")
    wild = [joker for joker in jokers if joker in wildcards]
    # Never print fewer names than filled ranks: fall back to a plain "王".
    return wild + [_("王")] * (len(reading.get("filled") or []) - len(wild))


# How a game ended (RULES §6, §10), as the replay and the history name it.
KOU_LABELS = {"double": gettext_noop("双扣"), "single": gettext_noop("单扣"),
              "draw": gettext_noop("平扣"), "escape": gettext_noop("逃跑")}


def kou_label(kou: str | None) -> str:
    return _(KOU_LABELS[kou]) if kou in KOU_LABELS else kou or ""


def card_text(code: str) -> str:
    card = _CARD_BY_CODE.get(code)
    if card is None:
        return code
    token = RANK_TOKENS[card.rank]
    if token in ("SJ", "BJ"):
        return rank_label(token)
    return SUIT_SYMBOLS.get(card.suit or "", "") + rank_label(token)
