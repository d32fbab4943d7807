"""``matchlog db``: a downgrade asks first and is refused whole, in one line, when it would
lose recorded data (#32 item 4, #35 item 4); a database a newer matchlog made, and a
revision that does not exist, are one line for every command that meets them (#35)."""

from __future__ import annotations

import psycopg
import pytest
from typer.testing import Result

from store import migrate
from tests.cli.support import assert_fits, invoke
from tests.store.test_roles import append_one


def db(database_url: str, owner_url: str, *args: str, input: str | None = None) -> Result:
    """Run ``matchlog db ARGS`` at 80 columns, migrating as the schema's owner."""
    return invoke(
        database_url, "db", *args, env={"MATCHLOG_MIGRATION_DATABASE_URL": owner_url}, input=input
    )


def newest_first() -> list[str]:
    """Every revision this matchlog knows, newest first (their names start with a number)."""
    return sorted(migrate.revisions(), reverse=True)


def one_error_line(result: Result) -> str:
    """Check ``result`` failed with exactly one line, no traceback; return the line."""
    assert 1 == result.exit_code, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert 1 == len(lines), result.stderr
    return lines[0]


class TestDowngrade:
    def test_asks_and_undoes_nothing_without_a_yes(self, database_url: str, owner_url: str) -> None:
        result = db(database_url, owner_url, "downgrade", input="n\n")
        assert 1 == result.exit_code
        assert result.stderr.startswith(
            f"Undo 1 revision (to {newest_first()[1]}):\n  {newest_first()[0]}\n"
            "What they added goes, with any data in it.\nDowngrade? [y/N]:"
        )
        assert result.stderr.endswith("nothing undone\n")
        assert "database at" not in result.stdout
        assert_fits(result.stderr)
        assert migrate.head() == migrate.current(owner_url)

    def test_no_answer_is_no(self, database_url: str, owner_url: str) -> None:
        """A closed stdin (a script, a cron job) undoes nothing."""
        result = db(database_url, owner_url, "downgrade", "base")
        assert 1 == result.exit_code
        assert "Traceback" not in result.output and "Aborted" not in result.output
        assert migrate.head() == migrate.current(owner_url)

    def test_a_yes_undoes_the_steps_listed(self, database_url: str, owner_url: str) -> None:
        result = db(database_url, owner_url, "downgrade", "0016_write_statements", input="y\n")
        assert 0 == result.exit_code, result.output
        assert result.stdout.endswith("\ndatabase at revision 0016_write_statements\n")
        listed = [line.strip() for line in result.stderr.splitlines()[1:4]]
        assert newest_first()[:3] == listed
        assert_fits(result.stderr)
        assert "0016_write_statements" == migrate.current(owner_url)

    def test_yes_skips_the_question(self, database_url: str, owner_url: str) -> None:
        result = db(database_url, owner_url, "downgrade", "--yes")
        assert (0, f"database at revision {newest_first()[1]}\n") == (
            result.exit_code,
            result.stdout,
        )
        assert "Downgrade?" not in result.stderr
        upgraded = db(database_url, owner_url, "upgrade")
        assert (0, f"database at revision {migrate.head()}\n") == (
            upgraded.exit_code,
            upgraded.stdout,
        )

    # The relative step lands on 0010, the last revision below chain v2, whatever the head.
    @pytest.mark.parametrize(
        "target", ["base", "0010", "0005", f"-{sum(r >= '0011' for r in migrate.revisions())}"]
    )
    def test_refused_before_anything_is_undone_when_chain_v2_events_exist(
        self, database_url: str, owner_url: str, target: str
    ) -> None:
        append_one(database_url)
        line = one_error_line(db(database_url, owner_url, "downgrade", "--yes", "--", target))
        assert line.startswith("error: DOWNGRADE_REFUSED: cannot go below 0011_chain_v2 (to 0010)")
        assert "1 event is hashed under chain v2" in line
        assert line.endswith("nothing was undone")
        assert migrate.head() == migrate.current(owner_url)

    def test_refused_before_the_question(self, database_url: str, owner_url: str) -> None:
        append_one(database_url)
        result = db(database_url, owner_url, "downgrade", "base", input="y\n")
        assert "Downgrade?" not in result.output
        assert one_error_line(result).startswith("error: DOWNGRADE_REFUSED: ")

    def test_the_app_role_is_refused_before_the_question(
        self, database_url: str, owner_url: str
    ) -> None:
        result = invoke(database_url, "db", "downgrade", input="y\n")
        assert one_error_line(result).startswith("error: MIGRATION_REFUSED: ")
        assert migrate.head() == migrate.current(owner_url)

    def test_at_the_target_already_nothing_is_asked(
        self, database_url: str, owner_url: str
    ) -> None:
        result = db(database_url, owner_url, "downgrade", migrate.head())
        assert 0 == result.exit_code, result.output
        assert f"database at revision {migrate.head()}; nothing to undo\n" == result.stdout


