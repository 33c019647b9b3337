"""Settings shared by every environment. Values come from environment variables."""

from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from shuangkou_site.environment import env, env_list

BASE_DIR = Path(__file__).resolve().parent.parent.parent

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


def pooled_postgres(database_url: str) -> dict:
    """The PostgreSQL database of test and prod, through Django's connection pool.

    Under ASGI every HTTP request's sync view runs on a thread of its own, and a
    persistent connection (CONN_MAX_AGE > 0 or None) stays with its thread: one web
    process held a connection per request it had served (91 of them, and PostgreSQL
    refused everyone). With the pool a request borrows a connection and gives
    it back when it ends (Django closes it: CONN_MAX_AGE must be 0), so one process never
    holds more than ``DB_POOL_MAX_SIZE``; a request that finds them all busy waits up to
    ``DB_POOL_TIMEOUT`` seconds, then fails rather than opening more. The pool keeps its
    connections open, so borrowing one costs no reconnect (what persistent connections
    were for). The pool checks a connection before lending it, so a connection that
    broke is replaced, not handed out: the backend (shuangkou_site.postgres) gives it
    shuangkou_site.pool_check's check, which sends a query only when the server has
    said something on the idle connection (Django's CONN_HEALTH_CHECKS would send one
    at every borrow).

    ``application_name`` names the site's connections in pg_stat_activity.
    """
    database = dj_database_url.parse(database_url, conn_max_age=0, conn_health_checks=False,
                                     engine="shuangkou_site.postgres")
    database["OPTIONS"] = {
        **database.get("OPTIONS", {}),
        "application_name": env.str("DB_APPLICATION_NAME", "shuangkou"),
        "pool": {
            "min_size": env.int("DB_POOL_MIN_SIZE", 2),
            "max_size": env.int("DB_POOL_MAX_SIZE", 10),
            "timeout": env.float("DB_POOL_TIMEOUT", 10.0),
        },
    }
    return database


def redis_channel_layer(redis_url: str | list[str], prefix: str) -> dict:
    """The channels-redis layer used by test and prod, over one Redis server or
    several (a list of URLs: channels-redis shards the groups and channels over them
    by a hash of their names, so each table's group lives on one server and every
    process must list the same servers in the same order; docs/operations.md,
    "Beyond one machine").

    Redis pub/sub rather than the list-based layer: together with no per-handler thread
    hop (games.live.dispatch), about a third of the CPU per table action in a bare relay with
    no game (GUIDE, measured on this machine); and nothing queues up to be dropped or
    expire. Either way the layer carries notifications only: clients resync from the
    database when they see a gap in ``seq``.
    """
    return {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {
            "hosts": [{"address": url, "socket_connect_timeout": 5, "socket_keepalive": True}
                      for url in ([redis_url] if isinstance(redis_url, str) else redis_url)],
            # Pub/sub channels ignore Redis database numbers: the prefix keeps sites (and
            # test runs) that share a Redis server from hearing each other's tables.
            "prefix": prefix,
        },
    }


def redis_cache(redis_url: str) -> dict:
    """Django's Redis cache used by test and prod (login limits), with explicit limits."""
    return {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": redis_url,
        "KEY_PREFIX": "shuangkou",
        "OPTIONS": {"socket_timeout": 5, "socket_connect_timeout": 5, "max_connections": 200},
    }


SECRET_KEY = env.str("DJANGO_SECRET_KEY", "insecure-local-development-key")
DEBUG = env.bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "channels",
    "django_htmx",
    "accounts",
    "ledger",
    "games",
    "fair_play",
    "stats",
    "analysis",
    "friends",
    "daily",
    "ratings",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # First thing after security: NUL in a URL would reach PostgreSQL (a 500) otherwise.
    "shuangkou_site.bad_input.RefuseNulMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions, before CommonMiddleware (Django's documented order): picks the
    # language from the django_language cookie (the header's switch), then Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, so a view's LoginUnavailable (failed-login limits unreachable) becomes a 503.
    "accounts.middleware.LoginUnavailableMiddleware",
]

ROOT_URLCONF = "shuangkou_site.urls"
WSGI_APPLICATION = "shuangkou_site.wsgi.application"
ASGI_APPLICATION = "shuangkou_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # {% load site_i18n %}: translated level titles and ledger labels (docs/i18n.md).
            "libraries": {"site_i18n": "shuangkou_site.site_i18n"},
        },
    },
]

AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "zh-hans"
# The source strings are Simplified Chinese; locale/ holds the other two (docs/i18n.md).
LANGUAGES = [
    ("zh-hans", "简体中文"),
    ("zh-hant", "繁體中文"),
    ("en", "English"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Asia/Shanghai"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Token first: it names itself in WWW-Authenticate, so anonymous requests get a 401.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticatedOrReadOnly",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 20,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "火拼双扣 API",
    "DESCRIPTION": "HTTP API of the 火拼双扣 (百变双扣) platform.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
}

CELERY_BROKER_URL = env.str("REDIS_URL", DEFAULT_REDIS_URL)
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ALWAYS_EAGER = False
# Tasks are idempotent and fetch by id; acknowledge after running so a crashed worker's
# task is redelivered rather than lost.
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Workers outlive broker outages (shuangkou_site.broker_guard, docs/operations.md):
# they retry the broker for ever, at most every 2 s (the guard's consumer), and a
# channel closed without its connection no longer kills them.
CELERY_WORKER_CONSUMER = "shuangkou_site.broker_guard:Consumer"
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Queues by urgency (docs/operations.md, "Workers and queues"), each served by workers
# of its own (deploy/): what must be on time (the sweeps, settlements, re-announcing)
# stays on the default queue, `celery`; slow work (replay analyses, up to
# ANALYSIS_GAME_SECONDS each) goes to SLOW_TASK_QUEUE, so no turn waits behind it. The
# strong bots' moves have their own (GAMES_BOT_QUEUE, below).
CELERY_TASK_DEFAULT_QUEUE = "celery"
# Celery's Django fixup closes a prefork worker's connection pool before and after every
# task unless this is set: every sweep then opened two or three new PostgreSQL backends,
# several times a second, and the players' actions sent at that instant started 25-35
# ms late (the 200-table load test's p99; docs/performance.md, "The cause: a new pool around
# every task").
# A worker's child keeps its pool for its life; each task hands its connection back
# to it as a request does (shuangkou_site.task_connections).
CELERY_DB_REUSE_MAX = 2**62
SLOW_TASK_QUEUE = env.str("SLOW_TASK_QUEUE", "slow")
CELERY_TASK_ROUTES = {"analysis.tasks.analyse_game_task": {"queue": SLOW_TASK_QUEUE}}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", "INFO")},
    # Action, sweep and settlement timings (games/live/timing.py); WARNING silences them.
    # By default they follow LOG_LEVEL: a logger's own level passes its records to the
    # root's handlers whatever the root's level, so LOG_LEVEL=ERROR alone (the load
    # test's) would still write a line per action, on the live path's database thread.
    "loggers": {"games.timing": {"level": env.str(
        "GAMES_TIMING_LOG_LEVEL", env.str("LOG_LEVEL", "INFO"))}},
}
# The starting grant, posted after a player's first settled game (not at sign-up).
LEDGER_STARTING_COINS = env.int("LEDGER_STARTING_COINS", 10000)

# Escape bans (docs/fair_play.md): escapes counted in a rolling window of this many hours;
# the first is a warning, the n-th (n ≥ 2) bans for the ladder's (n-1)-th step in seconds,
# the last step repeating.
FAIR_PLAY_WINDOW_HOURS = env.float("FAIR_PLAY_WINDOW_HOURS", 24.0)
FAIR_PLAY_BAN_LADDER = env_list("FAIR_PLAY_BAN_LADDER", ["600", "3600", "86400"])

# The daily relief grant (救济金, docs/ledger.md): a player whose coins (available and
# frozen in running games) are below the threshold may claim the amount up to this many
# times a day; days begin at midnight in TIME_ZONE.
LEDGER_RELIEF_THRESHOLD = env.int("LEDGER_RELIEF_THRESHOLD", 1000)
LEDGER_RELIEF_AMOUNT = env.int("LEDGER_RELIEF_AMOUNT", 2000)
LEDGER_RELIEF_PER_DAY = env.int("LEDGER_RELIEF_PER_DAY", 2)

# Friends (docs/friends.md): every page of a signed-in player polls its notices (table
# invitations, friend requests) this often, and a player whose page polled within the
# online window counts as online; an invitation shows this long.
FRIENDS_POLL_SECONDS = env.int("FRIENDS_POLL_SECONDS", 10)
FRIENDS_ONLINE_SECONDS = env.int("FRIENDS_ONLINE_SECONDS", 40)
FRIENDS_INVITE_MINUTES = env.int("FRIENDS_INVITE_MINUTES", 30)

