"""``matchlog matches``: the listing as a table or JSON, with the API's filters."""

from __future__ import annotations

import json
from typing import Any

from litestar.testing import TestClient

from tests.cli.support import assert_fits, invoke
from tests.recording.play import create_match


def run(database_url: str, *args: str) -> tuple[int, str]:
    result = invoke(database_url, "matches", *args)
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
        assert_fits(out)
        rows = [line.split() for line in out.splitlines()[2:]]
        # Newest first, every id whole, one player's name a line under it.
        assert [live["id"], "Ada", "kozel", "live", "0-0"] == rows[0][:5]
        assert [["Bob"], ["Cy"], ["Di"]] == rows[1:4]
        assert [[done["id"], "Ada", "cuttle", "void"], ["Bob"]] == [r[:4] for r in rows[4:]]
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
