"""The servers' own view of a load test's window: their event loops' lag, read from
``/metrics`` (shuangkou_site.metrics) at the window's start and end. The histogram
is summed over every web process (one scrape of any of them sees all, with
``PROMETHEUS_MULTIPROC_DIR``), so the difference of the two scrapes is the window's
probes: each a 0.25 s sleep, and how much later than asked it woke."""

from __future__ import annotations

import re
import urllib.request

LAG = "shuangkou_event_loop_lag_seconds"
_BUCKET = re.compile(rf'^{LAG}_bucket{{.*?le="([^"]+)".*?}} ([\d.e+-]+)$', re.MULTILINE)


def loop_lag_buckets(url: str, token: str) -> dict[float, float]:
    """Cumulative probe counts by upper bound (seconds; inf last) of one scrape."""
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode()
    return {float(bound): float(count) for bound, count in _BUCKET.findall(text)}


def window_summary(before: dict[float, float], after: dict[float, float]) -> str:
    """The window's probes: how many, and the bucket bounds their p50, p99 and
    slowest fall under (a histogram tells no finer)."""
    bounds = sorted(after)
    counts = [after[bound] - before.get(bound, 0.0) for bound in bounds]
    total = counts[-1] if counts else 0.0
    if not total:
        return "server loop lag in the window: no probes"

    def under(share: float) -> str:
        for bound, count in zip(bounds, counts, strict=True):
            if count >= share * total:
                return "over 2.5 s" if bound == float("inf") else f"≤ {bound * 1000:g} ms"
        return "?"

    over = {f"{bound * 1000:g}": int(total - count) for bound, count
            in zip(bounds, counts, strict=True) if bound in (0.01, 0.05, 0.1)}
    return (f"server loop lag in the window: {int(total)} probes, p50 {under(0.5)}, "
            f"p99 {under(0.99)}, slowest {under(1.0)}; probes later than 10/50/100 ms: "
            f"{over.get('10', 0)}/{over.get('50', 0)}/{over.get('100', 0)}")
