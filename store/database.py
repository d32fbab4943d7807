"""Which PostgreSQL to use, and the URL forms the tools need."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from psycopg.conninfo import conninfo_to_dict

from store.embedded import start_embedded


@dataclass(frozen=True, slots=True)
class DatabaseUrls:
    """Where the service connects (``app``) and who migrates the schema (``owner``)."""

    app: str
    owner: str


def resolve_database(
    database_url: str | None, migration_url: str | None, data_dir: Path
) -> DatabaseUrls:
    """Return the configured server's URLs, or start the embedded server and return its URLs.

    An external server's ``owner`` is ``migration_url`` when set, else the app's own
    URL (then that role must own the schema to migrate it). On the embedded server the
    owner is its superuser and the app connects as ``matchlog_app``.

    Raises:
        DataDirError (DATA_DIR_UNUSABLE): no URL is set and the data dir is unusable.
        EmbeddedStartError (EMBEDDED_DATABASE_DOWN): the embedded server did not start.
    """
    if database_url:
        app = canonical_url(database_url)
        return DatabaseUrls(app=app, owner=canonical_url(migration_url) if migration_url else app)
    embedded = start_embedded(data_dir)
    return DatabaseUrls(app=embedded.app_url, owner=embedded.url)


def resolve_database_url(database_url: str | None, data_dir: Path) -> str:
    """Return the configured URL, or start the embedded server and return its owner's URL.

    For tools that create and migrate databases of their own (the benchmarks).

    Raises:
        DataDirError (DATA_DIR_UNUSABLE): no URL is set and the data dir is unusable.
    """
    return resolve_database(database_url, None, data_dir).owner


def canonical_url(url: str) -> str:
    """Return the plain ``postgresql://`` form of a URL (drops a ``+driver`` suffix).

    >>> canonical_url('postgresql+psycopg://u@h/db')
    'postgresql://u@h/db'
    """
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    base = scheme.split("+", 1)[0]
    if base == "postgres":
        base = "postgresql"
    return f"{base}://{rest}"


def sqlalchemy_url(url: str) -> str:
    """Return the ``postgresql+psycopg://`` form alembic's engine needs.

    >>> sqlalchemy_url('postgresql://u@h/db')
    'postgresql+psycopg://u@h/db'
    """
    return "postgresql+psycopg://" + canonical_url(url).partition("://")[2]


CONNECT_TIMEOUT = 5
"""Seconds libpq tries each host of a URL that names no ``connect_timeout`` of its own.

libpq's default is to wait for the operating system (about two minutes for a machine
that vanished without refusing), so a node would stall that long on a dead primary
before trying the next host of a multi-host URL (docs/deploy.md).
"""


def with_connect_timeout(url: str) -> str:
    """Return ``url`` with ``connect_timeout`` set, unless it sets its own.

    >>> with_connect_timeout('postgresql://h1:5432,h2:5432/db?target_session_attrs=read-write')
    'postgresql://h1:5432,h2:5432/db?target_session_attrs=read-write&connect_timeout=5'
    >>> with_connect_timeout('postgresql://u@h/db')
    'postgresql://u@h/db?connect_timeout=5'
    >>> with_connect_timeout('postgresql://u@h/db?connect_timeout=2')
    'postgresql://u@h/db?connect_timeout=2'
    >>> with_connect_timeout('host=h dbname=db')
    'host=h dbname=db connect_timeout=5'
    """
    if "connect_timeout" in conninfo_to_dict(url):
        return url
    if "://" not in url:
        return f"{url} connect_timeout={CONNECT_TIMEOUT}"
    return f"{url}{'&' if '?' in url else '?'}connect_timeout={CONNECT_TIMEOUT}"


def with_database(url: str, name: str) -> str:
    """Return ``url`` pointing at database ``name`` on the same server.

    >>> with_database('postgresql://u@h:5432/a?sslmode=off', 'b')
    'postgresql://u@h:5432/b?sslmode=off'
    >>> with_database('postgresql://postgres:@/x?host=/tmp/pg', 'y')
    'postgresql://postgres:@/y?host=/tmp/pg'
    """
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))
