"""Fixtures of the archive's tests: the history's reader and other players."""

from games.testing.history_helpers import me, others  # noqa: F401 (fixtures)
