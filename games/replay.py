"""Replays of finished games: every step's state, computed from the event log.

State = fold(events) (GUIDE): frame *k* is the state after the log's first *k* events,
folded by the engine, so the replay page shows exactly what the table saw happen and
the page's script only steps through precomputed frames. Only finished games are
replayed: the log holds every hand, and hidden hands stay hidden while a game runs.

Every text a person reads is translated here (``gettext``), against the active
language of the request that renders the page.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext

from .engine.cards import FULL_DECK, RANK_INDEX, RANK_TOKENS, SUIT_SYMBOLS
from .engine.game import Game

# How ranks are printed on card faces and in texts (RULES §1: T is the 10).
RANK_LABELS = {token: token for token in RANK_TOKENS}
RANK_LABELS["T"] = "10"
_CARD_BY_CODE = {card.code: card for card in FULL_DECK}


def fold(events: Sequence[dict]) -> Iterator[Game]:
    """The game after each event of ``events``, in order (one object, advanced in place).

    This is ``Game.replay`` one event at a time: replaying every prefix from the start
    would cost O(n²) applies for a page view. The replay tests prove each step equals
    ``Game.replay(events[:k])``.
    """
    game = Game()
    for event in events:
        game.apply(event)  # as Game.replay does
        yield game


# --- texts ---------------------------------------------------------------------------

def rank_label(token: str) -> str:
    if token == "SJ":
        return _("小王")
    if token == "BJ":
        return _("大王")
    return RANK_LABELS.get(token, token)


# The words of a reading (RULES §4), by its type, and of the jokers standing in for
# other ranks. games.views.table_strings hands the same texts to static/js/table.js
# (as "reading_<key>"), whose readingText puts them together like reading_text here.
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


def _by_label(by: str | None) -> str:
    return {"bot": _("托管"), "timeout": _("超时"), "auto": _("自动")}.get(by or "", "")


def caption(event: Mapping[str, Any], game: Game, before: list, name,
            bots: frozenset = frozenset()) -> str:
    """One line for the step of ``event``; ``game`` is the state after it, ``before``
    the seats' players before it (a swap moves them), ``name(user_id)`` a name and
    ``bots`` the server bots' user ids (their moves are not 托管)."""
    kind = event["type"]

    def by_suffix() -> str:
        by = event.get("by")
        if by == "bot" and game.players[event["seat"]] in bots:
            return ""
        label = _by_label(by)
        return _("（%(by)s）") % {"by": label} if label else ""

    def seat_name(seat: int | None, players: Sequence = game.players) -> str:
        if seat is None or not 0 <= seat < len(players):
            return "-"
        return name(players[seat])

    if kind == "deal":
        return _("发牌：每家 %(count)d 张") % {"count": len(event["hands"][0])}
    if kind == "reveal":
        return _("明牌 %(card)s：%(holder)s 先出，%(twin)s 持有另一张，与其同队") % {
            "card": card_text(event["card"]), "holder": seat_name(event["holder"], before),
            "twin": seat_name(event["twin_holder"], before)}
    if kind == "swap":
        a, b = event["seats"]
        return _("换座：%(a)s 与 %(b)s 交换座位") % {
            "a": seat_name(a, before), "b": seat_name(b, before)}
    if kind == "first_lead":
        who = seat_name(event["seat"])
        reason = event.get("reason")
        if reason == "reveal":
            return _("%(name)s 持明牌，先出") % {"name": who}
        if reason == "random_card":
            return _("%(name)s 持随机牌 %(card)s，先出") % {
                "name": who, "card": card_text(event.get("card", ""))}
        if reason == "previous_first_out":
            return _("%(name)s 上局头游，先出") % {"name": who}
        return _("%(name)s 先出") % {"name": who}
    if kind == "play":
        text = _("%(name)s 出 %(reading)s") % {
            "name": seat_name(event["seat"]),
            "reading": reading_text(event["reading"], event["cards"], game.rules.wildcards)}
        return text + by_suffix()
    if kind == "pass":
        return _("%(name)s 过") % {"name": seat_name(event["seat"])} + by_suffix()
    if kind == "out":
        return _("%(name)s 出完，第 %(place)d 名") % {
            "name": seat_name(event["seat"]), "place": event["place"]}
    if kind == "trick":
        winner, leader = event["winner"], event["leader"]
        if winner == leader:
            return _("%(name)s 赢得本轮，接着出牌") % {"name": seat_name(winner)}
        return _("%(winner)s 赢得本轮并已出完，%(leader)s 接风") % {
            "winner": seat_name(winner), "leader": seat_name(leader)}
    if kind == "timeout":
        return _("%(name)s 超时（第 %(count)d 次）") % {
            "name": seat_name(event["seat"]), "count": event["count"]}
    if kind == "trustee":
        who = seat_name(event["seat"])
        if not event["on"]:
            return _("%(name)s 取消托管") % {"name": who}
        reason = {"disconnect": _("断线"), "timeouts": _("超时三次"),
                  "escape": _("逃跑")}.get(event.get("reason"), "")
        if reason:
            return _("%(name)s 进入托管（%(reason)s）") % {"name": who, "reason": reason}
        return _("%(name)s 进入托管") % {"name": who}
    if kind == "escape":
        return _("%(name)s 逃跑") % {"name": seat_name(event["seat"])}
    if kind == "end":
        return _("牌局结束：%(kou)s") % {"kou": kou_label(event["result"].get("kou"))}
    if kind == "settled":
        return _("结算完成")
    return kind