# Daily check-in and tasks (daily/, docs/ledger.md "A player's day"): coins from
# issuance. The check-in pays the base plus the step for each day of the streak beyond
# the first, up to the streak cap; a day's rewards never pass the daily cap.
DAILY_CHECKIN_BASE = env.int("DAILY_CHECKIN_BASE", 100)
DAILY_CHECKIN_STEP = env.int("DAILY_CHECKIN_STEP", 50)
DAILY_CHECKIN_STREAK_CAP = env.int("DAILY_CHECKIN_STREAK_CAP", 7)
DAILY_REWARD_CAP = env.int("DAILY_REWARD_CAP", 1500)

# One process locally; test and prod share a Redis cache so limits hold across processes.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Failed logins (web form, admin and POST /api/token) allowed per window, counted per
# username and per client IP. The IP limit is higher: players behind one NAT share an IP.
ACCOUNTS_LOGIN_LIMITS = {
    "username": {"failures": 5, "window_seconds": 600},
    "ip": {"failures": 20, "window_seconds": 600},
}
# Sign-ups allowed per client address (client_ip, as above) and window (against
# farmed sign-ups). Players behind one NAT share an address, hence not 1.
ACCOUNTS_SIGNUP_LIMIT = {
    "signups": env.int("ACCOUNTS_SIGNUPS_PER_ADDRESS", 5),
    "window_seconds": env.int("ACCOUNTS_SIGNUP_WINDOW_SECONDS", 3600),
}
# How many proxies in front of the site append to X-Forwarded-For (0: trust only
# REMOTE_ADDR). Set it to the number of load balancers, or clients can forge their IP.
ACCOUNTS_TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", 0)

# Live tables (games/): how long bots think, how long a person waits before bots
# fill the empty seats, and how long an ended game may wait for its settlement task
# before the sweeper settles it.
GAMES_BOT_THINK_SECONDS = env.float("GAMES_BOT_THINK_SECONDS", 1.0)
GAMES_BOT_FILL_SECONDS = env.float("GAMES_BOT_FILL_SECONDS", 5.0)
# In a rated room (Room.rated) bots fill only after this wait: first the rated matchmaking
# looks for people of close rating (ratings.matchmaking, docs/ratings.md).
GAMES_RATED_BOT_FILL_SECONDS = env.float("GAMES_RATED_BOT_FILL_SECONDS", 30.0)
GAMES_SETTLE_GRACE_SECONDS = env.int("GAMES_SETTLE_GRACE_SECONDS", 30)
# A table socket's action runs its one statement from the event loop, on at most this
# many PostgreSQL connections per web process (games.live.action_pool). Each waits at
# most the timeout for a connection.
GAMES_ACTION_POOL_SIZE = env.int("GAMES_ACTION_POOL_SIZE", 4)
if GAMES_ACTION_POOL_SIZE < 1:
    raise ImproperlyConfigured("GAMES_ACTION_POOL_SIZE is at least 1: the live path's "
                               "actions run on those connections.")