@pytest.mark.parametrize("command", ["upgrade", "downgrade"])
def test_an_unknown_revision_is_one_line(database_url: str, owner_url: str, command: str) -> None:
    yes = ("--yes",) if command == "downgrade" else ()
    line = one_error_line(db(database_url, owner_url, command, *yes, "0042_nope"))
    assert line == (
        f"error: UNKNOWN_REVISION: no revision '0042_nope': this matchlog "
        f"({migrate.matchlog_version()}) knows 0001 to {migrate.head()}, and base; "
        "`matchlog db current` says where the database is"
    )
    assert migrate.head() == migrate.current(owner_url)


def _made_by_a_newer_matchlog(owner_url: str, version: str | None) -> None:
    with psycopg.connect(owner_url, autocommit=True) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0031_tomorrow'")
        comment = "NULL" if version is None else f"'matchlog {version}'"
        conn.execute(f"COMMENT ON TABLE alembic_version IS {comment}")


NEWER = [
    ("serve",),
    ("verify",),
    ("matches",),
    ("db", "upgrade"),
    ("db", "downgrade", "--yes"),
    ("projections", "rebuild"),
]


@pytest.mark.parametrize("args", NEWER, ids=" ".join)
def test_a_database_of_a_newer_matchlog_is_one_line(
    database_url: str, owner_url: str, args: tuple[str, ...]
) -> None:
    _made_by_a_newer_matchlog(owner_url, "9.4.0")
    result = invoke(database_url, *args, env={"MATCHLOG_MIGRATION_DATABASE_URL": owner_url})
    line = one_error_line(result)
    assert line == (
        f"error: DATABASE_TOO_NEW: this database is newer than matchlog "
        f"{migrate.matchlog_version()}: matchlog 9.4.0 made it (schema 0031_tomorrow); install "
        "matchlog 9.4.0 or newer (pip install -U matchlog)"
    )
    assert "0031_tomorrow" == migrate.current(owner_url)


def test_a_newer_database_that_does_not_say_who_made_it(database_url: str, owner_url: str) -> None:
    _made_by_a_newer_matchlog(owner_url, None)
    line = one_error_line(invoke(database_url, "matches"))
    assert "a newer matchlog made it (schema 0031_tomorrow)" in line


def test_current_says_who_made_a_newer_database(database_url: str, owner_url: str) -> None:
    _made_by_a_newer_matchlog(owner_url, "9.4.0")
    result = db(database_url, owner_url, "current")
    assert (
        0,
        "0031_tomorrow (made by matchlog 9.4.0; unknown to matchlog "
        f"{migrate.matchlog_version()})\n",
    ) == (result.exit_code, result.stdout)


def test_a_migration_leaves_the_version_that_ran_it(database_url: str, owner_url: str) -> None:
    assert 0 == db(database_url, owner_url, "downgrade", "--yes").exit_code
    assert migrate.made_by(owner_url) == migrate.matchlog_version()
