"""Fixtures of the analysis tests: the history's reader and other players (its 分析
column)."""

from games.testing.history_helpers import me, others  # noqa: F401 (fixtures)