GAMES_ACTION_POOL_TIMEOUT = env.float("GAMES_ACTION_POOL_TIMEOUT", 5.0)
# Strong bots (a room's bot level; games.live.strong_bots): the CPU time one
# move's search may take, the queue their tasks go to (a worker of its own
# serves it: `celery -A shuangkou_site worker -Q bots`), and how long past the think
# time a strong bot's turn waits for its move before the sweeper plays the table
# bot's move for it.
# 150: the engine's own default (games.engine.ai.BUDGET_MS, which says why).
GAMES_STRONG_BOT_BUDGET_MS = env.int("GAMES_STRONG_BOT_BUDGET_MS", 150)
# Deals the search samples at most (None: the engine's default); with a budget it
# never reaches, the move depends on the seed only (the tests' setting).
GAMES_STRONG_BOT_MAX_SAMPLES = env.int("GAMES_STRONG_BOT_MAX_SAMPLES", 0) or None
GAMES_BOT_QUEUE = env.str("GAMES_BOT_QUEUE", "bots")
GAMES_STRONG_BOT_BACKSTOP_SECONDS = env.float("GAMES_STRONG_BOT_BACKSTOP_SECONDS", 10.0)
# How long a private table's invite code works (games.live.private_tables).
GAMES_INVITE_HOURS = env.float("GAMES_INVITE_HOURS", 24.0)
# Wrong invite codes (unknown, closed or expired) one user, and one client address,
# may try per window, over every way a code is looked up (games.web.invite_limits);
# past it every lookup answers 429 until the window closes. The address limit is
# higher: players behind one NAT share an address.
GAMES_INVITE_TRIES_PER_USER = env.int("GAMES_INVITE_TRIES_PER_USER", 10)
GAMES_INVITE_TRIES_PER_ADDRESS = env.int("GAMES_INVITE_TRIES_PER_ADDRESS", 30)
GAMES_INVITE_TRIES_WINDOW_SECONDS = env.int("GAMES_INVITE_TRIES_WINDOW_SECONDS", 600)
# Under `make run` no Celery beat runs: a thread in the web process sweeps instead.
GAMES_INPROCESS_SWEEPER = env.bool("GAMES_INPROCESS_SWEEPER", False)
GAMES_SWEEP_SECONDS = env.float("GAMES_SWEEP_SECONDS", 1.0)
# How often beat sends the turn-deadline sweep (CELERY_BEAT_SCHEDULE, below).
GAMES_DEADLINE_SWEEP_SECONDS = env.float("GAMES_DEADLINE_SWEEP_SECONDS", 0.5)
# The table socket's rate limit (docs/protocol.md, "Framing and limits"): a token bucket
# per socket holding ``burst`` tokens, refilled at ``per_second``; read when a socket
# connects.
GAMES_SOCKET_RATE = {
    "per_second": env.float("GAMES_SOCKET_RATE_PER_SECOND", 10.0),
    "burst": env.float("GAMES_SOCKET_RATE_BURST", 20.0),
}
# Every table socket hears its table's game and seq this often (one read per process
# for all its tables; docs/protocol.md, "heartbeat"): a client whose events were lost
# resyncs. 0: none.
GAMES_HEARTBEAT_SECONDS = env.float("GAMES_HEARTBEAT_SECONDS", 10.0)
# A web process collects its young garbage from its event loop this often, in short
# pauses, rather than when Python's own trigger fires, seconds apart, in long ones
# (shuangkou_site.young_collections). 0: Python's trigger only.
WEB_YOUNG_GC_SECONDS = env.float("WEB_YOUNG_GC_SECONDS", 0.2)
# The heartbeat's sends are paced (games.live.heartbeat): this many sockets, then a
# pause, so that a process's game actions never wait behind all of its sockets' sends.
GAMES_HEARTBEAT_BATCH = env.int("GAMES_HEARTBEAT_BATCH", 50)
GAMES_HEARTBEAT_BATCH_PAUSE = env.float("GAMES_HEARTBEAT_BATCH_PAUSE", 0.01)
# Table sockets a web process opens at a time (their row, then their first snapshot,
# games.live.opening_gate): a herd of openings is served in order of arrival, each
# socket back as soon as its turn comes, rather than every socket's snapshot after all
# of their rows. Wide enough to keep the database thread busy: at 8 a profile found it
# often idle between the openings (each also waits for Redis and the loop), and a cold
# start of 200 tables took 18-20 s against 13-15 s at 32 (docs/performance.md).
GAMES_OPENINGS_AT_ONCE = env.int("GAMES_OPENINGS_AT_ONCE", 32)
if GAMES_OPENINGS_AT_ONCE < 1:
    raise ImproperlyConfigured("GAMES_OPENINGS_AT_ONCE is at least 1.")
