"""Set-up shared by the live tables' tests."""

import pytest


@pytest.fixture(autouse=True)
def own_channel_layer(private_channel_layer):
    """Every live test talks on a channel-layer prefix of its own (games.testing.fixtures)."""
    yield
