import copy
import uuid

import pytest


@pytest.fixture(autouse=True)
def own_cache_namespace(settings):
    """The test cache is the shared Redis: give each test its own key prefix so failed
    logins counted by one test (or an earlier run) never block another."""
    caches = copy.deepcopy(settings.CACHES)
    caches["default"]["KEY_PREFIX"] = f"test-{uuid.uuid4().hex}"
    settings.CACHES = caches


@pytest.fixture
def login_limits(settings):
    """Set the failed-login limits: login_limits(username=3, ip=100, window=600)."""

    def apply(*, username: int = 5, ip: int = 20, window: int = 600) -> None:
        settings.ACCOUNTS_LOGIN_LIMITS = {
            "username": {"failures": username, "window_seconds": window},
            "ip": {"failures": ip, "window_seconds": window},
        }

    return apply