# Each process holding table sockets says it is alive this often (one row per process,
# games.live.heartbeat); silent for three periods, it counts as dead and a turn of a
# player whose socket it held does not time out: the server lost their socket. 0: none.
GAMES_PROCESS_BEAT_SECONDS = env.float("GAMES_PROCESS_BEAT_SECONDS", 2.0)
# Table sockets one user, and one client address, may hold open on one process
# (games.live.socket_caps, docs/protocol.md): the extra ones are closed with 4429.
GAMES_SOCKETS_PER_USER = env.int("GAMES_SOCKETS_PER_USER", 8)
GAMES_SOCKETS_PER_ADDRESS = env.int("GAMES_SOCKETS_PER_ADDRESS", 64)
# Quick chat (games.live.quick_chat, docs/protocol.md "chat"): each player may send
# GAMES_CHAT_BURST phrases in any GAMES_CHAT_WINDOW_SECONDS (a sliding window).
GAMES_CHAT_BURST = env.int("GAMES_CHAT_BURST", 3)
GAMES_CHAT_WINDOW_SECONDS = env.float("GAMES_CHAT_WINDOW_SECONDS", 10.0)
# A seated player whose last table socket closed during a game goes to 托管 only after
# this many seconds without a socket of theirs coming back (games.live.presence; a
# reload or a server restart is not an absence). 0: at once.
GAMES_DISCONNECT_GRACE_SECONDS = env.float("GAMES_DISCONNECT_GRACE_SECONDS", 15.0)
# Deals come from a fresh random seed. Tests set this so every game a test plays is
# dealt from a seed derived from the test's name (games.live.lifecycle.deal.deal_seed);
# production refuses it (settings.prod): it would make the deals predictable.
GAMES_DEAL_SEED = env.str("GAMES_DEAL_SEED", "")
# /healthz (shuangkou_site.health): the Redis it PINGs (none under `make run`, which keeps
# nothing in Redis; test and prod set REDIS_URL) and how long it waits, and the lags past
# which it answers 503. The deadline sweep runs twice a second on a worker of its own
# (docs/operations.md): a turn more than 5 s late, or no sweep for 10 s, means the
# sweeps wait behind something or beat or the worker stopped; an ended game waits up
# to the settle grace plus one unsettled sweep (30 + 30 s) in normal running.
HEALTH_REDIS_URL = ""
HEALTH_REDIS_TIMEOUT_SECONDS = env.float("HEALTH_REDIS_TIMEOUT_SECONDS", 1.0)
HEALTH_SWEEPER_LAG_LIMIT_SECONDS = env.float("HEALTH_SWEEPER_LAG_LIMIT_SECONDS", 5.0)
HEALTH_LAST_SWEEP_LIMIT_SECONDS = env.float("HEALTH_LAST_SWEEP_LIMIT_SECONDS", 10.0)
HEALTH_UNSETTLED_AGE_LIMIT_SECONDS = env.float("HEALTH_UNSETTLED_AGE_LIMIT_SECONDS", 300.0)
# Replay analysis (analysis/, docs/analysis.md): the strong bot replays every move of each
# human seat. Losses are in score units (RULES §6: 双扣 is ±4 a seat, 单扣 ±2, before the
# multiplier); a move losing at least DOUBTFUL is marked "?", at least BAD "??". Each
# analysed move gets at most MOVE_BUDGET_MS of engine time, and the whole game at most
# GAME_SECONDS (the per-move budget shrinks to fit the moves left): ≤ 60 s a game on one
# worker. AUTO_COIN_GAMES: every settled coin game is analysed without being asked.
ANALYSIS_DOUBTFUL_LOSS = env.float("ANALYSIS_DOUBTFUL_LOSS", 1.0)
ANALYSIS_BAD_LOSS = env.float("ANALYSIS_BAD_LOSS", 3.0)
ANALYSIS_MOVE_BUDGET_MS = env.int("ANALYSIS_MOVE_BUDGET_MS", 500)
ANALYSIS_GAME_SECONDS = env.float("ANALYSIS_GAME_SECONDS", 45.0)
# A cap on the samples per move (unset: the budgets alone bound the search).
ANALYSIS_MOVE_SAMPLES = env.int("ANALYSIS_MOVE_SAMPLES", None)
ANALYSIS_AUTO_COIN_GAMES = env.bool("ANALYSIS_AUTO_COIN_GAMES", True)
# A claim older than this (a worker that died mid-analysis: tasks are acked late and
# redelivered) may be taken over by the next run of the task.
ANALYSIS_STALE_SECONDS = env.float("ANALYSIS_STALE_SECONDS", 300.0)

# Each sweep expires after its interval: a sweep still queued when the next is sent
# (workers busy or down) is dropped, not run late in a pile-up; the next one does its
# work (the sweeps claim by conditional updates, so any one run catches up).
# Tournaments (docs/tournaments.md): seconds between a table's board and its next one,
# for its players to read the result.
TOURNAMENTS_BOARD_PAUSE_SECONDS = env.float("TOURNAMENTS_BOARD_PAUSE_SECONDS", 5.0)

