"""Production's log lines: one JSON object each (settings/prod.py; docs/operations.md,
"Logs"), written by python-json-logger.

Every line has ``time`` (ISO 8601, UTC), ``level``, ``logger`` and ``message``, then the
record's extra attributes as fields of their own (the games.timing lines' ``what``,
``game``, ``seq``, ``ms``, …), and a traceback as ``exc_info`` inside its line.
"""

from __future__ import annotations

import logging
import logging.config

from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter

# uvicorn adds a copy of each message with terminal colours: noise in a JSON line.
_LEFT_OUT = [*RESERVED_ATTRS, "color_message"]


class SiteJsonFormatter(JsonFormatter):
    def __init__(self) -> None:
        super().__init__(["levelname", "name", "message"],
                         rename_fields={"levelname": "level", "name": "logger"},
                         timestamp="time", reserved_attrs=_LEFT_OUT)


def configure(logging_settings: dict) -> None:
    """``LOGGING_CONFIG`` of production: ``LOGGING`` as usual, and Python's warnings
    logged (logger ``py.warnings``) rather than printed as lines of their own."""
    logging.config.dictConfig(logging_settings)
    logging.captureWarnings(True)
