"""The settings' reader of environment variables (environs): each value is parsed and
checked as it is read, and a bad one stops the process with the variable's name
(``Environment variable "GAMES_SOCKETS_PER_USER" invalid: Not a valid integer.``)
rather than a bare ValueError, or a setting quietly taken as its default.

Numbers and flags must be well formed when set: an empty value is a bad value too
(unset the variable for its default). Flags read 1/0, true/false, yes/no, on/off."""

from __future__ import annotations

from environs import Env

env = Env()


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated list, each item stripped, empty ones dropped (``a, b,`` is
    ``["a", "b"]``); ``default`` when the variable is unset."""
    return [item.strip() for item in env.list(name, default) if item.strip()]
