"""Optional error reporting: Sentry, only when SENTRY_DSN is set (settings/prod.py)."""

from __future__ import annotations

from shuangkou_site.environment import env


def init_error_reporting(dsn: str | None = None) -> bool:
    """Start sentry-sdk with ``dsn`` (default: SENTRY_DSN) and say whether it started.
    Without a DSN nothing is imported or started. Its Django, Celery and Redis
    integrations switch on by themselves; no personal data is sent (usernames, IP
    addresses, cookies), and traces only at SENTRY_TRACES_SAMPLE_RATE (default 0)."""
    dsn = dsn if dsn is not None else env.str("SENTRY_DSN", "")
    if not dsn.strip():
        return False
    import sentry_sdk

    sentry_sdk.init(
        dsn=dsn.strip(),
        environment=env.str("SENTRY_ENVIRONMENT", "production"),
        release=env.str("SENTRY_RELEASE", "") or None,
        send_default_pii=False,
        traces_sample_rate=env.float("SENTRY_TRACES_SAMPLE_RATE", 0.0),
    )
    return True
