"""Print how many PostgreSQL connections one uvicorn process holds after N requests.

Run with the environment of a served site (prod settings, as in docs/performance.md's load test);
the server runs with DB_APPLICATION_NAME set so its connections can be counted:

    .venv/bin/python scripts/db_connections.py --requests 200 --concurrency 16
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from common.testing.server_helpers import listening_socket  # noqa: E402
from games.testing.connection_count import connections_named, hammer  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=16)
    args = parser.parse_args()
    name = f"sk-db-connections-{os.getpid()}"
    listener = listening_socket()
    port = listener.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "shuangkou_site.asgi:application",
         "--fd", str(listener.fileno()), "--loop", "asyncio", "--log-level", "warning",
         "--lifespan", "off"],
        cwd=ROOT, env={**os.environ, "DB_APPLICATION_NAME": name},
        pass_fds=(listener.fileno(),))
    listener.close()
    dsn = os.environ["DATABASE_URL"]
    try:
        for _ in range(100):
            try:
                hammer(port, requests=1, concurrency=1)
                break
            except OSError:
                time.sleep(0.1)
        served = 1
        for batch in (args.requests // 2, args.requests - args.requests // 2):
            concurrency = 1 if served == 1 else args.concurrency
            statuses = hammer(port, requests=batch, concurrency=concurrency)
            served += batch
            print(f"after {served:4d} requests ({concurrency} at a time): "
                  f"{connections_named(dsn, name)} connections held, "
                  f"statuses {sorted(set(statuses))}")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
