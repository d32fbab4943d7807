from __future__ import annotations

import psycopg
import pytest

from store import migrate


def names(url: str, query: str) -> set[str]:
    with psycopg.connect(url) as conn:
        return {row[0] for row in conn.execute(query).fetchall()}


def tables(url: str) -> set[str]:
    return names(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")


def event_indexes(url: str) -> set[str]:
    return names(url, "SELECT indexname FROM pg_indexes WHERE tablename = 'events'")


def test_upgrade_downgrade_roundtrip(owner_url: str) -> None:
    head = migrate.current(owner_url)
    assert head is not None
    before = tables(owner_url)
    assert "events" in before
    migrate.downgrade(owner_url, "base")
    assert migrate.current(owner_url) is None
    assert set() == tables(owner_url) - {"alembic_version"}
    migrate.upgrade(owner_url)
    assert head == migrate.current(owner_url)
    assert before == tables(owner_url)


def test_head_read_from_the_files_is_alembics_head() -> None:
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(migrate.alembic_config("postgresql://unused/x"))
    assert script.get_current_head() == migrate.head()


def test_ensure_head_migrates_only_a_database_behind(owner_url: str) -> None:
    migrate.downgrade(owner_url, "0005")
    migrate.ensure_head(owner_url)
    assert migrate.head() == migrate.current(owner_url)
    migrate.ensure_head(owner_url)
    assert migrate.head() == migrate.current(owner_url)


def test_events_table_refuses_update_and_delete(owner_url: str) -> None:
    with psycopg.connect(owner_url) as conn:
        conn.execute(
            "INSERT INTO events (stream, version, event_id, type, data, hash) "
            "VALUES ('cuttle-1', 1, gen_random_uuid(), 'T', '{}', decode(repeat('00', 32), 'hex'))"
        )
        conn.commit()
        for sql in ("UPDATE events SET type = 'X'", "DELETE FROM events", "TRUNCATE events"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(sql)
            conn.rollback()
        assert 1 == conn.execute("SELECT count(*) FROM events").fetchone()[0]  # type: ignore[index]


def test_events_keep_only_the_indexes_their_readers_use(owner_url: str) -> None:
    # Every index costs every append; 0008 dropped the category index nothing read.
    expected = {"events_pkey", "events_stream_version_key", "events_event_id_key"}
    assert expected | {"events_series_idx"} == event_indexes(owner_url)
    migrate.downgrade(owner_url, "0007")
    assert "events_category_idx" in event_indexes(owner_url)
    migrate.upgrade(owner_url)
    assert "events_category_idx" not in event_indexes(owner_url)
