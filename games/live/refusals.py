"""The engine's refusals in the reader's language.

games/engine/ is pure Python without Django: it refuses with ``GameError(code,
**params)`` (and ``CardError`` the same way), a stable code of
``games.engine.errors.MESSAGES`` and plain-JSON params; its own texts are English, for
the JSON-lines protocol and the tests. Here each code has a translatable text
(Simplified Chinese source, catalogs in locale/) filled from the params: seat numbers
count from 1 as the table page numbers seats, ranks are shown as players read them
(``T`` → 10, ``BJ`` → 大王) and a reading (the play to beat, how a play is read) is put
together from the structured reading with translated words (games.vocabulary).

``engine_message`` is lazy: the text is rendered when ``str()`` is called, in the
language active then. games.live.table_socket renders socket errors with the
connection's language active; a page renders them in the request's (docs/i18n.md,
"Socket errors").
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.engine.errors import EngineError, english
from games.live.message_fields import is_whole_number
from games.vocabulary import rank_label, reading_text

Params = Mapping[str, Any]


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


@dataclass(frozen=True)
class Refusal:
    """The text of one code: ``msgid`` (marked for the catalogs, translated when shown)
    and ``values``, the params as the text's parameters (None: a text without any)."""

    msgid: str
    values: Callable[[Params], dict[str, Any]] | None = None


def _seat(seat: Any) -> Any:
    """A seat as people count them, from 1; a seat that is no number as the engine got it."""
    if is_whole_number(seat):
        return seat + 1
    return repr(seat)


def _not_beating(params: Params) -> dict[str, Any]:
    return {"cards": cards_text(params["cards"]),
            "reading": reading_text(params["beat"], params.get("beat_cards", ()),
                                    params.get("wildcards", ()))}


def _read_otherwise(params: Params) -> dict[str, Any]:
    value = params["asked"]
    value = value if isinstance(value, str) else repr(value)
    if params["key"] == "type":
        asked = _("牌型“%(value)s”") % {"value": kind_label(value)}
    else:
        asked = _("点数“%(value)s”") % {"value": rank_label(value)}
    return {"cards": cards_text(params["cards"]),
            "reading": reading_text(params["reading"], params["cards"].split(),
                                    params.get("wildcards", ())),
            "asked": asked}


# A text for every code of games/engine/errors.MESSAGES (the tests check both ways).
REFUSALS: dict[str, Refusal] = {
    # Cards.
    "bad_token": Refusal(gettext_noop("牌要写成点数记号，不能是 %(token)s"),
                         lambda p: {"token": p["token"]}),
    "unknown_card": Refusal(
        gettext_noop("不认识的牌 %(token)s：请用 %(tokens)s 之一（T 也可以写成 10）"),
        lambda p: {"token": repr(p["token"]), "tokens": p["tokens"]}),
    "negative_count": Refusal(gettext_noop("%(rank)s 的张数不能是负数"),
                              lambda p: {"rank": rank_label(p["rank"])}),
    "impossible_cards": Refusal(
        gettext_noop("不可能的牌：%(count)s 张 %(rank)s，两副牌只有 %(limit)s 张"),
        lambda p: {"count": p["count"], "rank": rank_label(p["rank"]), "limit": p["limit"]}),
    "not_in_hand": Refusal(gettext_noop("这些牌不全在手牌中")),
    "unknown_physical_card": Refusal(gettext_noop("没有这张牌：%(card)s"),
                                     lambda p: {"card": repr(p["card"])}),
    # Building a game.
    "wrong_players": Refusal(gettext_noop("%(rules)s 需要 %(players)s 位不同的玩家"),
                             lambda p: {"rules": p["rules"], "players": p["players"]}),
    "wrong_hands": Refusal(gettext_noop("%(rules)s 需要 %(players)s 份手牌"),
                           lambda p: {"rules": p["rules"], "players": p["players"]}),
    "bad_leader": Refusal(gettext_noop("首出的座位必须是 1 到 %(last)s 号"),
                          lambda p: {"last": _seat(p["last"])}),
    # Who may act, and when.
    "no_such_seat": Refusal(gettext_noop("这张牌桌没有座位 %(seat)s"),
                            lambda p: {"seat": _seat(p["seat"])}),
    "game_over": Refusal(gettext_noop("本局已经结束")),
    "not_your_turn": Refusal(gettext_noop("现在轮到 %(turn)s 号座位出牌，不是 %(seat)s 号座位"),
                             lambda p: {"turn": _seat(p["turn"]), "seat": _seat(p["seat"])}),
    "escaped_stays_trustee": Refusal(gettext_noop("逃跑的座位将一直托管到本局结束")),
    "already_left": Refusal(gettext_noop("这个座位已经离开了对局")),
    # Plays and passes.
    "cards_not_held": Refusal(gettext_noop("你手里没有这些牌")),
    "empty_play": Refusal(gettext_noop("出牌至少要有一张牌")),
    "rank_not_held": Refusal(gettext_noop("你手里没有 %(count)s 张 %(rank)s"),
                             lambda p: {"count": p["count"], "rank": rank_label(p["rank"])}),
    "not_a_pattern": Refusal(gettext_noop("%(cards)s 不是有效的牌型"),
                             lambda p: {"cards": cards_text(p["cards"])}),
    "does_not_beat": Refusal(gettext_noop("%(cards)s 大不过 %(reading)s"), _not_beating),
    "read_otherwise": Refusal(
        gettext_noop("%(cards)s 按规则读作 %(reading)s，而不是所要求的%(asked)s"),
        _read_otherwise),
    "pass_on_lead": Refusal(gettext_noop("你是首出，不能过牌，请出任意牌型")),
    # The protocol's ``game`` op (not reached from the site; translated all the same).
    "bad_action": Refusal(gettext_noop("每个动作要写成 [座位, 牌] 或 [座位, \"pass\"]")),
}


def refusal_text(code: str, params: Params) -> str:
    """The refusal ``code`` with ``params`` in the active language. A code without a
    text here (one added to the engine since) is shown as the engine writes it, in
    English; so are params that do not fit the text."""
    refusal = REFUSALS.get(code)
    if refusal is None:
        return english(code, dict(params))
    if refusal.values is None:
        return _(refusal.msgid)
    try:
        return _(refusal.msgid) % refusal.values(params)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return english(code, dict(params))


_lazy_refusal_text = lazy(refusal_text, str)


def engine_message(error: EngineError):
    """The engine's refusal ``error`` (a ``GameError`` or ``CardError``: its code and
    params) as a text translated when used as a string (see the module). The params are
    copied now: the game may move on before the text is shown."""
    return _lazy_refusal_text(error.code, copy.deepcopy(error.params))
