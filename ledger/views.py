"""The player's own statements: /me/coins/ and /me/points/ (RULES §7–§8).

Thin: parse the filters, read the entries (ledger.selectors), describe each one,
render. Only the requesting player's legs are ever read, never the other side of a
transaction.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime

from django.apps import apps
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from .charts import PointsChart, points_chart
from .labels import KIND_LABELS
from .models import Currency, Hold, Kind, Leg
from .relief import relief_status
from .selectors import pending_holds, user_balances, user_entries

ENTRIES_PER_PAGE = 20
# The chart draws at most this many of the newest points entries: an inline SVG of
# tens of thousands of vertices is no use to anyone and slows the page.
CHART_MAX_POINTS = 500

# The kinds offered as filters on each page: points never move by grants, fees,
# freezes or releases (RULES §7). Any kind is still accepted in the query string.
PAGE_KINDS = {
    Currency.COIN: list(KIND_LABELS),
    Currency.POINT: [Kind.SETTLEMENT, Kind.ESCAPE_PENALTY, Kind.CORRECTION, Kind.ADJUSTMENT],
}

# Memos a person wrote (a grant's purpose, an operator's reason); the services' own
# memos for settlements, freezes and releases only repeat the kind; a reward says what for.
KINDS_WITH_MEMO = {Kind.GRANT, Kind.CORRECTION, Kind.ADJUSTMENT, Kind.REWARD}

GAME_KEY = re.compile(r"^game:(\d+)$")


@dataclass(frozen=True)
class EntryRow:
    """One line of a statement."""

    leg_id: int
    at: datetime
    kind: str
    kind_label: str
    amount: int
    balance_after: int | None
    game_id: int | None
    game_key: str
    game_url: str | None
    fee: int | None  # the 系统回收 the player paid, on coin settlements when the game is known
    frozen: bool  # a freeze whose hold is still pending: its game is running (金币冻结)
    memo: str
    reverses_id: int | None
    # A settlement that returned frozen coins is two lines (_split_release): which one.
    part: str = ""


@require_GET
@login_required
def my_coins(request: HttpRequest) -> HttpResponse:
    return _statement(request, Currency.COIN)


@require_GET
@login_required
def my_points(request: HttpRequest) -> HttpResponse:
    return _statement(request, Currency.POINT)


def _statement(request: HttpRequest, currency: Currency) -> HttpResponse:
    kind = request.GET.get("kind", "")
    bad_kind = bool(kind) and kind not in Kind.values
    if bad_kind:
        kind = ""  # shown with a note, never an error page
    entries = user_entries(request.user, currency=currency, kind=kind or None)
    page = Paginator(entries, ENTRIES_PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "currency": currency,
        "balance": user_balances(request.user).get(currency, 0),
        "page": page,
        "rows": _rows(page.object_list, currency, request.user.pk),
        "kind": kind,
        "bad_kind": bad_kind,
        "kind_options": [(value, KIND_LABELS[value]) for value in PAGE_KINDS[currency]],
    }
    if currency == Currency.COIN:
        # Coins frozen for a running game have left the balance for escrow (RULES §8):
        # shown as frozen, with their games, rather than as if they were gone.
        context["holds"] = [{"game_id": _game_id(hold.game_key), "amount": hold.amount}
                            for hold in pending_holds(request.user.pk)]
        context["frozen"] = sum(hold["amount"] for hold in context["holds"])
        context["relief"] = relief_status(request.user)
    else:
        context["chart"], context["chart_capped"] = _chart(request.user)
    return render(request, "ledger/statement.html", context)


def _rows(legs: Iterable[Leg], currency: str, user_id: int) -> list[EntryRow]:
    legs = list(legs)
    pending = {hold.freeze_id for hold in pending_holds(user_id)} \
        if currency == Currency.COIN else set()
    game_ids = {leg.pk: _game_id(leg.transaction.game_key) for leg in legs}
    fees = _fees_paid({game_id for game_id in game_ids.values() if game_id is not None},
                      user_id) if currency == Currency.COIN else {}
    released = _released_by_settlements(legs, user_id) if currency == Currency.COIN else {}
    rows = []
    for leg in legs:
        posted = leg.transaction
        game_id = game_ids[leg.pk]
        settles = posted.kind in (Kind.SETTLEMENT, Kind.ESCAPE_PENALTY)
        row = EntryRow(
            leg_id=leg.pk, at=posted.created_at, kind=posted.kind,
            kind_label=KIND_LABELS.get(posted.kind, posted.get_kind_display()),
            amount=leg.amount, balance_after=leg.balance_after,
            game_id=game_id, game_key=posted.game_key,
            game_url=reverse("game-replay", args=[game_id]) if game_id is not None else None,
            fee=fees.get(game_id) if settles else None,
            frozen=posted.kind == Kind.FREEZE and posted.pk in pending,
            memo=posted.memo if posted.kind in KINDS_WITH_MEMO else "",
            reverses_id=posted.reverses_id)
        unfrozen = released.get(posted.pk) if settles else None
        if unfrozen:
            rows.extend(_split_release(row, unfrozen))
        else:
            rows.append(row)
    return rows


def _released_by_settlements(legs: list[Leg], user_id: int) -> dict[int, int]:
    """The frozen coins each of these settlements gave back to the user, by transaction
    (one posting settles the game and returns the hold)."""
    ids = [leg.transaction_id for leg in legs
           if leg.transaction.kind in (Kind.SETTLEMENT, Kind.ESCAPE_PENALTY)]
    if not ids:
        return {}
    return dict(Hold.objects.filter(user_id=user_id, resolved_by_id__in=ids)
                .values_list("resolved_by_id", "amount"))


def _split_release(row: EntryRow, unfrozen: int) -> list[EntryRow]:
    """A settlement that returned frozen coins as two lines, newest first: the game's
    own result (what was won or lost, the fee within it), then the unfreezing of the
    stake. Netted into one line a lost game read as a gain."""
    result = replace(row, amount=row.amount - unfrozen, part="result")
    release = replace(row, kind=Kind.RELEASE, kind_label=KIND_LABELS[Kind.RELEASE],
                      amount=unfrozen, fee=None, part="release",
                      balance_after=None if row.balance_after is None
                      else row.balance_after - (row.amount - unfrozen))
    return [result, release]


def _game_id(game_key: str) -> int | None:
    """The game's id from a ledger game key (``game:12``, games.GameRecord.ledger_key)."""
    match = GAME_KEY.match(game_key or "")
    return int(match.group(1)) if match else None


