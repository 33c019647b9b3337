"""The table socket's texts in the player's language: the engine's refusals, and the
language of a connection.

games/engine/ is pure Python without Django, so its ``GameError`` (and ``CardError``)
texts are English, made for the JSON-lines protocol and the tests. This module maps each
of those texts, by its pattern, to a translatable message with the same parameters;
readings inside a text (``"straight to 9 (BJ as 9)"``) are rendered again from the
structured reading with translated words (games.vocabulary.reading_text).

``engine_message`` is lazy: the text is rendered when ``str()`` is called, in the
language active then. games.live.table_socket renders socket errors with the connection's
language active; a page renders them in the request's (docs/i18n.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.engine.cards import CardError, parse_cards
from games.engine.patterns import best_beating
from games.engine.records import reading_from_dict, reading_to_dict
from games.engine.rulesets import RuleSet
from games.vocabulary import rank_label, reading_text


def cards_text(text: str) -> str:
    """Rank tokens (``"5 5 T BJ"``) as a player reads them (``5 5 10 大王``)."""
    return " ".join(rank_label(token) for token in text.split())


def kind_label(kind: str) -> str:
    """A reading type (RULES §4's protocol names) in words."""
    labels = {
        "single": _("单张"), "pair": _("对子"), "triple": _("三张"), "straight": _("顺子"),
        "pairs": _("连对"), "triples": _("连三张"), "bomb": _("炸弹"),
        "chain_bomb": _("连环炸弹"), "joker_bomb": _("王炸"),
    }
    return labels.get(kind, kind)


class _Context:
    """What the engine knew when it refused: the play to beat (``current``, the
    ``Game.current`` dict) and the rule set."""

    def __init__(self, current: Mapping[str, Any] | None, rules: RuleSet | None) -> None:
        self.current = current
        self.rules = rules

    @property
    def wildcards(self) -> tuple[str, ...]:
        return tuple(self.rules.wildcards) if self.rules is not None else ()

    def current_text(self) -> str | None:
        if self.current is None or "reading" not in self.current:
            return None
        return reading_text(self.current["reading"], self.current.get("cards", ()),
                            self.wildcards)

    def reading_of(self, cards: str) -> str | None:
        """How the rules read ``cards`` (rank text) against the play to beat."""
        if self.rules is None:
            return None
        counts = parse_cards(cards)
        over = (reading_from_dict(self.current["reading"], self.rules)
                if self.current and "reading" in self.current else None)
        found = best_beating(counts, over, self.rules)
        if found is None:
            return None
        return reading_text(reading_to_dict(found, counts, self.rules), cards.split(),
                            self.wildcards)


def _seat_number(seat: str) -> int:
    """Seats are numbered from 1 for people, as the table page numbers them."""
    return int(seat) + 1


def _not_beating(match: re.Match, context: _Context) -> str:
    return _("%(cards)s 大不过 %(reading)s") % {
        "cards": cards_text(match["cards"]),
        "reading": context.current_text() or match["reading"]}


def _read_otherwise(match: re.Match, context: _Context) -> str:
    key, value = match["key"], match["value"].strip("'\"")
    if key == "type":
        asked = _("牌型“%(value)s”") % {"value": kind_label(value)}
    else:
        asked = _("点数“%(value)s”") % {"value": rank_label(value)}
    return _("%(cards)s 按规则读作 %(reading)s，而不是所要求的%(asked)s") % {
        "cards": cards_text(match["cards"]),
        "reading": context.reading_of(match["cards"]) or match["reading"], "asked": asked}


def _with(message: str, **convert: Callable[[str], Any]) -> Callable[[re.Match, _Context], str]:
    """``message`` with the pattern's groups (if any) as parameters, each converted if
    named."""
    def render(match: re.Match, context: _Context) -> str:
        params = {name: convert.get(name, str)(value)
                  for name, value in match.groupdict().items()}
        return _(message) % params
    return render


# Every refusal the engine can send a seated player (games/engine/game.py and cards.py),
# in the order tried. gettext_noop marks each msgid for makemessages; the
# renderers translate it when called.
_PATTERNS: list[tuple[re.Pattern, Callable[[re.Match, _Context], str]]] = [
    (re.compile(r"it is seat (?P<turn>\d+)'s turn, not seat (?P<seat>\d+)'s"),
     _with(gettext_noop("现在轮到 %(turn)s 号座位出牌，不是 %(seat)s 号座位"),
           turn=_seat_number, seat=_seat_number)),
    (re.compile(r"(?P<cards>.+?) does not beat (?P<reading>.+)"), _not_beating),
    (re.compile(r"(?P<cards>.+?) is read as (?P<reading>.+), not as the (?P<key>type|rank) "
                r"(?P<value>.+) asked for"), _read_otherwise),
    (re.compile(r"(?P<cards>.+) is not a valid pattern"),
     _with(gettext_noop("%(cards)s 不是有效的牌型"), cards=cards_text)),
    (re.compile(r"you are on lead: a pass is not allowed, play any pattern"),
     _with(gettext_noop("你是首出，不能过牌，请出任意牌型"))),
    (re.compile(r"the game is over"),
     _with(gettext_noop("本局已经结束"))),
    (re.compile(r"a seat that escaped stays in 托管 to the end"),
     _with(gettext_noop("逃跑的座位将一直托管到本局结束"))),
    (re.compile(r"this seat has already left the game"),
     _with(gettext_noop("这个座位已经离开了对局"))),
    (re.compile(r"no seat (?P<seat>.+) at this table"),
     _with(gettext_noop("这张牌桌没有座位 %(seat)s"))),
    (re.compile(r"you do not hold all of those cards"),
     _with(gettext_noop("你手里没有这些牌"))),
    (re.compile(r"a play needs at least one card"),
     _with(gettext_noop("出牌至少要有一张牌"))),
    (re.compile(r"you do not hold (?P<count>\d+) × (?P<rank>\S+)"),
     _with(gettext_noop("你手里没有 %(count)s 张 %(rank)s"), rank=rank_label)),
    (re.compile(r"a card must be a rank token, not (?P<token>.+)"),
     _with(gettext_noop("牌要写成点数记号，不能是 %(token)s"))),
    (re.compile(r"unknown card (?P<token>.+): use one of (?P<tokens>.+) "
                r"\(10 for T is accepted\)"),
     _with(gettext_noop("不认识的牌 %(token)s：请用 %(tokens)s 之一（T 也可以写成 10）"))),
    (re.compile(r"negative count of (?P<rank>\S+)"),
     _with(gettext_noop("%(rank)s 的张数不能是负数"), rank=rank_label)),
    (re.compile(r"impossible cards: (?P<count>\d+) × (?P<rank>\S+), "
                r"two decks hold only (?P<limit>\d+)"),
     _with(gettext_noop("不可能的牌：%(count)s 张 %(rank)s，两副牌只有 %(limit)s 张"),
           rank=rank_label)),
    (re.compile(r"those cards are not all in the hand"),
     _with(gettext_noop("这些牌不全在手牌中"))),
]


def translate_engine_text(text: str, current: Mapping[str, Any] | None = None,
                          rules: RuleSet | None = None) -> str:
    """An engine refusal in the active language; a text no pattern knows (a new one in
    the engine) is shown as the engine wrote it."""
    context = _Context(current, rules)
    for pattern, render in _PATTERNS:
        match = pattern.fullmatch(text)
        if match is None:
            continue
        try:
            return render(match, context)
        except (CardError, KeyError, ValueError):
            return text
    return text


_lazy_engine_text = lazy(translate_engine_text, str)


def engine_message(text: str, current: Mapping[str, Any] | None = None,
                   rules: RuleSet | None = None):
    """``text`` translated when used as a string (see the module). ``current`` (the
    game's play to beat) is copied now: the game may move on before the text is shown."""
    return _lazy_engine_text(text, dict(current) if current else None, rules)
