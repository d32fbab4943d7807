"""Which database a command uses, and whether using it would start a new, empty one.

With no ``MATCHLOG_DATABASE_URL`` the embedded server lives in ``MATCHLOG_DATA_DIR``
(``./matchlog-data`` by default, relative to the folder a command runs in). A command
run from another folder would silently start a second, empty database there; the CLI
asks here first, to say so or to refuse.
"""

from __future__ import annotations

from pathlib import Path

from domain.errors import NotFoundError
from service.settings import Settings
from store.embedded import pgdata_path


def new_data_dir(settings: Settings) -> Path | None:
    """Return the embedded data dir (absolute) if using it starts a new database, else ``None``."""
    if settings.database_url:
        return None
    data_dir = settings.data_dir.expanduser().resolve()
    # initdb writes PG_VERSION first thing: without it there is no database to keep.
    return None if (pgdata_path(data_dir) / "PG_VERSION").exists() else data_dir


def require_data(settings: Settings) -> None:
    """Refuse to read from an embedded data dir that holds no database yet.

    Raises:
        NotFoundError (NO_DATA): there is no database in the data dir; the message says
            how to reach the right one.
    """
    fresh = new_data_dir(settings)
    if fresh is not None:
        raise NotFoundError(
            f"no matchlog data in {fresh}: run from the folder you serve from, "
            "set MATCHLOG_DATA_DIR, or run `matchlog db upgrade` to start a new one",
            code="NO_DATA",
            details={"path": str(fresh)},
        )


__all__ = ["new_data_dir", "require_data"]
