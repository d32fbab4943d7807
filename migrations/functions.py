"""The SQL functions the migrations create, one file per function and revision.

``migrations/sql/functions/<name>.<revision>.sql`` holds the text of function
``<name>`` as migration ``<revision>`` created it, as ``CREATE OR REPLACE``. A
migration applies the texts it needs; its downgrade applies the ones it replaced.
A file is never edited once its migration is released: a change is a new file of
the migration that makes it, so every revision's schema stays what it was (Message
DB keeps its functions as files the same way).
"""

from __future__ import annotations

from importlib.resources import files

from alembic import op


def function_sql(name: str, revision: str) -> str:
    """Return the ``CREATE OR REPLACE FUNCTION`` text of ``name`` as of ``revision``."""
    return (files("migrations") / "sql" / "functions" / f"{name}.{revision}.sql").read_text(
        encoding="utf-8"
    )


def create_function(name: str, revision: str) -> None:
    """Create (or replace) function ``name`` as of ``revision`` in the migration's database."""
    op.execute(function_sql(name, revision))