CELERY_BEAT_SCHEDULE = {
    # Twice a second: a turn's deadline is set when the previous step commits, itself at
    # a sweep, so a 1 s period lands each claim a whole period late (measured: p50
    # 1.01 s, scripts/bench_timeout_lag.py); at 0.5 s a timeout lands within a second.
    "sweep-deadlines": {"task": "games.tasks.sweep_deadlines_task",
                        "schedule": GAMES_DEADLINE_SWEEP_SECONDS,
                        "options": {"expires": GAMES_DEADLINE_SWEEP_SECONDS}},
    # Games the channel layer failed to tell (games.live.delivery): every second, so a
    # table hears again within a second of the layer coming back.
    "sweep-undelivered": {"task": "games.tasks.sweep_undelivered_task", "schedule": 1.0,
                          "options": {"expires": 1.0}},
    # Seats whose player left and did not come back within the grace (games.live.presence).
    "sweep-away": {"task": "games.tasks.sweep_away_task", "schedule": 1.0,
                   "options": {"expires": 1.0}},
    "sweep-tables": {"task": "games.tasks.sweep_tables_task", "schedule": 2.0,
                     "options": {"expires": 2.0}},
    "sweep-unsettled": {"task": "games.tasks.sweep_unsettled_task", "schedule": 30.0,
                        "options": {"expires": 30.0}},
    # Tournaments (tournaments.flow.sweep): scheduled starts, and every running one
    # moved on from the database (after a restart or a lost task).
    "sweep-tournaments": {"task": "tournaments.tasks.sweep_tournaments_task",
                          "schedule": 5.0, "options": {"expires": 5.0}},
}

# --- Ratings (ratings/, docs/ratings.md) ---------------------------------------------
# Shown numbers are openskill's mu and sigma × 60 (1500 ± 500 to begin with). A rating is
# provisional (marked ?, off the boards) while its sigma is above this (360 shown: about
# 20 rated games).
RATINGS_PROVISIONAL_SIGMA = env.float("RATINGS_PROVISIONAL_SIGMA", 6.0)
# Anti-farming: the same people's rated games together within the window count fully
# for the first FREE games, then FREE / (n + 1) of an update (the 12th: a quarter).
RATINGS_REPEAT_FREE_GAMES = env.int("RATINGS_REPEAT_FREE_GAMES", 3)
RATINGS_REPEAT_WINDOW_HOURS = env.float("RATINGS_REPEAT_WINDOW_HOURS", 24.0)
# Bots are never rated; people are rated against them as if they had these fixed
# ratings (by the room's 机器人水平) with this small deviation. The gaps are the model's
# own for the bots' measured matches (docs/ratings.md): table beats trustee (easy) 85.7 %
# of games, strong beats table 78.6 %; the table bot is put at the newcomer's 1500.
RATINGS_BOT_RATINGS = {"easy": 1300, "table": 1500, "strong": 1650}
RATINGS_BOT_DEVIATION = 60
# Rated matchmaking (ratings.matchmaking): quick join in a rated room seats a person at a
# waiting table whose people's mean rating is within the window of theirs; the window
# starts at WINDOW and widens by WIDEN_PER_SECOND for every second the table has waited.
RATINGS_MATCH_WINDOW = env.int("RATINGS_MATCH_WINDOW", 150)
RATINGS_MATCH_WIDEN_PER_SECOND = env.float("RATINGS_MATCH_WIDEN_PER_SECOND", 10.0)
# Seasons' boards list those with at least this many rated games in the season.
RATINGS_SEASON_MIN_GAMES = env.int("RATINGS_SEASON_MIN_GAMES", 5)
RATINGS_BOARD_SIZE = 100

# --- Metrics (shuangkou_site/metrics; docs/operations.md, "Metrics") ---------------------
# GET /metrics answers only `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); with
# no token set it is a 404: the endpoint is off. Processes of one host add up their
# metrics through the folder in the PROMETHEUS_MULTIPROC_DIR environment variable (read
# by prometheus-client itself, before any setting): unset, each process reports its own.
METRICS_TOKEN = env.str("METRICS_TOKEN", "")
# How long a scrape waits for the broker when it reads the Celery queues' depths.
METRICS_BROKER_TIMEOUT_SECONDS = env.float("METRICS_BROKER_TIMEOUT_SECONDS", 1.0)
