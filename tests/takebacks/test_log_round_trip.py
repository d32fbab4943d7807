"""Takebacks, voids and notes survive an export and a re-import, byte for byte."""

from __future__ import annotations

import random
from typing import Any

from litestar.testing import TestClient

from tests.database import fresh_database
from tests.logs.support import cli
from tests.recording.play import create_match


def test_corrections_round_trip_through_the_canonical_log(
    client: TestClient[Any],
    admin: dict[str, str],
    scorer: dict[str, str],
    make_players: Any,
    database_url: str,
    admin_url: str,
    template_database: str,
) -> None:
    match = create_match(
        client, scorer, {"game": "kozel", "players": make_players(4), "options": {"loss_limit": 2}}
    )
    url = f"/matches/{match['id']}"
    rng = random.Random(4)
    version = match["version"]
    for _ in range(3):
        legal = client.get(f"{url}/legal-moves", headers=scorer).json()
        answer = client.post(
            f"{url}/moves",
            json={"moves": [rng.choice(legal["moves"])], "expected_version": version},
            headers=scorer,
        )
        version = answer.json()["version"]
    back = client.post(
        f"{url}/takeback",
        json={"to_version": version - 1, "reason": "misclick", "expected_version": version},
        headers=scorer,
    )
    assert 200 == back.status_code, back.text
    version = back.json()["version"]
    note = client.post(
        f"{url}/notes",
        json={"version": 2, "text": "clock 10:02", "expected_version": version},
        headers=scorer,
    )
    assert note.status_code in (200, 201), note.text
    version = note.json()["version"]
    resigned = client.get(f"{url}/events", headers=scorer).json()["items"]
    assert {"TakenBack", "NoteAdded"} <= {e["type"] for e in resigned}

    code, exported, err = cli(database_url, "export", match["id"])
    assert 0 == code, err
    with fresh_database(admin_url, template_database) as other:
        code, _, err = cli(other, "import", "-", input=exported)
        assert 0 == code, err
        code, again, err = cli(other, "export", match["id"])
        assert 0 == code, err
    assert exported == again
