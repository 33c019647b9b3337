"""Replays and the game history: pages of finished games. Thin: parse, authorise,
call games.archive.frames / games.archive.history, render.

Who may see what (GUIDE: hidden information is filtered on the server): a finished
game's replay and its event log are public, like ``GET /api/games/<id>/events``, so a
replay link can be shared with anyone. A running game has no replay: its log holds
every hand, so the page refuses (403) before reading a single event. A game at a
private table without spectators is its players' (games.live.visibility.may_read_game): the
replay sends an anonymous visitor to the login page and refuses anyone else (403).
"""

from __future__ import annotations

import re

from django import forms
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from accounts.models import User
from games.archive.frames import build_frames, settlement_rows
from games.archive.history import history_rows, player_games
from games.archive.panels import history_columns, replay_panels_context
from games.live.visibility import may_read_game
from games.models import GameEvent, GameRecord, Room
from games.rule_set_names import rule_set_name
from games.vocabulary import KOU_LABELS, kou_label
from games.web.api import private_game_refusal

HISTORY_PAGE_SIZE = 20
# Ids past a bigint are no game (and must not reach the database as a lookup).
MAX_GAME_ID = 2**63 - 1
LEGACY_KEY = re.compile(r"(?:game:)?(\d{1,18})")


def _finished_game_or_refusal(request: HttpRequest, game_id: int):
    """The game if the visitor may read it and it has ended; otherwise the answer to
    return (the login page, or a 403 page)."""
    if game_id > MAX_GAME_ID:
        raise Http404
    record = get_object_or_404(GameRecord.objects.select_related("room__rule_set"), pk=game_id)
    if not may_read_game(request.user, record):
        if not request.user.is_authenticated:
            return None, redirect_to_login(request.get_full_path())
        return None, render(request, "games/replay.html",
                            {"record": record, "closed": True}, status=403)
    if record.status != GameRecord.Status.ENDED:
        return None, render(request, "games/replay.html",
                            {"record": record, "running": True}, status=403)
    return record, None


def _log(record: GameRecord) -> list[dict]:
    return list(GameEvent.objects.filter(game=record).order_by("seq")
                .values_list("data", flat=True))


def _namer(user_ids: set[int]):
    users = User.objects.in_bulk(user_ids)

    def name(user_id) -> str:
        user = users.get(user_id)
        return str(user) if user else _("玩家 %(id)s") % {"id": user_id}
    return name


def _int_param(request: HttpRequest, key: str) -> int | None:
    """A query parameter as an int; None when absent or not a number."""
    try:
        return int(request.GET.get(key, ""))
    except ValueError:
        return None


@require_GET
def game_replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """A finished game, step by step: ``?step=N`` (1 … number of events) opens at the
    state after event N, ``?seat=S`` shows only that seat's hand."""
    record, refusal = _finished_game_or_refusal(request, game_id)
    if refusal:
        return refusal
    events = _log(record)
    deal_players = events[0].get("players", []) if events else []
    people = set(record.players) | set(deal_players)
    name = _namer(people)
    seats = len(record.players)
    bot_seats = {index for index in record.bot_seats or [] if 0 <= index < seats}
    bot_ids = [record.players[index] for index in sorted(bot_seats)]
    replay = build_frames(events, name, frozenset(bot_ids))
    frames = replay["frames"]
    # A shared link opens where it was taken; a step past either end opens at that end,
    # a seat that is not one of this game's shows every hand.
    step = min(max(_int_param(request, "step") or 1, 1), max(len(frames), 1))
    seat = _int_param(request, "seat")
    if seat is not None and not 0 <= seat < seats:
        seat = None
    result = record.result or {}
    data = {
        "game": record.pk,
        "seats": seats,
        "players": record.players,  # by seat, after any 明牌 swap: the perspective's seats
        "people": {str(user_id): name(user_id) for user_id in people},
        "bots": bot_ids,
        "step": step,
        "seat": seat,
        "url": reverse("game-replay", args=[record.pk]),
        **replay,
    }
    context = {
        "record": record,
        "room": record.room,
        "rule_set_label": _rule_set_label(record),
        "data": data,
        "frame": frames[step - 1] if frames else None,
        "step": step,
        "seat": seat,
        "seat_choices": [{"seat": index, "name": name(user_id), "bot": index in bot_seats}
                         for index, user_id in enumerate(record.players)],
        "result": result,
        "kou": kou_label(result.get("kou")),
        "settlement_rows": settlement_rows(result, record.settlement, record.players, name),
        "settled": record.settlement is not None,
        "strings": _replay_strings(),
        # The panels other apps add (analysis: its button, its progress or its marks).
        **replay_panels_context(request, record, name),
    }
    return render(request, "games/replay.html", context)


