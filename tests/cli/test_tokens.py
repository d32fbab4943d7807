from __future__ import annotations

import re
import uuid

import psycopg
from litestar.testing import TestClient
from typer.testing import CliRunner

from api.app import create_app
from cli.main import app
from service.settings import Settings
from tests.cli.support import assert_fits, invoke

_ID = re.compile(r"token ([0-9a-f-]{36})")


def run(database_url: str, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        app, ["tokens", *args], env={"MATCHLOG_DATABASE_URL": database_url, "COLUMNS": "200"}
    )
    return result.exit_code, result.stdout, result.stderr


class TestTokensCli:
    def test_created_token_authenticates_until_revoked(self, database_url: str) -> None:
        code, out, err = run(database_url, "create", "--role", "scorer", "--name", "tablet")
        assert 0 == code
        secret = out.strip()
        assert secret.startswith("mlt_")
        token_id = _ID.search(err).group(1)  # type: ignore[union-attr]
        headers = {"Authorization": f"Bearer {secret}"}
        with TestClient(create_app(Settings(database_url=database_url))) as client:
            created = client.post("/players", json={"display_name": "Ada"}, headers=headers)
            assert 201 == created.status_code
            assert (0, f"token {token_id} revoked\n") == run(database_url, "revoke", token_id)[:2]
            refused = client.post("/players", json={"display_name": "Bob"}, headers=headers)
        assert 401 == refused.status_code

    def test_list_never_shows_the_secret(self, database_url: str) -> None:
        _, secret, _ = run(database_url, "create", "--role", "admin", "--name", "ops")
        code, out, _ = run(database_url, "list")
        assert 0 == code
        assert "ops" in out
        assert "admin" in out
        assert secret.strip() not in out
        assert secret.strip()[4:12] not in out

    def test_scorer_limited_to_competitions(self, database_url: str) -> None:
        competition = str(uuid.uuid4())
        code, _, err = run(database_url, "create", "--role", "scorer", "--competition", competition)
        assert 1 == code
        assert f"error: COMPETITION_NOT_FOUND: no competition has id {competition!r}\n" == err

    def test_a_name_with_a_bidi_override_is_refused(self, database_url: str) -> None:
        """The API's text rule holds for a token named on the command line (#29)."""
        code, out, err = run(database_url, "create", "--role", "scorer", "--name", "\u202etelbat")
        assert (1, "") == (code, out)
        assert err.startswith("error: VALIDATION_FAILED: must not contain U+202E")

    def test_admin_cannot_be_limited(self, database_url: str) -> None:
        code, _, err = run(
            database_url, "create", "--role", "admin", "--competition", str(uuid.uuid4())
        )
        assert 1 == code
        assert err.startswith("error: MALFORMED:")

    def test_revoke_unknown_token(self, database_url: str) -> None:
        code, _, err = run(database_url, "revoke", str(uuid.uuid4()))
        assert 1 == code
        assert err.startswith("error: TOKEN_NOT_FOUND:")

    def test_revoke_malformed_id(self, database_url: str) -> None:
        code, _, err = run(database_url, "revoke", "not-an-id")
        assert 1 == code
        assert err.startswith("error: MALFORMED:")

    def test_unknown_role_is_refused(self, database_url: str) -> None:
        assert 2 == run(database_url, "create", "--role", "owner")[0]

    def test_revoke_twice_keeps_the_token_revoked(self, database_url: str) -> None:
        _, _, err = run(database_url, "create", "--role", "scorer", "--name", "old")
        token_id = _ID.search(err).group(1)  # type: ignore[union-attr]
        assert 0 == run(database_url, "revoke", token_id)[0]
        assert 0 == run(database_url, "revoke", token_id)[0]
        _, everything, _ = run(database_url, "list")
        _, active, _ = run(database_url, "list", "--active")
        assert token_id in everything
        assert token_id not in active

    def test_scorer_limited_to_an_existing_competition(self, database_url: str) -> None:
        _, admin_secret, _ = run(database_url, "create", "--role", "admin")
        headers = {"Authorization": f"Bearer {admin_secret.strip()}"}
        with TestClient(create_app(Settings(database_url=database_url))) as client:
            competition = client.post(
                "/competitions", json={"name": "Cup", "game": "kozel"}, headers=headers
            ).json()["id"]
        code, _, _ = run(database_url, "create", "--role", "scorer", "--competition", competition)
        assert 0 == code
        _, listing, _ = run(database_url, "list")
        assert re.search(r"scorer +Cup", listing), listing

    def test_unreachable_database_is_one_line(self) -> None:
        code, _, err = run("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2", "list")
        assert 1 == code
        assert err.startswith("error: DATABASE_UNAVAILABLE: cannot reach the database")
        assert 1 == err.count("\n")

    def test_unmigrated_database_says_to_upgrade(self, database_url: str, owner_url: str) -> None:
        with psycopg.connect(owner_url) as conn:
            # CASCADE: the organiser's records point at the tokens that made them.
            conn.execute("DROP TABLE api_tokens CASCADE")
        code, _, err = run(database_url, "create", "--role", "admin")
        assert 1 == code
        assert err.startswith("error: SCHEMA_OUTDATED:")

    def test_list_fits_80_columns_with_ids_whole_and_names_wrapped(self, database_url: str) -> None:
        label = "the scoring tablet by the club's front door"
        created = invoke(database_url, "tokens", "create", "--role", "admin", "--name", label)
        token_id = _ID.search(created.stderr).group(1)  # type: ignore[union-attr]
        listing = invoke(database_url, "tokens", "list").stdout
        assert_fits(listing)
        lines = listing.splitlines()
        header = next(line for line in lines if line.startswith("id "))
        at = next(n for n, line in enumerate(lines) if line.startswith(token_id))
        assert re.fullmatch(rf"{token_id}  the \w+( \w+)* +admin +all +live *", lines[at])
        # The name wraps at its spaces, in its column, over the token's lines.
        start, end = header.index("name"), header.index("role")
        shown = " ".join(line[start:end].strip() for line in lines[at : at + 6])
        assert label == " ".join(shown.split())

    def test_a_revoked_token_shows_when_at_80_columns(self, database_url: str) -> None:
        """Its status says revoked, and when; a live one's says live and its creation (#32)."""
        kept = _ID.search(invoke(database_url, "tokens", "create", "--role", "admin").stderr)
        _, _, err = run(database_url, "create", "--role", "scorer", "--name", "old")
        token_id = _ID.search(err).group(1)  # type: ignore[union-attr]
        assert 0 == invoke(database_url, "tokens", "revoke", token_id).exit_code
        listing = invoke(database_url, "tokens", "list").stdout
        assert_fits(listing)
        lines = listing.splitlines()
        assert ["id", "name", "role", "scope", "status"] == lines[1].split()
        at = next(n for n, line in enumerate(lines) if line.startswith(token_id))
        assert re.fullmatch(rf"{token_id}  old +scorer +all +revoked \d+ \w+ *", lines[at])
        assert re.fullmatch(r" +created \d+ \w+ *", lines[at + 1])
        assert kept is not None
        at = next(n for n, line in enumerate(lines) if line.startswith(kept.group(1)))
        assert re.fullmatch(r".* +admin +all +live *", lines[at])
        assert re.fullmatch(r" +created \d+ \w+ *", lines[at + 1])
        wide = CliRunner().invoke(
            app, ["tokens", "list"], env={"MATCHLOG_DATABASE_URL": database_url, "COLUMNS": "150"}
        )
        header = wide.stdout.splitlines()[1].split()
        assert ["status", "created", "revoked", "expires"] == header[-4:]
        row = next(line for line in wide.stdout.splitlines() if line.startswith(token_id))
        assert re.fullmatch(r".* scorer +all +revoked( +\d{4}-\d\d-\d\d \d\d:\d\d){2} *", row)
