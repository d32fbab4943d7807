from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import psycopg
import pytest
import sqlalchemy.exc
from psycopg.types.json import Jsonb

import migrations
from domain.events import NewEvent
from store import migrate
from store.chain import ChainReport, verify
from store.events import append


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


def test_the_games_of_competitions_are_the_registrys_from_0019(owner_url: str) -> None:
    """0019 drops 0002's CHECK on competitions.game (domain.games lists the games); its
    downgrade restores it."""
    insert = (
        "INSERT INTO competitions (id, name, game, variant, match_format)"
        " VALUES (%s, 'Draw high', 'highcard', 'default', '{}')"
    )
    with psycopg.connect(owner_url) as conn:
        conn.execute(insert, (uuid.uuid4(),))
        conn.execute("DELETE FROM competitions")
    migrate.downgrade(owner_url, "0018_live_feeds")
    with psycopg.connect(owner_url) as conn, pytest.raises(psycopg.errors.CheckViolation):
        conn.execute(insert, (uuid.uuid4(),))
    migrate.upgrade(owner_url)
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


# Migration 0010's append, as store/events.py called it before chain v2.
_APPEND_0010 = (
    "SELECT version FROM events_append(%s, %s, %s::uuid[], %s::text[], %s::text[], "
    "%s::jsonb[], NULL, %s::timestamptz[])"
)


def _append_as_0010(url: str, stream: str, count: int, expected: int) -> None:
    ids = [uuid.uuid4() for _ in range(count)]
    data = [f'{{"n":{n}}}' for n in range(count)]
    with psycopg.connect(url) as conn:
        conn.execute(
            _APPEND_0010,
            (stream, expected, ids, ["T"] * count, data, [Jsonb({"by": "old"})] * count, None),
        )


def _walk(url: str) -> ChainReport:
    async def body() -> ChainReport:
        async with await psycopg.AsyncConnection.connect(url) as conn:
            return await verify(conn)

    return asyncio.run(body())


def _append(url: str, stream: str, count: int) -> None:
    async def body() -> None:
        async with await psycopg.AsyncConnection.connect(url) as conn:
            events = [NewEvent(uuid.uuid4(), "T", {"n": n}, {"by": "new"}) for n in range(count)]
            await append(conn, stream, events, None)
            await conn.commit()

    asyncio.run(body())


def test_a_log_written_before_chain_v2_upgrades_and_verifies(owner_url: str) -> None:
    migrate.downgrade(owner_url, "0010")
    _append_as_0010(owner_url, "cuttle-old", 3, 0)
    _append_as_0010(owner_url, "kozel-old", 2, 0)
    migrate.upgrade(owner_url)
    assert _walk(owner_url).ok
    _append(owner_url, "cuttle-old", 2)
    _append(owner_url, "kozel-new", 1)
    report = _walk(owner_url)
    assert report.ok, report.problems
    assert {"cuttle-old": 5, "kozel-old": 2, "kozel-new": 1} == {
        name: head.version for name, head in report.heads.items()
    }
    with psycopg.connect(owner_url) as conn:
        rows = conn.execute(
            "SELECT stream, array_agg(chain_version ORDER BY version) FROM events GROUP BY stream"
        ).fetchall()
    assert {"cuttle-old": [1, 1, 1, 2, 2], "kozel-old": [1, 1], "kozel-new": [2]} == dict(rows)


def test_chain_v2_downgrades_only_while_no_event_needs_it(owner_url: str) -> None:
    migrate.downgrade(owner_url, "0010")
    _append_as_0010(owner_url, "cuttle-old", 2, 0)
    migrate.upgrade(owner_url)
    migrate.downgrade(owner_url, "0010")
    assert "0010" == migrate.current(owner_url)
    migrate.upgrade(owner_url)
    _append(owner_url, "cuttle-old", 1)
    migrate.downgrade(owner_url, "0011_chain_v2")
    with pytest.raises(migrate.DowngradeRefusedError, match="1 event is hashed under chain v2"):
        migrate.downgrade(owner_url, "0010")
    assert "0011_chain_v2" == migrate.current(owner_url)
    # alembic run by hand still meets the migration's own check.
    from alembic import command

    with pytest.raises(sqlalchemy.exc.DBAPIError, match="events hashed under chain v2 exist"):
        command.downgrade(migrate.alembic_config(owner_url), "0010")
    assert "0011_chain_v2" == migrate.current(owner_url)
    migrate.upgrade(owner_url)
    assert _walk(owner_url).ok


def test_a_refused_downgrade_undoes_nothing(owner_url: str) -> None:
    """Checked whole before the first step: the database stays at head (#35)."""
    _append(owner_url, "cuttle-new", 1)
    with pytest.raises(migrate.DowngradeRefusedError) as refused:
        migrate.downgrade(owner_url, "base")
    assert refused.value.message.startswith("cannot go below 0011_chain_v2 (to 0010): ")
    assert migrate.head() == migrate.current(owner_url)
    assert _walk(owner_url).ok


def test_no_migration_loads_another() -> None:
    versions = Path(migrations.__file__).parent / "versions"
    for path in versions.glob("*.py"):
        assert "importlib" not in path.read_text(), path.name
