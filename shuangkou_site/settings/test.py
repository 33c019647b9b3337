"""Tests (`make test`): real PostgreSQL and Redis, as in production."""

import os

from shuangkou_site.environment import env

from .base import *  # noqa: F403
from .base import (
    DEFAULT_REDIS_URL,
    GAMES_SOCKET_RATE,
    pooled_postgres,
    redis_cache,
    redis_channel_layer,
)

DEBUG = False

# The connection pool, as in production (settings.base.pooled_postgres).
DATABASES = {
    "default": pooled_postgres(
        env.str("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/shuangkou"),
    )
}

REDIS_URL = env.str("REDIS_URL", DEFAULT_REDIS_URL)
# One prefix per test process (each xdist worker is one), so runs and workers sharing the
# Redis server never hear each other; servers a test starts are given the same prefixes
# through the environment (common.testing.server_helpers).
_RUN = f"{env.str('PYTEST_XDIST_WORKER', 'main')}-{os.getpid()}"
CHANNEL_LAYER_PREFIX = env.str("CHANNEL_LAYER_PREFIX", f"sk-test-{_RUN}")
CHANNEL_LAYERS = {"default": redis_channel_layer(REDIS_URL, CHANNEL_LAYER_PREFIX)}

CELERY_BROKER_URL = REDIS_URL
HEALTH_REDIS_URL = REDIS_URL
# The login limits count failures in this cache: one key prefix per process, as above.
CACHE_KEY_PREFIX = env.str("CACHE_KEY_PREFIX", f"sk-test-{_RUN}")
CACHES = {"default": {**redis_cache(REDIS_URL), "KEY_PREFIX": CACHE_KEY_PREFIX}}
CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True

# Hashing strength is irrelevant in tests and the default costs seconds per user.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Bots and 托管 seats move at once, and bots fill a table as soon as a person is ready.
GAMES_BOT_THINK_SECONDS = 0
GAMES_BOT_FILL_SECONDS = 0
GAMES_RATED_BOT_FILL_SECONDS = 0
# Strong bots (games.live.strong_bots) stop at a number of deals, never at the time
# budget: their moves then depend on the seed only, as a test recomputing them expects.
GAMES_STRONG_BOT_MAX_SAMPLES = 24
GAMES_STRONG_BOT_BUDGET_MS = 60_000
# No heartbeats unless a test asks for them: a message every few seconds would break
# the tests that wait for silence. games/live/tests/test_outage.py sets a short one.
GAMES_HEARTBEAT_SECONDS = env.float("GAMES_HEARTBEAT_SECONDS", 0.0)

# The production refill rate with a bucket no test's game empties: clients in tests act
# as fast as the bots answer, and a refused message would make them wait for the refill
# (wall-clock races). The tests about the limit set a small one themselves.
GAMES_SOCKET_RATE = {**GAMES_SOCKET_RATE, "burst": 1_000_000.0}
# A closed socket puts its seat in 托管 at once, as the tests of 托管 expect; the tests
# of the grace itself (games/live/tests/test_disconnect_grace.py) set one.
GAMES_DISCONNECT_GRACE_SECONDS = 0

# No starting grant unless a test asks for one (settings.LEDGER_STARTING_COINS = …): it is
# posted after a player's first settled game, and would otherwise add to the coins every
# settlement test expects. games/settlement/tests/test_starting_grant.py tests the grant itself.
LEDGER_STARTING_COINS = 0

# Settling a coin game would otherwise analyse it (seconds of engine time, run eagerly
# inside the settlement's on_commit) in every test that settles one; the analysis tests
# (analysis/tests) turn it on themselves. A few samples a move keep their games quick
# (about 2 s of engine time), and with budgets that never bind an analysis is the same
# on a busy machine as on a quiet one: the marks a test steps to are always there.
ANALYSIS_AUTO_COIN_GAMES = False
ANALYSIS_MOVE_SAMPLES = 12
ANALYSIS_MOVE_BUDGET_MS = 100_000
ANALYSIS_GAME_SECONDS = 10_000.0

# A tournament's next board at once (tournaments.settled): no test waits on the clock.
TOURNAMENTS_BOARD_PAUSE_SECONDS = 0
