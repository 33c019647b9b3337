#!/usr/bin/env python
"""`make run`: the site as a newcomer first sees it, in one process.

    python scripts/serve_dev.py [--host 127.0.0.1] [--port 8000]

Under the development settings (shuangkou_site.settings.dev) it starts the embedded
PostgreSQL server (shuangkou_site.dev_database; data in .pgdata/), migrates, loads the
rule-set presets and the demo logins and rooms, then serves the site with uvicorn on a
socket it bound itself (``--port 0``: any free port). The line ``Serving
http://HOST:PORT`` names the address. Ctrl-C (or SIGTERM) stops the site, then the
database server.

One `make run` per data directory: a second one says where the first serves and
stops. The lock is the kernel's (flock), so a `make run` killed with -9 leaves none
behind; its database server, if it was killed too, starts again and recovers.

The newcomer's browser test (shuangkou_site/tests/test_make_run.py) starts this same
script, so what `make run` serves and what that test checks cannot drift apart.
"""

from __future__ import annotations

import argparse
import errno
import fcntl
import os
import signal
import socket
import sys
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["DJANGO_SETTINGS_MODULE"] = "shuangkou_site.settings.dev"

from shuangkou_site.dev_database import dev_server  # noqa: E402

APP = "shuangkou_site.asgi:application"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="0: any free port")
    args = parser.parse_args()
    lock = run_lock()
    if lock is None:
        return 1
    listener = bind(args.host, args.port)
    if listener is None:
        return 1
    host, port = listener.getsockname()[:2]
    url = f"http://{host}:{port}"
    # SIGTERM as Ctrl-C: uvicorn shuts down on either, then raises it again here.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        prepare_database()
        lock.write(f"{os.getpid()} {url}\n")
        lock.flush()
        print(f"Serving {url} (logins: admin/admin, demo/demo; Ctrl-C stops it)", flush=True)
        serve(listener)
    except KeyboardInterrupt:
        pass
    finally:
        dev_server.stop()
        print("make run: stopped the site and its database server", flush=True)
    return 0


def run_lock() -> TextIO | None:
    """This data directory's run lock, held until the process ends; None (said why)
    when another `make run` holds it."""
    dev_server.data_dir.mkdir(parents=True, exist_ok=True)
    lock = dev_server.run_lock.open("a+")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.seek(0)
        holder = lock.read().split()
        where = f" (pid {holder[0]}, {holder[1]})" if len(holder) == 2 else ""
        print(f"make run: already running on {dev_server.data_dir}{where}. "
              "Stop it first (Ctrl-C where it runs).", file=sys.stderr)
        return None
    lock.truncate(0)
    return lock


def bind(host: str, port: int) -> socket.socket | None:
    """The site's listening socket, or None (said why) when the port is taken."""
    try:
        return socket.create_server((host, port), backlog=128)
    except OSError as error:
        if error.errno != errno.EADDRINUSE:
            raise
        print(f"make run: port {port} on {host} is in use by another program. "
              f"Stop it, or pick another port: make run PORT={port + 1}", file=sys.stderr)
        return None


def prepare_database() -> None:
    """What a fresh checkout needs before it serves; each step leaves existing data as
    it is (migrations applied once, presets and demo logins ensured)."""
    import django
    from django.core.management import call_command
    from django.db import connections

    django.setup()  # the settings start the database server if it is not running
    call_command("migrate", interactive=False)
    call_command("load_presets")
    call_command("seed_demo")
    connections.close_all()


def serve(listener: socket.socket) -> None:
    import uvicorn

    class SweepingServer(uvicorn.Server):
        """Starts the in-process sweeper (beat's work under `make run`) as it starts
        serving. Started by the first table socket only, a `make run` restarted with a
        game in play swept nothing until somebody opened a table: the game's turns
        never timed out and /healthz said 503 (sweeper lag) for good."""

        async def startup(self, sockets=None) -> None:
            await super().startup(sockets=sockets)
            from games.live.inprocess_sweeps import ensure_sweeper

            ensure_sweeper()

    # As production serves it (docs/operations.md): no lifespan events, and
    # REMOTE_ADDR is the socket's peer (only Django's client_ip reads X-Forwarded-For).
    config = uvicorn.Config(APP, lifespan="off", proxy_headers=False)
    SweepingServer(config).run(sockets=[listener])


if __name__ == "__main__":
    sys.exit(main())
