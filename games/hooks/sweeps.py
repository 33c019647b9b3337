"""Periodic work of the apps above games that Celery beat runs in production and the
in-process sweeper (games.live.inprocess_sweeps) runs under ``make run``, where no
beat is: each registered callable is called every few seconds and must be idempotent
(tournaments: scheduled starts, running tournaments moved on)."""

from __future__ import annotations

from collections.abc import Callable

from games.hooks.registry import Registry

periodic_sweeps: Registry[Callable[[], object]] = Registry()
