"""Pages of the games app: the lobby and a minimal table page. Thin: parse,
authorise, call one service in games.tables, render or redirect. A refused action
(ActionError) comes back as a message on the page, never as a server error."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from . import tables
from .errors import ActionError
from .lobby import ROOMS_FRAGMENT_ID
from .models import Seat, Table
from .selectors import lobby_rooms, table_state


@require_GET
@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    my_seat = Seat.objects.filter(user=request.user).select_related("table__room").first()
    return render(request, "games/lobby.html", {
        "rooms": lobby_rooms(), "fragment_id": ROOMS_FRAGMENT_ID, "my_seat": my_seat})


@require_POST
@login_required
def room_quick_join(request: HttpRequest, room_id: int) -> HttpResponse:
    try:
        seat = tables.room_quick_join(user=request.user, room_id=room_id)
    except ActionError as error:
        messages.error(request, _("无法加入：%(reason)s") % {"reason": error})
        return _go(request, reverse("lobby"))
    except IntegrityError:
        # Two joins of one player raced to different tables: the other one won.
        messages.error(request, _("你刚刚已在另一张牌桌就座，请刷新大厅。"))
        return _go(request, reverse("lobby"))
    return _go(request, reverse("table", args=[seat.table_id]))


@require_GET
@login_required
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table.objects.select_related("room__rule_set"), pk=table_id)
    state = table_state(table)
    my_seat = next((seat for seat in state["seats"] if seat["user"] == request.user.pk), None)
    return render(request, "games/table.html", {"table": table, "state": state,
                                                "my_seat": my_seat})


@require_POST
@login_required
def table_ready(request: HttpRequest, table_id: int) -> HttpResponse:
    if _refuse_unless_seated(request, table_id):
        return redirect("table", table_id)
    ready = request.POST.get("ready", "1") != "0"
    try:
        tables.table_ready(user=request.user, ready=ready)
    except ActionError as error:
        messages.error(request, str(error))
    return redirect("table", table_id)


@require_POST
@login_required
def table_stand(request: HttpRequest, table_id: int) -> HttpResponse:
    if _refuse_unless_seated(request, table_id):
        return redirect("table", table_id)
    try:
        tables.table_stand(user=request.user)
    except ActionError as error:
        messages.error(request, str(error))
        return redirect("table", table_id)
    messages.success(request, _("你已离座。"))
    return redirect("lobby")


def _refuse_unless_seated(request: HttpRequest, table_id: int) -> bool:
    """The services act on the player's own seat: make sure it is at this table."""
    if Seat.objects.filter(user=request.user, table_id=table_id).exists():
        return False
    messages.error(request, _("你没有在这张牌桌就座。"))
    return True


def _go(request: HttpRequest, url: str) -> HttpResponse:
    """Redirect; a button posted by htmx (from a fragment the lobby socket sent)
    is told to load the page instead of swapping the response in."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)
