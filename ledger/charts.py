"""Geometry of the points chart: a player's balance after each points entry, drawn
as a server-rendered inline SVG polyline (no JavaScript chart library).

Pure arithmetic, no Django: the template (templates/ledger/_points_chart.html)
draws the shapes and carries every visible, translated string.

Entries are spaced evenly along the x axis in the order they were posted, rather
than in proportion to their timestamps: a player's games come in bursts (an evening
of twenty games, then nothing for a week), and a time-proportional axis would stack
each burst into a vertical smear. The axis labels give the first and last dates.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

WIDTH = 640
HEIGHT = 240
# Room for the y-axis labels on the left and the date labels below.
PAD_LEFT = 64
PAD_RIGHT = 16
PAD_TOP = 16
PAD_BOTTOM = 32
Y_TICKS = 4  # about this many intervals on the y axis


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    at: datetime
    value: int


@dataclass(frozen=True)
class Tick:
    y: float
    value: int


@dataclass(frozen=True)
class PointsChart:
    points: list[ChartPoint]
    ticks: list[Tick]
    low: int  # the y axis runs from low (bottom) to high (top)
    high: int
    width: int = WIDTH
    height: int = HEIGHT
    left: int = PAD_LEFT
    right: int = WIDTH - PAD_RIGHT
    top: int = PAD_TOP
    bottom: int = HEIGHT - PAD_BOTTOM

    @property
    def polyline(self) -> str:
        """The ``points`` attribute of the SVG polyline: "x,y x,y …"."""
        return " ".join(f"{_fmt(point.x)},{_fmt(point.y)}" for point in self.points)

    @property
    def first(self) -> ChartPoint:
        return self.points[0]

    @property
    def last(self) -> ChartPoint:
        return self.points[-1]

    @property
    def minimum(self) -> int:
        return min(point.value for point in self.points)

    @property
    def maximum(self) -> int:
        return max(point.value for point in self.points)

    @property
    def zero_y(self) -> float | None:
        """Where the zero line goes, when zero is inside the axis (points may be negative)."""
        return self.y_for(0) if self.low < 0 < self.high else None

    def y_for(self, value: int) -> float:
        return round(self.bottom - (value - self.low) * (self.bottom - self.top)
                     / (self.high - self.low), 2)


def points_chart(series: Sequence[tuple[datetime, int]]) -> PointsChart | None:
    """The chart of these (time, balance after) pairs, oldest first; None when empty."""
    if not series:
        return None
    values = [value for _, value in series]
    low, high, step = _axis(min(values), max(values))
    chart = PointsChart(points=[], ticks=[], low=low, high=high)
    span = chart.right - chart.left
    count = len(series)
    points = []
    for index, (at, value) in enumerate(series):
        x = chart.left + (span * index / (count - 1) if count > 1 else span / 2)
        points.append(ChartPoint(x=round(x, 2), y=chart.y_for(value), at=at, value=value))
    ticks = [Tick(y=chart.y_for(value), value=value) for value in range(low, high + 1, step)]
    return PointsChart(points=points, ticks=ticks, low=low, high=high)


def _axis(low: int, high: int) -> tuple[int, int, int]:
    """A y axis covering [low, high] in round steps (1, 2 or 5 × 10^k): (from, to, step)."""
    if low == high:  # a flat line: give it some room above and below
        low, high = low - 1, high + 1
    raw = (high - low) / Y_TICKS
    magnitude = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    step = next(multiple * magnitude for multiple in (1, 2, 5, 10)
                if multiple * magnitude >= raw)
    step = max(1, int(step))
    return math.floor(low / step) * step, math.ceil(high / step) * step, step


def _fmt(number: float) -> str:
    return f"{number:.2f}".rstrip("0").rstrip(".")
