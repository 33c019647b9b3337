"""One line of text for each step of a game's log, as the replay shows it (RULES §2, §3,
§6, §10), in the reader's language."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from games.engine.game import Game
from games.vocabulary import card_text, kou_label, reading_text


def by_label(by: str | None) -> str:
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
        label = by_label(by)
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
