import pytest


@pytest.fixture(autouse=True)
def _own_cache_namespace(own_cache_namespace):
    """Failed logins counted by one test never block another (conftest.py)."""


@pytest.fixture
def login_limits(settings):
    """Set the failed-login limits: login_limits(username=3, ip=100, window=600)."""

    def apply(*, username: int = 5, ip: int = 20, window: int = 600) -> None:
        settings.ACCOUNTS_LOGIN_LIMITS = {
            "username": {"failures": username, "window_seconds": window},
            "ip": {"failures": ip, "window_seconds": window},
        }

    return apply
