"""Local development (`make run`): SQLite, in-memory channel layer, tasks run in-process."""

from .base import *  # noqa: F403
from .base import BASE_DIR, env_bool

DEBUG = env_bool("DJANGO_DEBUG", True)

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": BASE_DIR / "db.sqlite3",
    }
}

# One process serves everything locally, so an in-memory layer is enough.
CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True

# No Celery beat under `make run`: the web process sweeps deadlines and tables itself.
GAMES_INPROCESS_SWEEPER = env_bool("GAMES_INPROCESS_SWEEPER", True)

# Tasks run in-process here: an automatic analysis would hold the table's settlement
# for up to a minute. The replay page's 分析 button still works.
ANALYSIS_AUTO_COIN_GAMES = env_bool("ANALYSIS_AUTO_COIN_GAMES", False)
