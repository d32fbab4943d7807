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
        cup = client.post(
            "/competitions", json={"name": "Club Night", "game": "kozel"}, headers=admin
        )
        assert 201 == cup.status_code, cup.text
        live = create_match(
            client,
            scorer,
            {
                "game": "kozel",
                "players": ids,
                "first_dealer": 1,
                "competition_id": cup.json()["id"],
            },
        )
        voided = client.post(
            f"/matches/{done['id']}/void",
            json={"reason": "test", "expected_version": done["version"]},
            headers=admin,
        )
        assert 200 == voided.status_code, voided.text
        code, out = run(database_url)
        assert 0 == code
        assert_fits(out)
        rows = [line.split("  ") for line in out.splitlines()[2:]]
        rows = [[cell.strip() for cell in row if cell.strip()] for row in rows]
        # Newest first, every id whole; Kozel's teams by side (#32), its competition, and
        # its result: the status, then the score labelled as the pages label it. At 80
        # columns the game, variant and creation time have gone.
        assert ["id", "players", "competition", "result"] == out.split("\n")[0].split()
        assert [live["id"], "A: Ada & Cy", "Club Night", "live"] == rows[0]
        assert [["B: Bob & Di", "Loss points"], ["A 0 · B 0"]] == rows[1:3]
        # A Cuttle match, in no competition: one player's name a line.
        assert [done["id"], "Ada", "void"] == rows[3]
        assert [["Bob", "Rounds won"], ["Ada 0 · Bob 0"]] == rows[4:]
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
