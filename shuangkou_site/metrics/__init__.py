"""Metrics for Prometheus at ``/metrics`` (docs/operations.md, "Metrics").

Two kinds, kept apart because they live in different places:

- **What a process observes** (an action's latency, a task's lag, its event loop's lag,
  its database pools): the metrics of :mod:`common.metrics.instruments`, through
  prometheus-client (in common, below every app, so the live path records into them).
  With ``PROMETHEUS_MULTIPROC_DIR`` set (production: every web process and Celery worker
  of a host shares one folder) each process writes its values to files there and any
  web process's scrape adds them all up (:mod:`.exposition`); without it (``make run``,
  tests) a process reports its own.
- **Shared facts** (tables playing, sockets open, the Celery queues' depths, how late the
  sweeper and settlement are): read from PostgreSQL and the broker at scrape time
  (:mod:`.site_facts`), the same whichever process is asked. Counted per process they
  would need adding up and would go wrong when a process dies.
"""
