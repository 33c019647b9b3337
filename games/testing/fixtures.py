"""Fixtures every test package may ask for by name (a pytest plugin: the root
conftest.py loads it). Nothing here imports models at import time: the plugin is
loaded before Django is set up.

- ``private_channel_layer``: a channel-layer prefix of the test's own (the live tests'
  conftest makes it automatic for them);
- ``escape_of``: a game with bots started and escaped, its settlement run;
- ``browser_site``: the site served as the browser tests need it, and Debian's Chromium
  with pages on it (:class:`BrowserSite`).
"""

from __future__ import annotations

import copy
import os
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

DESKTOP = {"width": 1280, "height": 900}
BROWSER_TIMEOUT_MS = 60_000


@pytest.fixture
def private_channel_layer(settings):
    """A channel-layer prefix of this test's own: Redis pub/sub channels are global to
    the server, and table ids restart at 1 in every test database, so two test runs
    sharing a Redis (CI shards, two engineers) would otherwise hear each other."""
    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    layers["default"].setdefault("CONFIG", {})["prefix"] = \
        f"test-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    settings.CHANNEL_LAYERS = layers  # channels resets its layers on setting_changed
    yield


@pytest.fixture
def escape_of(django_capture_on_commit_callbacks):
    """``escape_of(user, room)``: sit, start a game with bots and leave it (an escape,
    RULES §10) through the services, running what follows the commit (the settlement
    task: eager in tests); the game, settled."""
    from games.live.lifecycle.act import game_act
    from games.testing.room_helpers import start_game_with_bots

    def escape(user, room):
        record = start_game_with_bots(user, room)
        with django_capture_on_commit_callbacks(execute=True):
            game_act(user_id=user.pk, game_id=record.pk, action="leave")
        record.refresh_from_db()
        assert record.settled_at is not None
        return record
    return escape


class BrowserSite:
    """The site and a headless Chromium for one browser test. The test writes its rows
    first, then :meth:`serve` starts the site's server (or :meth:`attach` takes one
    the test started itself) and the browser; :meth:`new_page` opens a page of its own
    (its own cookies: one signed-in person each). Everything closes after the test,
    the browser before the server."""

    def __init__(self, stack: ExitStack, artifacts: Path) -> None:
        self._stack = stack
        self.artifacts = artifacts
        self.base = ""
        self.port: int | None = None  # the server serve() started
        self.browser = None
        self.timeout_ms = BROWSER_TIMEOUT_MS

    def serve(self, *, env: dict[str, str] | None = None,
              timeout_ms: int = BROWSER_TIMEOUT_MS) -> BrowserSite:
        """Serve the site with its static files (``env`` as for served()) and open the
        browser on it."""
        from common.testing.server_helpers import SITE_APP_WITH_STATIC, served

        (self.port,) = self._stack.enter_context(served(1, SITE_APP_WITH_STATIC, env=env))
        return self.attach(f"http://127.0.0.1:{self.port}", timeout_ms=timeout_ms)

    def attach(self, base: str, *, timeout_ms: int = BROWSER_TIMEOUT_MS) -> BrowserSite:
        """Open the browser on a site already serving at ``base``."""
        from playwright.sync_api import expect

        from games.testing.browser_checks import chromium_browser

        assert self.browser is None, "one site per test"
        self.base, self.timeout_ms = base, timeout_ms
        self.browser = self._stack.enter_context(chromium_browser())
        expect.set_options(timeout=timeout_ms)
        return self

    def new_page(self, viewport: dict | None = None, **context_options):
        """A page in a browser context of its own, in the pages' language (zh-CN,
        whatever a language switch may choose), with the test's timeout."""
        assert self.browser is not None, "serve() or attach() first"
        context = self.browser.new_context(viewport=viewport or DESKTOP,
                                           **{"locale": "zh-CN", **context_options})
        page = context.new_page()
        page.set_default_timeout(self.timeout_ms)
        return page


@pytest.fixture
def browser_site(artifacts) -> Iterator[BrowserSite]:
    """The one browser fixture: every browser test opens its site and pages here."""
    with ExitStack() as stack:
        yield BrowserSite(stack, artifacts)
