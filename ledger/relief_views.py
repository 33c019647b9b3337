"""The relief grant's claim button on /me/coins/ (救济金; ledger.relief). A plain POST
form redirects back to the statement with a message; with htmx a refusal is
re-rendered in place, and a claim reloads the page (balance, statement and message)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRefresh

from .relief import claim_relief, relief_status
from .services import LedgerError


@require_POST
@login_required
def claim(request: HttpRequest) -> HttpResponse:
    try:
        posted = claim_relief(user=request.user, claim=request.POST.get("claim"))
        text, level = _("已领取救济金，游戏币 +%(amount)d") % {
            "amount": posted.legs.filter(account__user=request.user).first().amount}, "success"
    except LedgerError as error:
        text, level = str(error), "error"
    if getattr(request, "htmx", False) and level == "success":
        # The balance and the statement above and below the section change too: the
        # page is loaded again, the message with it (not a banner beside stale figures).
        messages.success(request, text)
        return HttpResponseClientRefresh()
    if getattr(request, "htmx", False):
        return render(request, "ledger/_relief.html", {
            "relief": relief_status(request.user), "relief_message": text,
            "relief_message_tags": level})  # htmx swaps only 2xx answers
    getattr(messages, level)(request, text)
    return redirect("my-coins")
