"""The daily page (签到 and tasks) and its two forms: thin, each calls one service. The
forms work without scripts and, posted by htmx, swap the section in place."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from ledger.services import LedgerError

from .services import check_in, claim_task, daily_status


@require_GET
@login_required
def daily_page(request: HttpRequest) -> HttpResponse:
    return render(request, "daily/daily.html", {"daily": daily_status(request.user)})


@require_POST
@login_required
def checkin(request: HttpRequest) -> HttpResponse:
    try:
        done = check_in(user=request.user)
        note, ok = _("签到成功：连续 %(streak)d 天，+%(coins)d 游戏币") % {
            "streak": done.streak, "coins": done.coins}, True
    except LedgerError as error:
        note, ok = str(error), False
    return _answer(request, note, ok)


@require_POST
@login_required
def claim(request: HttpRequest, task: str) -> HttpResponse:
    try:
        posted = claim_task(user=request.user, task=task)
        coins = posted.legs.get(account__user=request.user).amount
        note, ok = _("任务奖励 +%(coins)d 游戏币") % {"coins": coins}, True
    except LedgerError as error:
        note, ok = str(error), False
    return _answer(request, note, ok)


def _answer(request: HttpRequest, note: str, ok: bool) -> HttpResponse:
    if request.htmx:
        return render(request, "daily/_daily.html", {
            "daily": daily_status(request.user), "note": note, "ok": ok},
            status=200)  # htmx swaps only 2xx: the refusal is in the section
    (messages.success if ok else messages.error)(request, note)
    return redirect("daily")