def card_text(code: str) -> str:
    card = _CARD_BY_CODE.get(code)
    if card is None:
        return code
    token = RANK_TOKENS[card.rank]
    if token in ("SJ", "BJ"):
        return rank_label(token)
    return SUIT_SYMBOLS.get(card.suit or "", "") + rank_label(token)


# --- frames ----------------------------------------------------------------------------

def _table_entry(entry: Mapping[str, Any], wildcards: Sequence[str]) -> dict:
    if entry["action"] == "play":
        return {"action": "play", "cards": list(entry["cards"]),
                "text": reading_text(entry["reading"], entry["cards"], wildcards),
                "by": entry.get("by")}
    by = _by_label(entry.get("by"))
    return {"action": "pass", "cards": [], "text": pgettext("replay action", "过"),
            "by": entry.get("by"), "note": by}


def build_frames(events: Sequence[dict], name=str, bots: frozenset = frozenset()) -> dict:
    """Every step of a finished game's log: ``frames`` (one per event, the state after
    it), ``tricks`` (where each trick starts, who led and who won) and ``cards`` (the
    name of every card dealt, for its face). ``name(user_id)`` names a player in the texts;
    ``bots`` are the user ids of server bots."""
    frames: list[dict] = []
    tricks: list[dict] = []
    table: list = []
    trick_index: int | None = None
    players_before: list = []
    for game in fold(events):
        event = game.events[-1]
        kind = event["type"]
        seats = len(game.hands)
        wildcards = game.rules.wildcards
        if kind == "play" and (trick_index is None or tricks[trick_index]["winner"] is not None):
            # The first play after the first lead or after a trick ended starts a trick.
            tricks.append({"number": len(tricks) + 1, "step": len(frames), "leader": event["seat"],
                           "lead": reading_text(event["reading"], event["cards"], wildcards),
                           "winner": None, "plays": 0})
            trick_index = len(tricks) - 1
        if kind == "play":
            tricks[trick_index]["plays"] += 1
        if kind == "trick":
            # The finished trick stays on the table for this step, under its result.
            tricks[trick_index]["winner"] = event["winner"]
            tricks[trick_index]["end"] = len(frames)
        else:
            table = [None] * seats
            for entry in game.trick:  # a later action of a seat replaces its earlier one
                table[entry["seat"]] = _table_entry(entry, wildcards)
        actor = event.get("seat") if isinstance(event.get("seat"), int) else None
        frames.append({
            "seq": event["seq"],
            "type": kind,
            "actor": actor,
            "caption": caption(event, game, players_before or list(game.players), name, bots),
            "players": list(game.players),
            "hands": [list(hand) for hand in game.hands],
            "table": list(table),
            # The play that wins the trick: on the trick's last step, its winner.
            "current": event["winner"] if kind == "trick"
            else game.current["seat"] if game.current else None,
            "turn": game.turn,
            "leader": game.leader,
            "finish": list(game.finish),
            "trustee": list(game.trustee),
            "escaped": list(game.escaped),
            "trick": trick_index,
        })
        players_before = list(game.players)
    dealt = sorted({code for hand in (frames[0]["hands"] if frames else []) for code in hand})
    return {"frames": frames, "tricks": tricks, "cards": {code: card_text(code) for code in dealt}}


def seat_value(values_by_key: Mapping[str, Any] | None, key: str, seat: int) -> Any:
    """``values_by_key[key][seat]`` of a result or a settlement; None when absent."""
    values = (values_by_key or {}).get(key)
    if not isinstance(values, list) or not 0 <= seat < len(values):
        return None
    return values[seat]


def settlement_rows(result: Mapping[str, Any] | None, settlement: Mapping[str, Any] | None,
                    players: Sequence, name) -> list[dict]:
    """The final settlement by seat, in finishing order: place, base, contributions,
    score (units), and the points and coins each seat received (None: not settled yet)."""
    if not result:
        return []
    finish = list(result.get("finish") or range(len(players)))
    winners = set(result.get("winners") or [])
    return [{
        "seat": seat, "place": place, "name": name(players[seat]),
        "winner": seat in winners, "escaped": result.get("escaped") == seat,
        "base": seat_value(result, "base", seat),
        "contribution": seat_value(result, "contributions", seat),
        "score": seat_value(result, "scores", seat),
        "points": seat_value(settlement, "points", seat),
        "coins": seat_value(settlement, "coins", seat),
    } for place, seat in enumerate(finish, start=1)]
