"""``matchlog matches``: the listing as a table or JSON, with the API's filters."""

from __future__ import annotations

import json
from typing import Any

from litestar.testing import TestClient
from typer.testing import CliRunner

from cli.main import app
from tests.recording.play import create_match


def run(database_url: str, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        app, ["matches", *args], env={"MATCHLOG_DATABASE_URL": database_url, "COLUMNS": "250"}
    )
    return result.exit_code, result.stdout


class TestMatchesCli:
    def test_the_table_names_players_and_the_json_follows_the_filters(
        self,
        client: TestClient[Any],
        scorer: dict[str, str],
        admin: dict[str, str],
        database_url: str,
    ) -> None:
        ids = []
        for name in ("Ada", "Bob", "Cy", "Di"):
            r = client.post("/players", json={"display_name": name}, headers=scorer)
            ids.append(r.json()["id"])
        body = {"game": "cuttle", "players": ids[:2], "format": "quick", "first_dealer": 0}
        created = create_match(client, scorer, body)
        resigned = client.post(
            f"/matches/{created['id']}/resign",
            json={"seat": 1, "expected_version": created["version"]},
            headers=scorer,
        )
        done = resigned.json()["match"]
        live = create_match(client, scorer, {"game": "kozel", "players": ids, "first_dealer": 1})
        voided = client.post(
            f"/matches/{done['id']}/void",
            json={"reason": "test", "expected_version": done["version"]},
            headers=admin,
        )
        assert 200 == voided.status_code, voided.text
        code, out = run(database_url)
        assert 0 == code
        assert "Ada, Bob" in out and "Ada, Bob, Cy, Di" in out
        assert "void" in out and "live" in out
        code, out = run(database_url, "--format", "json", "--status", "live")
        assert 0 == code
        assert [live["id"]] == [m["id"] for m in json.loads(out)]
        code, out = run(database_url, "--format", "json", "--limit", "1")
        assert [live["id"]] == [m["id"] for m in json.loads(out)]
        code, out = run(database_url, "--format", "json", "--game", "cuttle")
        assert [("void", done["id"])] == [(m["status"], m["id"]) for m in json.loads(out)]

    def test_a_bad_status_is_refused(self, database_url: str) -> None:
        code, _ = run(database_url, "--status", "paused")
        assert 2 == code
