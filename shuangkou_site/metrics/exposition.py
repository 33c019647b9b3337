"""The scrape: every process's metrics and the shared facts, in Prometheus's text format."""

from __future__ import annotations

import glob
import os
import re

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    generate_latest,
    multiprocess,
)

from .site_facts import SiteFacts

_LIVE_FILE = re.compile(r"gauge_live\w*?_(\d+)\.db$")


def scrape() -> tuple[bytes, str]:
    """The body of a scrape and its content type."""
    registry = CollectorRegistry()
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder:
        forget_dead_processes(folder)
        multiprocess.MultiProcessCollector(registry, path=folder)
    else:
        registry.register(_ThisProcess())
    registry.register(SiteFacts())
    return generate_latest(registry), CONTENT_TYPE_LATEST


class _ThisProcess:
    """Without a shared folder the process's own metrics are all there is."""

    def describe(self) -> list:
        return []

    def collect(self):
        return REGISTRY.collect()


def forget_dead_processes(folder: str) -> None:
    """Drop the live gauges of processes that are gone without saying so (killed):
    their pool and loop figures would otherwise stay on the graphs for ever. The folder
    is this host's (docs/operations.md), so its pids are this host's processes."""
    for path in glob.glob(os.path.join(folder, "gauge_live*_*.db")):
        found = _LIVE_FILE.search(os.path.basename(path))
        if found and not _alive(int(found[1])):
            multiprocess.mark_process_dead(int(found[1]), folder)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: alive
    return True
