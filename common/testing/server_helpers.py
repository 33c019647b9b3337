"""Real ASGI servers (uvicorn subprocesses, or one on a thread of the test process) on
the test database, for the tests that need real WebSockets from outside the test
process: the scale-out test, the browser test, a socket closed during a send. Use them
from a ``django_db(transaction=True)`` test, so that what the test writes is committed
and the servers see it."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import uvicorn
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def listening_socket() -> socket.socket:
    """A socket listening on a port the system chose, for a server to inherit: the port
    is held from the moment it is chosen, so no other test run, xdist worker or server
    can take it in between (a probed-then-closed free port could be)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    listener.set_inheritable(True)
    return listener


@contextmanager
def refusing_port() -> Iterator[int]:
    """A port bound but not listening: connecting to it is refused at once, a real
    outage of whatever should be there. Held for the block, so nothing can start
    listening on it meanwhile."""
    holder = socket.socket()
    try:
        holder.bind(("127.0.0.1", 0))
        yield holder.getsockname()[1]
    finally:
        holder.close()


@contextmanager
def private_redis() -> Iterator[str]:
    """A redis-server of the block's own, on a free port, with nothing saved to disk: its
    URL. For a test that must not touch the shared Redis (a broker's queues)."""
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    port = holder.getsockname()[1]
    holder.close()  # redis-server binds it itself
    server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                               "--save", "", "--appendonly", "no"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, \
                    "redis-server did not start"
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop_server(server)


SITE_APP = "shuangkou_site.asgi:application"
# The same, with the static files (CSS, scripts) served as well: for a browser.
SITE_APP_WITH_STATIC = "shuangkou_site.asgi_with_static:application"


def this_database_url() -> str:
    """The URL of the test database this process uses, for a process a test starts."""
    database = connection.settings_dict
    return (f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}"
            f"/{database['NAME']}")


def start_server(listener: socket.socket, app: str = SITE_APP,
                 env: dict[str, str] | None = None) -> subprocess.Popen:
    """A uvicorn process serving ``app`` on ``listener`` (passed by file descriptor);
    ``env`` adds to or overrides its environment (e.g. the prod settings)."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "shuangkou_site.settings.test",
        # The servers must use this test's database, channel-layer and cache prefixes,
        # and deal from this test's seed (the root conftest.py sets it per test).
        "DATABASE_URL": this_database_url(),
        "CHANNEL_LAYER_PREFIX": settings.CHANNEL_LAYER_PREFIX,
        "CACHE_KEY_PREFIX": settings.CACHES["default"]["KEY_PREFIX"],
        "GAMES_DEAL_SEED": settings.GAMES_DEAL_SEED,
        **(env or {}),
    }
    # --loop asyncio: uvicorn wraps an inherited descriptor as AF_UNIX, which asyncio
    # serves as the TCP socket it is (uvloop, if it were installed, would not).
    # --no-proxy-headers as everywhere the site is served (docs/operations.md):
    # REMOTE_ADDR is the socket's peer and only Django's client_ip reads X-Forwarded-For.
    return subprocess.Popen(
        [sys.executable, "-m", "uvicorn", app, "--fd", str(listener.fileno()),
         "--loop", "asyncio", "--log-level", "warning", "--no-proxy-headers"],
        cwd=ROOT, env=env, pass_fds=(listener.fileno(),))


def wait_until_serving(port: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, "the server process exited"
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"no server on port {port}")


def stop_server(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=30)


@contextmanager
def served(count: int = 1, app: str = SITE_APP,
           env: dict[str, str] | None = None) -> Iterator[list[int]]:
    """``count`` servers of ``app`` on ports of their own, serving once the block
    starts; their ports. ``env`` as for ``start_server``."""
    listeners = [listening_socket() for _ in range(count)]
    ports = [listener.getsockname()[1] for listener in listeners]
    servers = []
    try:
        for listener in listeners:
            servers.append(start_server(listener, app, env))
            listener.close()  # the server holds its own copy
        for port, server in zip(ports, servers):
            wait_until_serving(port, server)
        yield ports
    finally:
        for listener in listeners:
            listener.close()
        for server in servers:
            stop_server(server)


@contextmanager
def served_in_thread(app, on_close: Callable[[], Awaitable[object]] | None = None,
                     ) -> Iterator[int]:
    """A real uvicorn server for ``app`` (an ASGI callable of this process) on a thread
    of this process with its own event loop; its port. For tests that must reach into
    the server while a real client talks to it (hold a send, then let it go): the
    server shares this process's settings and test database. ``on_close`` runs on the
    server's loop as it stops (e.g. closing connections that belong to that loop)."""
    listener = listening_socket()
    server = uvicorn.Server(uvicorn.Config(app, lifespan="off", log_level="warning"))
    failed: list[BaseException] = []

    async def serve() -> None:
        try:
            await server.serve(sockets=[listener])
        finally:
            if on_close is not None:
                await on_close()

    def run() -> None:
        try:
            asyncio.run(serve())
        except BaseException as error:  # noqa: BLE001 - reported to the test
            failed.append(error)

    thread = threading.Thread(target=run, name="uvicorn-in-test", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, f"no server: {failed}"
        time.sleep(0.01)
    try:
        yield listener.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        listener.close()
    assert not thread.is_alive(), "the server did not stop"
    assert not failed, failed
