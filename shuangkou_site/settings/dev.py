"""Local development (`make run`): PostgreSQL from a pip-installed server whose data
lives in the checkout (shuangkou_site.dev_database), in-memory channel layer, tasks run
in-process. No Redis, no system database."""

from shuangkou_site import dev_database
from shuangkou_site.environment import env

from .base import *  # noqa: F403
from .base import pooled_postgres

DEBUG = env.bool("DJANGO_DEBUG", True)

# The embedded server, started here if it is not running yet; through Django's
# connection pool as in test and prod (settings.base.pooled_postgres), so that what
# `make run` serves is what the tests exercise.
DATABASES = {"default": pooled_postgres(dev_database.dev_server.database_url())}

# One process serves everything locally, so an in-memory layer is enough.
CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True

# No Celery beat under `make run`: the web process sweeps deadlines and tables itself.
GAMES_INPROCESS_SWEEPER = env.bool("GAMES_INPROCESS_SWEEPER", True)

# Tasks run in-process here: an automatic analysis would hold the table's settlement
# for up to a minute. The replay page's 分析 button still works.
ANALYSIS_AUTO_COIN_GAMES = env.bool("ANALYSIS_AUTO_COIN_GAMES", False)
