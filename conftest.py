"""Set-up shared by every app's tests."""

import asyncio
import copy
import gc
import os
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.utils import translation
from hypothesis import settings as hypothesis_settings

# Fixtures any test may ask for by name (games.testing.fixtures): a channel-layer prefix
# of its own, a game escaped, the browser.
pytest_plugins = ["games.testing.fixtures"]

# Hypothesis profiles (docs/testing.md). ``ci`` runs every property test at its full
# count of examples (games.engine.tests.examples) and prints the blob that reproduces a
# failure; ``dev`` runs a quarter of them for the inner loop. HYPOTHESIS_PROFILE picks one;
# otherwise CI=true (what CI services set) means ``ci``, and ``make test`` asks for ``ci``.
hypothesis_settings.register_profile("ci", print_blob=True)
hypothesis_settings.register_profile("dev", print_blob=True)
hypothesis_settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))


def pytest_configure(config) -> None:
    """Compile the translation catalogs whose .po is newer than its .mo: ``make test``
    does it (``make messages``), and a bare ``pytest`` must not test stale texts."""
    if hasattr(config, "workerinput"):
        return  # an xdist worker: the controller compiled them before starting it
    for po in Path(__file__).parent.glob("locale/*/LC_MESSAGES/*.po"):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        try:
            subprocess.run(["msgfmt", "--check-format", "-o", str(mo), str(po)], check=True)
        except FileNotFoundError:
            raise pytest.UsageError("msgfmt is missing: run `make messages` "
                                    "(it installs gettext)") from None


def pytest_sessionfinish(session) -> None:
    """Take out the web process's long-collection log (shuangkou_site/asgi.py installs it
    when a live-server test imports the app): the collections at interpreter exit would
    otherwise log to a stream pytest has closed by then ("--- Logging error ---")."""
    from games.live.timing import GcPauseLog

    gc.callbacks[:] = [c for c in gc.callbacks if not isinstance(c, GcPauseLog)]


def pytest_report_header(config) -> str:
    return f"hypothesis profile: {hypothesis_settings.get_current_profile_name()}"


@pytest.hookimpl(tryfirst=True, optionalhook=True)  # known only with pytest-xdist
def pytest_xdist_make_scheduler(config, log):
    """``--dist load`` with short queues: games.testing.scheduling."""
    if config.getvalue("dist") != "load":
        return None
    from games.testing.scheduling import ShortQueueLoadScheduling

    return ShortQueueLoadScheduling(config, log)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tests first, so that ``make test``'s workers (pytest-xdist, ``--dist
    load``) start them early and finish on the many short ones, instead of one worker
    running a long test at the end while the others idle.

    pytest-django has ordered the tests as Django does: those in a rolled-back
    transaction before the transactional ones, whose flush empties every table (the
    data migrations put there too). That order is kept: only tests without a database
    move to the front, and slow ones move to the front of their own group. ``--dist
    load`` hands each worker tests in this order."""
    def key(item: pytest.Item) -> tuple[int, int]:
        slow = item.get_closest_marker("slow") is not None
        marker = item.get_closest_marker("django_db")
        fixtures = set(getattr(item, "fixturenames", ()))
        transactional = bool(marker and (marker.kwargs.get("transaction")
                                         or marker.kwargs.get("reset_sequences"))) \
            or bool(fixtures & {"transactional_db", "live_server"})
        uses_db = marker is not None or bool(fixtures & {"db", "transactional_db",
                                                         "live_server"})
        if not uses_db:
            return (0, 0) if slow else (3, 0)
        return (2 if transactional else 1, 0 if slow else 1)

    items.sort(key=key)


@pytest.fixture(autouse=True)
def deal_seed_of_the_test(request, settings):
    """Every live game a test plays is dealt from a seed derived from the test's node id
    (games.live.lifecycle.deal.deal_seed): the same cards on every run, in any order, on any
    xdist worker, and other cards in another test. Servers a test starts get the seed
    through the environment (common.testing.server_helpers)."""
    settings.GAMES_DEAL_SEED = request.node.nodeid


@pytest.fixture
def artifacts(request) -> Path:
    """This test's own folder under test-artifacts/e2e/ (the browser tests' screenshots),
    emptied first: under xdist each test (and worker) writes only its own."""
    folder = Path(__file__).resolve().parent / "test-artifacts" / "e2e" / request.node.name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


@pytest.fixture(autouse=True)
def default_language():
    """Every test starts in the site's default language (settings.LANGUAGE_CODE). A
    request through Django's test client leaves the language it served active in the
    test's thread, and a later test on the same xdist worker then read traditional
    Chinese where it expected the default."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture
def own_cache_namespace(settings):
    """The test cache is the shared Redis: give the test its own key prefix, so counts
    of a limit (failed logins, invite codes) kept by one test, or by an earlier run,
    never block another. Servers the test starts get the prefix too
    (common.testing.server_helpers)."""
    caches = copy.deepcopy(settings.CACHES)
    caches["default"]["KEY_PREFIX"] = f"test-{uuid.uuid4().hex}"
    settings.CACHES = caches


@pytest.fixture
def redis_down(settings):
    """The cache (and so every limit kept in it) points at a port that refuses
    connections: a real outage of Redis, for this test only."""
    from common.testing.server_helpers import refusing_port

    with refusing_port() as port:
        caches = copy.deepcopy(settings.CACHES)
        caches["default"]["LOCATION"] = f"redis://127.0.0.1:{port}/0"
        settings.CACHES = caches
        yield


@pytest.fixture(autouse=True)
def no_earlier_sweep_mark():
    """Every test starts with no deadline sweep on record (games.live.sweep_clock): the
    mark lives in the worker's Redis cache, and one an earlier test left there goes
    stale, so a server this test starts would answer /healthz 503 (no sweep for
    seconds) and never count as serving."""
    from django.core.cache import cache

    from games.live.sweep_clock import KEY

    cache.delete(KEY)
    yield


@pytest.fixture(autouse=True)
def no_connection_left_on_asgirefs_thread():
    """Database work that a test's own event loop (``asyncio.run``, a server on a
    thread) sends through ``sync_to_async`` runs on asgiref's one shared thread, which
    outlives the test. A connection some path leaves open there stayed checked out of
    the pool to the end of the run, and the test database then could not be dropped
    ("being accessed by other users"): give back whatever that thread holds."""
    yield
    asyncio.run(sync_to_async(connections.close_all)())
