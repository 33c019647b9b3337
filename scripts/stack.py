"""The processes of a benchmark or chaos run, started and owned by the script: a fresh
PostgreSQL database (createdb, migrate, loadtest_prepare), a private redis-server, and
the site's processes as the operators' systemd units in deploy/ start them, with prod
settings: two uvicorn processes, the three Celery workers (the on-time queue `celery`,
the strong bots' `bots`, the analyses' `slow`, the last two niced) and beat. Used by
scripts/chaos.py, scripts/loadtest_stack.py and scripts/bench_timeout_lag.py."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import psycopg

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
# Named before the site's package is imported: its Celery app names the development
# settings where none are named, and a script's own child that inherits this
# environment and sets Django up (loadtest.py, the load client) then started `make
# run`'s embedded PostgreSQL in the checkout and left it running. The stack's own
# processes are given the production settings (Stack.env).
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shuangkou_site.settings.test")
from shuangkou_site.deploy_units import unit_command  # noqa: E402

PY = os.path.join(ROOT, ".venv", "bin", "python")
BIN = os.path.join(ROOT, ".venv", "bin")
# The Celery workers, one per queue (docs/operations.md, "Workers and queues"):
# ``worker`` serves `celery` (sweeps, settlements), ``bots`` the strong bots' moves,
# ``slow`` the replay analyses.
WORKERS = ("worker", "bots", "slow")


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def add_stack_arguments(parser: argparse.ArgumentParser, *, web_ports: list[int],
                        redis_port: int) -> None:
    """The options every owned stack takes (ports, PostgreSQL, --keep-db)."""
    parser.add_argument("--web-ports", type=int, nargs="+", default=web_ports,
                        help="one uvicorn process per port (two or more)")
    parser.add_argument("--layer-shards", type=int, default=0,
                        help="shard the channel layer over this many Redis servers of its "
                             "own (ports after --redis-port; 0: the one Redis)")
    parser.add_argument("--broker-redis", action="store_true",
                        help="give the Celery broker a Redis server of its own")
    parser.add_argument("--redis-port", type=int, default=redis_port)
    parser.add_argument("--worker-log-level", default="WARNING",
                        help="the Celery worker's (INFO logs every task and its duration)")
    parser.add_argument("--pg-host", default="127.0.0.1")
    parser.add_argument("--pg-port", type=int, default=5432)
    parser.add_argument("--pg-user", default="postgres")
    parser.add_argument("--max-connections", type=int, default=10,
                        help="database connections a web process may hold at once")
    parser.add_argument("--keep-db", action="store_true",
                        help="keep the database and the process logs for a post-mortem")


def require_free_port(port: int, name: str) -> None:
    """Stop the run, saying why, when ``port`` (``name``'s) is taken. Started on a port
    another stack still held (a load test finishing while the next began), a Redis
    failed to bind and the run went on against the other stack's Redis and its stale
    sweep mark, and its web processes answered /healthz 503 until the run gave up."""
    try:
        socket.create_server(("127.0.0.1", port)).close()
    except OSError as error:
        raise RuntimeError(
            f"port {port} ({name}) is in use: another stack (a load test, chaos) may "
            f"still be running; wait for it, or give other ports (--redis-port, "
            f"--web-ports)") from error


class Stack:
    """The processes of one run: each in its own process group, so a kill reaches its
    children (uvicorn's and celery's) and nothing else. ``name`` prefixes the database,
    the temporary folder and the connections' application name."""

    def __init__(self, args: argparse.Namespace, name: str = "chaos",
                 extra_env: dict | None = None, web_args: list[str] | None = None,
                 process_env: dict[str, dict] | None = None) -> None:
        self.args = args
        self.name = name
        self.extra_env = extra_env or {}
        self.process_env = process_env or {}  # a process's own additions (by name)
        self.web_args = web_args or []
        self.dir = tempfile.mkdtemp(prefix=f"{name}-")
        self.db = f"shuangkou_{name}_{os.getpid()}_{int(time.time())}"
        self.pg = f"postgres://{args.pg_user}@{args.pg_host}:{args.pg_port}"
        self.redis_url = f"redis://127.0.0.1:{args.redis_port}/0"
        self.procs: dict[str, subprocess.Popen] = {}
        self.db_created = False
        self.webs = [f"web{number}" for number in range(len(args.web_ports))]
        # name -> port of every Redis server: the main one (cache, health, and the layer
        # and the broker unless they have their own), the layer's shards, the broker's.
        self.redises = {"redis": args.redis_port}
        for shard in range(getattr(args, "layer_shards", 0)):
            self.redises[f"redis-layer{shard}"] = args.redis_port + 1 + shard
        if getattr(args, "broker_redis", False):
            self.redises["redis-broker"] = args.redis_port + 20

    def env(self, process: str | None = None) -> dict:
        label = f"{self.name}-{process}" if process else self.name
        url = f"{self.pg}/{self.db}?application_name={label}"
        return {**os.environ, "DJANGO_SETTINGS_MODULE": "shuangkou_site.settings.prod",
                "DJANGO_SECRET_KEY": self.name, "DATABASE_URL": url,
                "REDIS_URL": self.redis_url, "ALLOWED_HOSTS": "127.0.0.1",
                "SECURE_SSL_REDIRECT": "0", "LOG_LEVEL": "ERROR", "PYTHONUNBUFFERED": "1",
                # Each process's connections by name in pg_stat_activity, and its pool
                # bounded by the target the run checks (settings.base.pooled_postgres).
                "DB_APPLICATION_NAME": label,
                "DB_POOL_MAX_SIZE": str(self.args.max_connections),
                # Every simulated player connects from 127.0.0.1: the per-address socket
                # cap would refuse the tables themselves. The per-user cap stays on.
                "GAMES_SOCKETS_PER_ADDRESS": "100000", **self._redis_env(), **self.extra_env,
                **self.process_env.get(process, {})}

    def _redis_env(self) -> dict:
        env = {}
        shards = [port for name, port in self.redises.items() if name.startswith("redis-layer")]
        if shards:
            env["CHANNEL_LAYER_REDIS_URLS"] = ",".join(f"redis://127.0.0.1:{port}/0"
                                                       for port in shards)
        if "redis-broker" in self.redises:
            env["CELERY_BROKER_URL"] = f"redis://127.0.0.1:{self.redises['redis-broker']}/0"
        return env

    def commands(self, env: dict | None = None) -> dict[str, list[str]]:
        """Each process as the operators' systemd unit starts it (deploy/,
        shuangkou_site.deploy_units): the web processes, the on-time worker
        (``worker``), the strong bots' (``bots``) and the slow one's (``slow``), niced as
        their units say, and beat."""
        env = {**(env or self.env()), "WEB_HOST": "127.0.0.1", "STATE_DIRECTORY": self.dir,
               "CELERY_LOG_LEVEL": self.args.worker_log_level}

        def unit(name: str, instance: str = "") -> list[str]:
            return unit_command(name, bin_dir=BIN, env=env, instance=instance)
        redis = {name: ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                        "--appendonly", "no", "--dir", self.dir]
                 for name, port in self.redises.items()}
        webs = {name: unit("shuangkou-web@", str(port)) + self.web_args
                for name, port in zip(self.webs, self.args.web_ports, strict=True)}
        return {
            **redis, **webs,
            "worker": unit("shuangkou-worker-live"),
            "bots": unit("shuangkou-worker-bots"),
            "slow": unit("shuangkou-worker-slow"),
            "beat": unit("shuangkou-beat"),
        }

    def start(self, name: str) -> None:
        port = self.redises.get(name) or (
            self.args.web_ports[self.webs.index(name)] if name in self.webs else None)
        if port is not None:
            require_free_port(port, name)
        out = open(os.path.join(self.dir, f"{name}.log"), "ab")
        env = self.env(name)
        self.procs[name] = subprocess.Popen(self.commands(env)[name], cwd=ROOT, env=env,
                                            stdout=out, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        if name in self.redises:
            self.wait_redis(self.redises[name])
        elif name in self.webs:
            self.wait_http(self.args.web_ports[self.webs.index(name)])

    def pid(self, name: str) -> int:
        return self.procs[name].pid

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        proc = self.procs.get(name)
        if proc is None or proc.poll() is not None:
            return
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()

    def wait_redis(self, port: int) -> None:
        for _ in range(100):
            if subprocess.run(["redis-cli", "-p", str(port), "ping"],
                              capture_output=True, text=True).stdout.strip() == "PONG":
                return
            time.sleep(0.1)
        raise RuntimeError("redis-server did not start")

    def wait_http(self, port: int, seconds: float = 60) -> None:
        until = time.time() + seconds
        while time.time() < until:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"the web process on port {port} did not answer /healthz")

    def manage(self, *argv: str) -> subprocess.CompletedProcess:
        return subprocess.run([PY, "manage.py", *argv], cwd=ROOT, env=self.env(),
                              capture_output=True, text=True)

    def create_database(self) -> None:
        """The run's database (empty) and its redis-server."""
        subprocess.run(["createdb", "-h", self.args.pg_host, "-p", str(self.args.pg_port),
                        "-U", self.args.pg_user, self.db], check=True)
        self.db_created = True
        for name in self.redises:
            self.start(name)

    def setup(self, tables: int, turn_seconds: int | None = None,
              prepare: tuple[str, ...] = ()) -> dict:
        """Create the database and Redis, seat ``tables`` tables (``prepare``: more
        options of loadtest_prepare), start the web processes, the workers and beat;
        returns the seating plan (loadtest_prepare's)."""
        self.create_database()
        for argv in (["migrate", "--noinput"],
                     ["loadtest_prepare", "--tables", str(tables),
                      "--out", os.path.join(self.dir, "plan.json"), *prepare]):
            done = self.manage(*argv)
            if done.returncode:
                raise RuntimeError(f"manage.py {argv[0]} failed:\n{done.stderr[-2000:]}")
        with open(os.path.join(self.dir, "plan.json")) as handle:
            plan = json.load(handle)
        if turn_seconds is not None:
            # The room is read at each deadline, so set it before play.
            self.sql("UPDATE games_room SET turn_seconds = %s, first_turn_seconds = %s "
                     "WHERE id = %s", (turn_seconds, turn_seconds, plan["room"]))
        for name in (*WORKERS, *self.webs, "beat"):
            self.start(name)
        return plan

    def sql(self, query: str, params: tuple = ()) -> list[tuple]:
        with psycopg.connect(f"{self.pg}/{self.db}?application_name={self.name}-probe",
                             autocommit=True, connect_timeout=5) as conn:
            cursor = conn.execute(query, params)
            return cursor.fetchall() if cursor.description else []

    def cleanup(self) -> None:
        for name in (*self.webs, "beat", *WORKERS, *self.redises):
            self.kill(name, signal.SIGTERM if name in self.redises else signal.SIGKILL)
        if self.db_created and not self.args.keep_db:
            subprocess.run(["dropdb", "-h", self.args.pg_host, "-p", str(self.args.pg_port),
                            "-U", self.args.pg_user, "--force", self.db], capture_output=True)
        if self.args.keep_db:
            log(f"kept database {self.db} and logs in {self.dir}")
        else:
            shutil.rmtree(self.dir, ignore_errors=True)