def _fees_paid(game_ids: set[int], user_id: int) -> dict[int, int]:
    """The 系统回收 the user paid in each game of coin rooms that charge one (RULES §7:
    score × N − A; classic, §9: a percent of each winner's gain). The ledger stores only
    the total a settlement sent to 系统回收; the player's own figure is the one the
    settlement's report itemised (games.settlement.report), which is less than A where
    the frozen coins could not cover it. A game settled before reports had it shows
    the room's A."""
    if not game_ids:
        return {}
    try:
        games = apps.get_model("games", "GameRecord")
    except LookupError:
        return {}
    fees = {}
    for game_id, kind, room_fee, players, seats in games.objects.filter(pk__in=game_ids) \
            .values_list("pk", "room__kind", "room__fee", "players", "settlement__report__seats"):
        if kind != "coins":
            continue
        fee = room_fee
        if seats and user_id in players:
            fee = seats[players.index(user_id)].get("fee", room_fee)
        if fee:
            fees[game_id] = fee
    return fees


def _chart(user) -> tuple[PointsChart | None, bool]:
    """The chart of the player's newest points entries (all of them, whatever the
    table's filter), and whether older ones were left off."""
    legs = list(user_entries(user, currency=Currency.POINT)
                .exclude(balance_after__isnull=True)
                .values_list("transaction__created_at", "balance_after")[:CHART_MAX_POINTS + 1])
    capped = len(legs) > CHART_MAX_POINTS
    return points_chart(list(reversed(legs[:CHART_MAX_POINTS]))), capped
