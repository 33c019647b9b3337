"""The commands of the systemd units in deploy/, for the scripts and tests that must
start the site's processes exactly as operators do (scripts/stack.py, chaos, the
broker-outage test).

Reads a unit's ``ExecStart=`` the way systemd would for these units: ``%%`` is ``%``,
``%i`` the instance (a web unit's port), ``${NAME}`` a variable of the environment
given, falling back to the unit's own ``Environment=`` lines; the virtualenv of
``/srv/shuangkou/.venv/bin`` becomes ``bin_dir``; ``Nice=`` becomes a ``nice`` prefix.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
UNIT_BIN = "/srv/shuangkou/.venv/bin"
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


def unit_settings(name: str) -> dict[str, list[str]]:
    """Every ``Key=value`` line of ``deploy/<name>.service``, values in order."""
    found: dict[str, list[str]] = {}
    for line in (DEPLOY / f"{name}.service").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith(("#", ";", "[")) and "=" in line:
            key, value = line.split("=", 1)
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def unit_command(name: str, *, bin_dir: str, env: dict[str, str],
                 instance: str = "") -> list[str]:
    """The argv systemd would run for unit ``name`` (``shuangkou-web@`` with an
    ``instance``)."""
    found = unit_settings(name)
    defaults = dict(entry.split("=", 1) for entry in found.get("Environment", []))
    variables = {**defaults, **env}

    def expand(word: str) -> str:
        def variable(match: re.Match) -> str:
            if match.group(1) not in variables:
                raise KeyError(f"{name}.service needs ${{{match.group(1)}}}")
            return variables[match.group(1)]
        word = word.replace("%%", "\0").replace("%i", instance).replace("\0", "%")
        return _VARIABLE.sub(variable, word)

    (exec_start,) = found["ExecStart"]
    argv = [expand(word) for word in shlex.split(exec_start)]
    if argv[0].startswith(UNIT_BIN + "/"):
        argv[0] = str(Path(bin_dir) / argv[0][len(UNIT_BIN) + 1:])
    nice = found.get("Nice", ["0"])[-1]
    return (["nice", "-n", nice] if nice != "0" else []) + argv