def _rule_set_label(record: GameRecord) -> str:
    config = record.room.rule_set
    label = config.label if config.name == record.rule_set_name else ""
    return rule_set_name(record.rule_set_name, label)


def _replay_strings() -> dict[str, str]:
    """Every text the page's script shows, translated here (the script has none)."""
    return {
        "play": _("播放"), "pause": _("暂停"),
        "step": _("第 {step} / {total} 步"),
        "cards": _("{count} 张"),
        "turn": _("轮到出牌"), "leader": _("本轮领出"), "out": _("第 {place} 名"),
        "trustee": _("托管"), "escaped": _("逃跑"), "bot": _("机器人"),
        "empty_hand": _("已出完"), "hidden": _("背面朝上"),
        "copied": _("链接已复制"), "copy_failed": _("复制失败，请手动复制地址栏中的链接"),
        "suggestion": _("建议：{best}（失分 {loss}）"),
    }


@require_GET
def game_events_download(request: HttpRequest, game_id: int) -> HttpResponse:
    """The whole event log of a finished game as a JSON file (hands and seed
    included: enough to replay it with ``Game.replay``). Refused while it runs."""
    if game_id > MAX_GAME_ID:
        raise Http404
    record = get_object_or_404(GameRecord.objects.select_related("room"), pk=game_id)
    if not may_read_game(request.user, record):
        return JsonResponse({"detail": private_game_refusal(record)}, status=403)
    if record.status != GameRecord.Status.ENDED:
        return JsonResponse({"detail": _(
            "牌局 %(game)d 仍在进行中：事件记录含有各家手牌，对局结束后才公开。")
            % {"game": record.pk}}, status=403)
    response = JsonResponse({
        "game": record.pk, "room": record.room.name, "rules": record.rule_set_name,
        "players": record.players, "status": record.status,
        "ended_at": record.ended_at.isoformat() if record.ended_at else None,
        "result": record.result, "settlement": record.settlement,
        "events": _log(record),
    }, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = content_disposition_header(
        True, f"game-{record.pk}-events.json")
    return response


@require_GET
def game_replay_by_key(request: HttpRequest, game_key: str) -> HttpResponse:
    """Old links by ledger key (``/games/game:12/replay/``) go to the replay by id."""
    match = LEGACY_KEY.fullmatch(game_key)
    if not match:
        raise Http404(_("没有这局牌。"))
    url = reverse("game-replay", args=[int(match[1])])
    if request.GET:
        url += "?" + request.GET.urlencode()
    return redirect(url, permanent=True)


class HistoryFilter(forms.Form):
    kind = forms.ChoiceField(label=gettext_lazy("房间"), required=False, choices=[
        ("", gettext_lazy("全部")), *Room.Kind.choices])
    outcome = forms.ChoiceField(label=gettext_lazy("输赢"), required=False, choices=[
        ("", gettext_lazy("全部")), ("won", gettext_lazy("赢")), ("lost", gettext_lazy("输")),
        ("draw", gettext_lazy("平"))])
    kou = forms.ChoiceField(label=gettext_lazy("结果"), required=False, choices=[
        ("", gettext_lazy("全部")),
        *((kou, gettext_lazy(text)) for kou, text in KOU_LABELS.items())])


@require_GET
@login_required
def game_history(request: HttpRequest) -> HttpResponse:
    """My finished games, 20 a page, newest first. A filter value that is not one of
    the choices is ignored, and the page says so."""
    form = HistoryFilter(request.GET)
    form.is_valid()
    filters = {key: value for key, value in form.cleaned_data.items() if value}
    ignored = [str(form.fields[key].label) for key in form.errors]
    games = player_games(request.user.pk, **filters)
    page = Paginator(games, HISTORY_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "games/history.html", {
        "form": form, "filters": filters, "ignored": ignored, "page": page,
        "rows": history_rows(list(page.object_list)), "query": urlencode(filters),
        "history_columns": list(history_columns),
    })
