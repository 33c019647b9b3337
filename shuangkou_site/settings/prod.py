"""Production: PostgreSQL and Redis from the environment, secrets required, DEBUG off."""

from django.core.exceptions import ImproperlyConfigured

from shuangkou_site.environment import env, env_list
from shuangkou_site.error_reporting import init_error_reporting

from .base import *  # noqa: F403
from .base import (
    MIDDLEWARE,
    pooled_postgres,
    redis_cache,
    redis_channel_layer,
)


def required_env(name: str) -> str:
    value = env.str(name, "")
    if not value:
        raise ImproperlyConfigured(f"Set the {name} environment variable.")
    return value


DEBUG = False
if env.str("GAMES_DEAL_SEED", ""):
    raise ImproperlyConfigured("GAMES_DEAL_SEED makes deals predictable: unset it in production.")
SECRET_KEY = required_env("DJANGO_SECRET_KEY")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [])
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("Set ALLOWED_HOSTS (comma-separated host names).")

# A connection pool per process, sized by DB_POOL_MIN_SIZE / DB_POOL_MAX_SIZE /
# DB_POOL_TIMEOUT (settings.base.pooled_postgres). DB_CONN_MAX_AGE is gone: persistent
# connections under ASGI grew with the requests served.
if env.str("DB_CONN_MAX_AGE", ""):
    raise ImproperlyConfigured(
        "DB_CONN_MAX_AGE is replaced by the connection pool (DB_POOL_MAX_SIZE): unset it.")
DATABASES = {"default": pooled_postgres(required_env("DATABASE_URL"))}

REDIS_URL = required_env("REDIS_URL")
CHANNEL_LAYER_PREFIX = env.str("CHANNEL_LAYER_PREFIX", f"sk-{DATABASES['default']['NAME']}")
# The channel layer may be sharded over several Redis servers (CHANNEL_LAYER_REDIS_URLS,
# comma-separated, the same list in the same order on every process), and the Celery
# broker may have a Redis of its own (CELERY_BROKER_URL): docs/operations.md, "Beyond
# one machine". Unset, both use REDIS_URL.
CHANNEL_LAYER_REDIS_URLS = env_list("CHANNEL_LAYER_REDIS_URLS", [REDIS_URL])
CHANNEL_LAYERS = {"default": redis_channel_layer(CHANNEL_LAYER_REDIS_URLS, CHANNEL_LAYER_PREFIX)}
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", "") or REDIS_URL
HEALTH_REDIS_URL = REDIS_URL
CACHES = {"default": redis_cache(REDIS_URL)}

# TLS ends at the load balancer, which sets X-Forwarded-Proto.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", True)
# Load balancers probe health over plain HTTP inside the private network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", 0)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# Static files: WhiteNoise serves collectstatic's output (`python manage.py collectstatic
# --noinput`, into STATIC_ROOT) with hashed names and gzip/brotli copies, right after the
# security middleware (its documented place). The storage also rewrites the table page's
# module imports to the hashed names (shuangkou_site/storage.py).
MIDDLEWARE = [MIDDLEWARE[0], "whitenoise.middleware.WhiteNoiseMiddleware", *MIDDLEWARE[1:]]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "shuangkou_site.storage.StaticFilesStorage"},
}

# Error reporting (Sentry) only when SENTRY_DSN is set: web processes and Celery workers
# both load these settings.
ERROR_REPORTING = init_error_reporting()

# --- Metrics (shuangkou_site/metrics; docs/operations.md, "Metrics") ---------------------
# Prometheus scrapes over plain HTTP inside the private network, as the load balancer
# probes /healthz. A token anyone could guess is no protection, and without the shared
# folder a scrape would show one process of several.
SECURE_REDIRECT_EXEMPT = [*SECURE_REDIRECT_EXEMPT, r"^metrics$"]
if METRICS_TOKEN and len(METRICS_TOKEN) < 32:  # noqa: F405
    raise ImproperlyConfigured("METRICS_TOKEN must be at least 32 characters long.")
if METRICS_TOKEN and not env.str("PROMETHEUS_MULTIPROC_DIR", ""):  # noqa: F405
    raise ImproperlyConfigured(
        "Set PROMETHEUS_MULTIPROC_DIR (a folder the host's web processes and Celery workers "
        "share, emptied before they start) when METRICS_TOKEN is set.")

# --- Structured logs (shuangkou_site/json_logs.py; docs/operations.md, "Logs") -----------
# One JSON object a line: time, level, logger, message and the record's extra fields (the
# games.timing lines' what/game/seq/ms). uvicorn's own loggers and Python's warnings write
# through it too; Celery processes log through LOGGING as well (shuangkou_site.
# celery_logging). Dev and tests keep base's readable lines.
LOGGING_CONFIG = "shuangkou_site.json_logs.configure"
LOGGING = {
    **LOGGING,  # noqa: F405
    "formatters": {"json": {"()": "shuangkou_site.json_logs.SiteJsonFormatter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "json"}},
    "loggers": {
        **LOGGING["loggers"],  # noqa: F405
        "uvicorn": {"handlers": ["console"], "propagate": False},
        "uvicorn.access": {"handlers": ["console"], "propagate": False},
    },
}
