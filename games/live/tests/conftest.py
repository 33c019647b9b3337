"""Set-up shared by the live tables' tests."""

import pytest


@pytest.fixture(autouse=True)
def own_channel_layer(private_channel_layer):
    """Every live test talks on a channel-layer prefix of its own (games.testing.fixtures)."""
    yield


@pytest.fixture
def bots_wait(settings):
    """Bots and 托管 move on their deadlines, not within the action, so a test can stop
    between any two steps."""
    settings.GAMES_BOT_THINK_SECONDS = 5
