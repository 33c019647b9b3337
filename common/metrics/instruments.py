"""The metrics each process observes itself (docs/operations.md lists their meaning).

prometheus-client picks its storage when it is first imported: files in
``PROMETHEUS_MULTIPROC_DIR`` when that is set (one set per process, added up at
scrape), else memory. Live gauges (``liveall``) carry a ``pid`` label and vanish with
their process; histograms and counters are summed over every process, dead ones too,
so they only ever grow, as Prometheus expects of them.
"""

from __future__ import annotations

import os

_folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
if _folder:
    os.makedirs(_folder, exist_ok=True)  # a missing folder would fail every metric

from prometheus_client import Counter, Gauge, Histogram  # noqa: E402

# Milliseconds matter for an action: the load test's p99 target is 100 ms.
ACTION_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
# Lags behind a deadline, an enqueue or a game's end: tens of ms to minutes.
LAG_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0)
LOOP_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

ACTION_SECONDS = Histogram(
    "shuangkou_action_seconds",
    "A player's action from the frame's arrival at the table socket: to its step "
    "committed (stage=committed), to the table's events taken by the channel layer "
    "(stage=broadcast).",
    ["stage"], buckets=ACTION_BUCKETS)
ACTION_COMMITTED = ACTION_SECONDS.labels(stage="committed")
ACTION_BROADCAST = ACTION_SECONDS.labels(stage="broadcast")
ACTIONS_REFUSED = Counter(
    "shuangkou_actions_refused", "Player actions refused, by the refusal's code.", ["code"])

TASK_LAG_SECONDS = Histogram(
    "shuangkou_celery_task_lag_seconds",
    "From a task's enqueueing (or its ETA) to a worker starting it, by queue.",
    ["queue"], buckets=LAG_BUCKETS)
SWEEPER_LAG_SECONDS = Histogram(
    "shuangkou_sweeper_lag_seconds",
    "How long after its deadline the sweeper claimed each expired turn.",
    buckets=LAG_BUCKETS)
SETTLEMENT_LAG_SECONDS = Histogram(
    "shuangkou_settlement_lag_seconds",
    "From a game's end to its settlement, for each game settled.", buckets=LAG_BUCKETS)

LOOP_LAG_SECONDS = Histogram(
    "shuangkou_event_loop_lag_seconds",
    "How late a web process's event loop woke a probe that asked to sleep "
    "(every web process's probes together).", buckets=LOOP_BUCKETS)
LOOP_LAG_MAX_SECONDS = Gauge(
    "shuangkou_event_loop_lag_max_seconds",
    "The longest loop lag of one web process (label pid) in its last window.",
    multiprocess_mode="liveall")

POOL_CONNECTIONS = Gauge(
    "shuangkou_db_pool_connections",
    "A process's (pid) PostgreSQL connections in a pool (default: Django's; actions: the "
    "event loop's), in use or idle.", ["pool", "state"], multiprocess_mode="liveall")
POOL_MAX_CONNECTIONS = Gauge(
    "shuangkou_db_pool_max_connections", "The most connections a process's pool may open.",
    ["pool"], multiprocess_mode="liveall")
POOL_REQUESTS_WAITING = Gauge(
    "shuangkou_db_pool_requests_waiting",
    "Requests of a process waiting for a connection of the pool right now.",
    ["pool"], multiprocess_mode="liveall")
POOL_WAITS = Counter(
    "shuangkou_db_pool_waits",
    "Requests that found no idle connection in the pool and had to wait.", ["pool"])
POOL_WAIT_SECONDS = Counter(
    "shuangkou_db_pool_wait_seconds", "Time requests spent waiting for a connection.",
    ["pool"])
POOL_ERRORS = Counter(
    "shuangkou_db_pool_errors",
    "Requests that got no connection (the pool's timeout passed, or it failed).", ["pool"])
