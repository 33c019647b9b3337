"""The tournament pages (thin: read tournaments.pages, call the services, render)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from games.errors import ActionError
from tournaments import pages
from tournaments.models import Tournament
from tournaments.registration import register, withdraw


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/list.html",
                  {"current": "tournaments", **pages.tournament_lists()})


@require_GET
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return render(request, "tournaments/detail.html",
                  {"current": "tournaments", **pages.detail(tournament, request.user)})


@require_POST
@login_required
def tournament_register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        register(user=request.user, tournament_id=tournament_id)
    except ActionError as error:
        messages.error(request, str(error))
    return redirect("tournament", tournament_id)


@require_POST
@login_required
def tournament_withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        withdraw(user=request.user, tournament_id=tournament_id)
    except ActionError as error:
        messages.error(request, str(error))
    return redirect("tournament", tournament_id)


@require_GET
def board_page(request: HttpRequest, tournament_id: int, round_number: int,
               board: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    compared = pages.comparison(tournament, round_number, board, request.user)
    if compared is None:
        raise Http404("not finished at every table")
    return render(request, "tournaments/board.html",
                  {"current": "tournaments", "tournament": tournament, "compared": compared})
