"""What apps above games add to the replay page and to the history (analysis: its panel
and its column), registered in their AppConfig.ready(): games shows them without
importing their app (README, "Layout")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest

from games.hooks.registry import Registry
from games.models import GameRecord


@dataclass(frozen=True)
class ReplayPanel:
    """A section of the replay page: ``template`` is included with the page's context
    plus what ``context(request, record, name)`` returns (``name``: user id → shown
    name). The keys it returns are the panel's own (prefix them)."""

    template: str
    context: Callable[[HttpRequest, GameRecord, Callable[[int], str]], dict[str, Any]]


@dataclass(frozen=True)
class HistoryColumn:
    """A column of the history's table: ``title`` heads it; ``template`` renders one
    cell (its ``<td>``) from ``cell``; ``cells(games)`` reads one page's games at once
    (each annotated with ``my_seat``: the viewer's seat) and returns game id → cell."""

    title: Any
    template: str
    cells: Callable[[list[GameRecord]], dict[int, dict[str, Any]]]


replay_panels: Registry[ReplayPanel] = Registry()
history_columns: Registry[HistoryColumn] = Registry()


def replay_panels_context(request: HttpRequest, record: GameRecord,
                          name: Callable[[int], str]) -> dict[str, Any]:
    """Every registered panel's context, and their templates in order."""
    panels = list(replay_panels)
    context: dict[str, Any] = {"replay_panel_templates": [panel.template for panel in panels]}
    for panel in panels:
        context.update(panel.context(request, record, name))
    return context


@dataclass(frozen=True)
class HistoryCell:
    template: str
    cell: dict[str, Any]


def history_cells(games: list[GameRecord]) -> dict[int, list[HistoryCell]]:
    """Game id → its cells of the registered columns, in order (one read per column)."""
    by_column = [(column.template, column.cells(games)) for column in history_columns]
    return {game.pk: [HistoryCell(template, cells.get(game.pk, {}))
                      for template, cells in by_column] for game in games}
