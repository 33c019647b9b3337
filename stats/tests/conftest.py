"""Fixtures of the stats tests."""

import pytest

from games.testing.room_helpers import make_player


@pytest.fixture
def players():
    """Four players, p0 to p3."""
    return [make_player(f"p{index}") for index in range(4)]
