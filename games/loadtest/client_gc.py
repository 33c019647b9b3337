"""The load client's own garbage collection, kept out of what it measures.

A collection in the client delays every reading taken meanwhile, so it would show as
the server's latency: a full collection over 800 clients' views took over 0.5 s, and
1.6 s once on a busy box. The scripts collect and freeze what they hold before a
measured phase, run it with the collector off (:func:`collector_off`), and report the
collections that ran all the same (:class:`GcPauses`)."""

from __future__ import annotations

import gc
import time


class GcPauses:
    """Every collection of this process from now on, and how long each took."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._began = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.pauses.append(time.perf_counter() - self._began)


def collector_off() -> None:
    """Before a measured phase: one collection now, what survives it out of later
    collections' sight (``gc.freeze``), and no automatic collection until
    :func:`collector_on`."""
    gc.collect()
    gc.freeze()
    gc.disable()


def collector_on() -> None:
    gc.enable()
