"""The suite never touches a database it did not make, whatever the shell exports (#35)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest

from store import migrate
from store.database import with_database
from tests.environment import TEST_KNOBS, clean_env, matchlog_variables

ROOT = Path(__file__).resolve().parent.parent

# The tests that, before #35, migrated, rebuilt and revoked on the shell's database.
_TOUCHY = (
    "tests/store/test_roles.py",
    "tests/cli/test_tokens.py::TestTokensCli::test_created_token_authenticates_until_revoked",
    "tests/projections/test_read_models.py::TestRebuild::test_cli_rebuild_reports_and_changes_nothing",
    "tests/cli/test_data_dir.py",
    "tests/cli/test_db.py",
)


def _sessions(admin_url: str, name: str) -> int:
    """Return how many client sessions database ``name`` has had, once none is left in it.

    A backend's counts reach the statistics when it ends, so wait for the last to go.
    (Sessions, not transactions: autovacuum's count as transactions too.)
    """
    with psycopg.connect(admin_url, autocommit=True) as conn:
        for _ in range(100):
            conn.execute("SELECT pg_stat_clear_snapshot()")
            row = conn.execute(
                "SELECT numbackends, sessions FROM pg_stat_database WHERE datname = %s",
                (name,),
            ).fetchone()
            assert row is not None
            if row[0] == 0:
                time.sleep(1.0)  # let the last backend's counts land
                conn.execute("SELECT pg_stat_clear_snapshot()")
                again = conn.execute(
                    "SELECT sessions FROM pg_stat_database WHERE datname = %s",
                    (name,),
                ).fetchone()
                assert again is not None
                return int(again[0])
            time.sleep(0.1)
    raise AssertionError(f"sessions stayed open in {name}")


def test_each_test_starts_without_the_shells_settings() -> None:
    """The autouse fixtures leave no ``MATCHLOG_*`` setting; a child gets only its own."""
    assert [] == matchlog_variables()
    env = clean_env(MATCHLOG_PORT="1")
    assert {"MATCHLOG_PORT": "1"} == {
        k: v for k, v in env.items() if k.startswith("MATCHLOG_") and k not in TEST_KNOBS
    }


@pytest.mark.timeout(900)
def test_a_shells_database_is_untouched_by_the_cli_and_db_tests(
    admin_url: str, owner_url: str, database_url: str
) -> None:
    """Run the tests that once migrated, rebuilt and revoked on the shell's database with
    both URLs exported at a database holding a sentinel: not one session reaches it."""
    with psycopg.connect(owner_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE sentinel (note text)")
        conn.execute("INSERT INTO sentinel VALUES ('the club''s real data')")
    name = urlsplit(owner_url).path.lstrip("/")
    before = _sessions(admin_url, name)
    env = clean_env(
        MATCHLOG_DATABASE_URL=database_url,
        MATCHLOG_MIGRATION_DATABASE_URL=owner_url,
        MATCHLOG_DATA_DIR=str(ROOT / "nowhere-the-tests-may-go"),
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *_TOUCHY],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=880,
    )
    assert 0 == done.returncode, done.stdout[-3000:] + done.stderr[-2000:]
    assert before == _sessions(admin_url, name)
    # The measure counts: one session of ours is one more.
    with psycopg.connect(owner_url) as conn:
        conn.execute("SELECT 1")
    assert before + 1 == _sessions(admin_url, name)
    with psycopg.connect(with_database(owner_url, name)) as conn:
        assert [("the club's real data",)] == conn.execute("SELECT note FROM sentinel").fetchall()
    assert migrate.head() == migrate.current(owner_url)
    assert not (ROOT / "nowhere-the-tests-may-go").exists()
    assert "MATCHLOG_DATABASE_URL" not in os.environ
