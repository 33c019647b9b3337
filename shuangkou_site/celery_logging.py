"""Celery processes log through the site's logging settings (JSON lines in production,
settings/prod.py) instead of Celery's own format: a receiver of ``setup_logging`` tells
Celery to leave logging alone, and configures it as Django does. The worker's
``--loglevel`` still sets the root level."""

from __future__ import annotations

import logging

from celery import signals
from django.conf import settings
from django.utils.log import configure_logging


@signals.setup_logging.connect
def use_site_logging(loglevel: int | str | None = None, **kwargs) -> None:
    configure_logging(settings.LOGGING_CONFIG, settings.LOGGING)
    if loglevel:
        logging.getLogger().setLevel(loglevel)
