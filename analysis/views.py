"""The replay page's analysis panel (htmx): ask for the analysis, watch it run, read
it. Thin: parse, authorise, call analysis.services / analysis.selectors, render.

Who sees what follows the replay (games.archive.views): a finished game's replay is
public, and so is its finished analysis (it shows a seat's alternatives, which its
hand revealed anyway once the game ended); a game at a private table without
spectators is its players' and staff's only (games.live.visibility.may_read_game: 403 for
anyone else). Only the game's players and staff may ask for one
(analysis.services.may_request)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from analysis.compute import OK
from analysis.models import GameAnalysis
from analysis.selectors import analysis_data, analysis_of, page_marks
from analysis.services import AnalysisRefused, analysis_request, is_lost, may_request
from games.live.visibility import may_read_game
from games.models import GameRecord

MAX_GAME_ID = 2**63 - 1
POLL_STATUSES = {GameAnalysis.Status.QUEUED, GameAnalysis.Status.RUNNING}


def refusal_text(code: str) -> str:
    return {
        "game_not_ended": _("牌局尚未结束，结束后才能分析。"),
        "not_allowed": _("只有这局的玩家和管理员可以申请分析。"),
        "no_human_seat": _("这局没有真人玩家，无需分析。"),
    }.get(code, code)


def player_namer(record: GameRecord):
    users = User.objects.in_bulk(record.players or [])

    def name(user_id) -> str:
        user = users.get(user_id)
        return str(user) if user else _("玩家 %(id)s") % {"id": user_id}
    return name


def panel_context(request: HttpRequest, record: GameRecord, name=None,
                  message: str = "") -> dict:
    """What templates/analysis/_panel.html needs, for the replay page and for the panel
    alone (htmx)."""
    analysis = analysis_of(record)
    data = analysis_data(analysis, record, name or player_namer(record)) \
        if analysis is not None and analysis.status == GameAnalysis.Status.DONE else None
    return {
        "record": record, "analysis": analysis, "analysis_data": data,
        "analysis_marks": page_marks(data) if data else None,
        "analysis_marked": [move for move in data["moves"] if move["mark"] != OK]
        if data else [],
        "analysis_can_request": may_request(record, request.user),
        "analysis_poll": analysis is not None and analysis.status in POLL_STATUSES,
        # Waiting so long that its task was lost: the players may send it again.
        "analysis_lost": analysis is not None and is_lost(analysis),
        "analysis_message": message,
    }


def _readable_game(request: HttpRequest, game_id: int) -> GameRecord:
    """The game, or 404; 403 when the visitor may not read it."""
    if game_id > MAX_GAME_ID:
        raise Http404
    record = get_object_or_404(GameRecord, pk=game_id)
    if not may_read_game(request.user, record):
        raise PermissionDenied
    return record


def _ended_game(request: HttpRequest, game_id: int) -> GameRecord:
    record = _readable_game(request, game_id)
    if record.status != GameRecord.Status.ENDED:
        raise Http404(_("牌局尚未结束，结束后才能分析。"))
    return record


@require_GET
def analysis_panel(request: HttpRequest, game_id: int) -> HttpResponse:
    """The panel alone: what the page polls while the analysis is queued or running."""
    record = _ended_game(request, game_id)
    return render(request, "analysis/_panel.html", panel_context(request, record))


@require_POST
def analysis_ask(request: HttpRequest, game_id: int) -> HttpResponse:
    """The 分析 button: queue the analysis (once; a second press shows the same one).
    htmx gets the panel back; a plain form post goes back to the replay."""
    record = _readable_game(request, game_id)
    message = ""
    try:
        analysis_request(record=record, user=request.user)
    except AnalysisRefused as refusal:
        message = refusal_text(refusal.code)
    if request.htmx:
        # htmx swaps only 2xx answers: a refusal is said in the panel itself.
        return render(request, "analysis/_panel.html",
                      panel_context(request, record, message=message))
    if message:
        messages.error(request, message)
    return redirect(reverse("game-replay", args=[record.pk]) + "#replay-analysis")
