"""Takebacks, voids and notes over HTTP, and the read models after them."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import psycopg
import pytest
from litestar.testing import TestClient
from psycopg_pool import AsyncConnectionPool

from domain.events import Event
from domain.stream import Play, TakeBack, move_text
from projections.live import LiveFeed, LiveHub
from projections.standings import FinishedMatch, ratings
from store.events import VersionConflictError, read_stream
from store.recorder import Recorder
from tests.projections.test_read_models import run_rebuild, snapshot
from tests.recording.play import create_match, play_to_end, shuffled_deal

Headers = dict[str, str]


def move(
    client: TestClient[Any], headers: Headers, match: dict[str, Any], rng: random.Random
) -> dict[str, Any]:
    """Record one random legal move and return the match body."""
    legal = client.get(f"/matches/{match['id']}/legal-moves", headers=headers).json()
    if legal["cards_awaited"]:
        text = "cards " + " ".join(rng.sample(legal["nameable"], legal["cards_awaited"]))
    else:
        text = rng.choice(legal["moves"])
    r = client.post(
        f"/matches/{match['id']}/moves",
        json={"moves": [text]},
        headers={**headers, "If-Match": f'"{match["version"]}"'},
    )
    assert 200 == r.status_code, r.text
    body: dict[str, Any] = r.json()["match"]
    return body


def take_back(
    client: TestClient[Any], headers: Headers, match: dict[str, Any], to_version: int, reason: str
) -> Any:
    return client.post(
        f"/matches/{match['id']}/takeback",
        json={"to_version": to_version, "reason": reason},
        headers={**headers, "If-Match": f'"{match["version"]}"'},
    )


def without_version(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k != "version"}


@pytest.fixture(name="live")
def _live(client: TestClient[Any], scorer: Headers, make_players: Any) -> dict[str, Any]:
    """A server-dealt Kozel match with six moves recorded, and what it looked like meanwhile."""
    players = make_players(4)
    match = create_match(client, scorer, {"game": "kozel", "players": players, "first_dealer": 0})
    rng = random.Random(5)
    seen = {}
    for _ in range(6):
        match = move(client, scorer, match, rng)
        legal = client.get(f"/matches/{match['id']}/legal-moves", headers=scorer).json()
        seen[match["version"]] = (match, legal)
    return {"match": match, "seen": seen}


class TestTakebackOverHttp:
    def test_the_match_and_its_legal_moves_are_as_they_were(
        self, client: TestClient[Any], scorer: Headers, live: dict[str, Any]
    ) -> None:
        match, seen = live["match"], live["seen"]
        target = sorted(seen)[2]
        r = take_back(client, scorer, match, target, "wrong card")
        assert 200 == r.status_code, r.text
        assert ["TakenBack"] == [e["type"] for e in r.json()["events"]]
        now = client.get(f"/matches/{match['id']}", headers=scorer).json()
        legal = client.get(f"/matches/{match['id']}/legal-moves", headers=scorer).json()
        then, then_legal = seen[target]
        assert without_version(then) == without_version(now)
        assert without_version(then_legal) == without_version(legal)
        assert match["version"] + 1 == now["version"]

    def test_a_stale_version_is_refused(
        self, client: TestClient[Any], scorer: Headers, live: dict[str, Any]
    ) -> None:
        match = {**live["match"], "version": live["match"]["version"] - 1}
        r = take_back(client, scorer, match, sorted(live["seen"])[0], "wrong card")
        assert 412 == r.status_code
        assert "VERSION_CONFLICT" == r.json()["code"]

    def test_a_takeback_needs_a_scorer(self, client: TestClient[Any], live: dict[str, Any]) -> None:
        r = take_back(client, {}, live["match"], sorted(live["seen"])[0], "wrong card")
        assert 401 == r.status_code

    def test_the_timeline_strikes_taken_back_moves_and_lists_notes(
        self, client: TestClient[Any], scorer: Headers, live: dict[str, Any]
    ) -> None:
        match, seen = live["match"], live["seen"]
        versions = sorted(seen)
        url = f"/matches/{match['id']}"
        r = client.post(
            f"{url}/notes",
            json={
                "version": versions[3],
                "text": "clock 12:03",
                "expected_version": match["version"],
            },
            headers=scorer,
        )
        assert 201 == r.status_code, r.text
        match = r.json()["match"]
        assert 200 == take_back(client, scorer, match, versions[1], "misdeal seen").status_code
        steps = client.get(f"{url}/timeline", headers=scorer).json()["steps"]
        assert 6 == len(steps)
        struck = [s for s in steps if s["taken_back"] is not None]
        assert 4 == len(struck)
        assert {"misdeal seen"} == {s["taken_back"]["reason"] for s in struck}
        assert {"scorer"} == {s["taken_back"]["by"]["role"] for s in struck}
        noted = [n["text"] for s in steps for n in s["notes"]]
        assert ["clock 12:03"] == noted
        body = client.get(f"{url}/timeline", headers=scorer).json()
        assert [versions[1]] == [t["to_version"] for t in body["takebacks"]]
        assert ["clock 12:03"] == [n["text"] for n in body["notes"]]
        public = client.get(f"{url}/timeline").json()["steps"]
        assert [s["taken_back"] is None for s in steps] == [s["taken_back"] is None for s in public]

    def test_a_replay_inside_a_taken_back_stretch_shows_what_the_table_saw(
        self, client: TestClient[Any], scorer: Headers, live: dict[str, Any]
    ) -> None:
        match, seen = live["match"], live["seen"]
        versions = sorted(seen)
        take_back(client, scorer, match, versions[1], "wrong seat")
        url = f"/matches/{match['id']}/replay"
        for ply, version in enumerate(versions, start=1):
            body = client.get(url, params={"ply": ply}).json()
            assert seen[version][0]["round"]["view"] == body["view"]
            assert (ply > 2) == (body["taken_back"] is not None)


class TestNotes:
    def test_a_note_with_braces_is_refused(
        self, client: TestClient[Any], scorer: Headers, live: dict[str, Any]
    ) -> None:
        match = live["match"]
        r = client.post(
            f"/matches/{match['id']}/notes",
            json={"version": 2, "text": "{not} a note", "expected_version": match["version"]},
            headers=scorer,
        )
        assert 422 == r.status_code
        assert "NOTE_INVALID" == r.json()["code"]

    def test_a_note_pasted_with_windows_line_ends_is_stored_with_lf(
        self, client: TestClient[Any], scorer: Headers, live: dict[str, Any]
    ) -> None:
        """CR LF and a lone CR become LF, and the note is trimmed (#29)."""
        match = live["match"]
        r = client.post(
            f"/matches/{match['id']}/notes",
            json={"version": 2, "text": "ruling:\r\nthe eight\rstands\r\n"},
            headers={**scorer, "If-Match": f'"{match["version"]}"'},
        )
        assert 201 == r.status_code, r.text
        assert "ruling:\nthe eight\nstands" == r.json()["events"][0]["data"]["text"]

    @pytest.mark.parametrize("text", ["\u202eruling", "ruling\u0085", "\ufeffruling", "\u200b"])
    def test_a_note_that_hides_or_shows_nothing_is_refused(
        self, client: TestClient[Any], scorer: Headers, live: dict[str, Any], text: str
    ) -> None:
        match = live["match"]
        r = client.post(
            f"/matches/{match['id']}/notes",
            json={"version": 2, "text": text, "expected_version": match["version"]},
            headers=scorer,
        )
        assert (422, "NOTE_INVALID") == (r.status_code, r.json()["code"])

    def test_a_reason_with_a_bidi_override_is_refused(
        self, client: TestClient[Any], scorer: Headers, live: dict[str, Any]
    ) -> None:
        r = take_back(client, scorer, live["match"], 2, "wrong \u202edrac")
        assert (422, "REASON_REQUIRED") == (r.status_code, r.json()["code"])


class TestMatchOver:
    def test_no_takeback_reaches_behind_the_end_for_anyone(
        self, client: TestClient[Any], scorer: Headers, admin: Headers, make_players: Any
    ) -> None:
        players = make_players(2)
        match = create_match(
            client, scorer, {"game": "cuttle", "players": players, "format": "quick"}
        )
        match = play_to_end(client, scorer, match, random.Random(2))
        steps = client.get(f"/matches/{match['id']}/timeline").json()["steps"]
        for headers in (scorer, admin):
            r = take_back(client, headers, match, steps[-1]["before_version"], "too late")
            assert 422 == r.status_code
            assert "MATCH_OVER" == r.json()["code"]


def finished(
    client: TestClient[Any], scorer: Headers, competition: str, players: list[str], seat: int
) -> dict[str, Any]:
    """Create a match of ``competition`` and end it: ``seat`` resigns the match."""
    body = {"game": "cuttle", "players": players, "competition_id": competition, "first_dealer": 0}
    match = create_match(client, scorer, body)
    r = client.post(
        f"/matches/{match['id']}/resign",
        json={"seat": seat, "expected_version": match["version"]},
        headers=scorer,
    )
    assert 200 == r.status_code, r.text
    ended: dict[str, Any] = r.json()["match"]
    return ended


class TestVoid:
    def test_an_admin_voids_a_finished_match_and_it_counts_nowhere(
        self,
        client: TestClient[Any],
        scorer: Headers,
        admin: Headers,
        make_players: Any,
        make_competition: Any,
        database_url: str,
    ) -> None:
        cup = make_competition(game="cuttle", variant="standard", format="quick")
        a, b, c = make_players(3)
        first = finished(client, scorer, cup, [a, b], 1)
        second = finished(client, scorer, cup, [b, c], 0)
        url = f"/matches/{first['id']}/void"
        body = {"reason": "recorded twice", "expected_version": first["version"]}
        r = client.post(url, json=body, headers=scorer)
        assert 403 == r.status_code
        r = client.post(url, json=body, headers=admin)
        assert 200 == r.status_code, r.text
        assert "void" == r.json()["match"]["status"]
        listed = client.get("/matches", params={"status": "void"}).json()["items"]
        assert [first["id"]] == [m["id"] for m in listed]
        standings = client.get(f"/competitions/{cup}/standings").json()
        assert 1 == standings["matches"]
        assert {b, c} == {row["entity"] for row in standings["players"]}
        series = client.get(f"/matches/{second['id']}/series").json()
        expected = ratings(
            [
                FinishedMatch(
                    second["id"], "cuttle", (b, c), tuple(series["rounds"]), series["result"]
                )
            ]
        )
        assert expected == {row["entity"]: row["rating"] for row in standings["players"]}
        note = {
            "version": 1,
            "text": "voided: see match 12",
            "expected_version": first["version"] + 1,
        }
        r = client.post(f"/matches/{first['id']}/notes", json=note, headers=admin)
        assert 201 == r.status_code, r.text
        assert "void" == r.json()["match"]["status"]
        before = snapshot(database_url)
        run_rebuild(database_url)
        assert before == snapshot(database_url)

    def test_a_live_match_cannot_be_voided(
        self, client: TestClient[Any], admin: Headers, live: dict[str, Any]
    ) -> None:
        match = live["match"]
        r = client.post(
            f"/matches/{match['id']}/void",
            json={"reason": "oops", "expected_version": match["version"]},
            headers=admin,
        )
        assert 422 == r.status_code
        assert "VOID_NOT_FINISHED" == r.json()["code"]


class TestReadModelsAfterTakebacks:
    def test_projections_and_ratings_equal_their_rebuild(
        self,
        client: TestClient[Any],
        scorer: Headers,
        make_players: Any,
        make_competition: Any,
        database_url: str,
    ) -> None:
        cup = make_competition(game="kozel", format={"loss_limit": 6}, tiebreaks=["wins"])
        players = make_players(4)
        rng = random.Random(9)
        body = {
            "game": "kozel",
            "players": players,
            "competition_id": cup,
            "first_dealer": 0,
            "dealing": "scorer",
        }
        match = create_match(client, scorer, body)
        undone = 0
        while match["status"] == "live":
            if match["round"] is None:
                r = client.post(
                    f"/matches/{match['id']}/rounds",
                    json={
                        **shuffled_deal("kozel", "default", rng),
                        "expected_version": match["version"],
                    },
                    headers=scorer,
                )
                assert 201 == r.status_code, r.text
                match = r.json()["match"]
                continue
            before = match
            match = move(client, scorer, match, rng)
            if match["round"] is None and undone < 2 and match["status"] == "live":
                # Take back the move that ended the deal, and its score with it.
                steps = client.get(f"/matches/{match['id']}/timeline", headers=scorer).json()[
                    "steps"
                ]
                r = take_back(client, scorer, match, steps[-1]["before_version"], "wrong card")
                assert 200 == r.status_code, r.text
                assert without_version(before) == without_version(r.json()["match"])
                match = r.json()["match"]
                undone += 1
        assert 2 == undone
        series = client.get(f"/matches/{match['id']}/series").json()
        assert len(series["rounds"]) == match["rounds_started"]
        before_rebuild = snapshot(database_url)
        run_rebuild(database_url)
        assert before_rebuild == snapshot(database_url)


class TestConcurrentWrites:
    def test_a_takeback_and_a_move_at_one_version_one_wins(
        self, client: TestClient[Any], scorer: Headers, live: dict[str, Any], database_url: str
    ) -> None:
        match = live["match"]
        legal = client.get(f"/matches/{match['id']}/legal-moves", headers=scorer).json()
        stream = f"kozel-{match['id']}"
        target = sorted(live["seen"])[0]

        async def race() -> list[Any]:
            async with AsyncConnectionPool(database_url, open=False, min_size=2) as pool:
                recorders = [Recorder(pool), Recorder(pool)]
                return await asyncio.gather(
                    recorders[0].record(
                        stream, [TakeBack(target, "race")], expected_version=match["version"]
                    ),
                    recorders[1].record(
                        stream, [Play(legal["moves"][0])], expected_version=match["version"]
                    ),
                    return_exceptions=True,
                )

        results = asyncio.run(race())
        conflicts = [r for r in results if isinstance(r, VersionConflictError)]
        assert 1 == len(conflicts)
        with psycopg.connect(database_url) as conn:
            row = conn.execute(
                "SELECT max(version) FROM events WHERE stream = %s", (stream,)
            ).fetchone()
        assert row is not None and match["version"] + 1 == row[0]


class TestRecorderBatches:
    def test_a_move_after_a_takeback_in_one_batch_is_decided_at_the_restored_version(
        self, client: TestClient[Any], scorer: Headers, live: dict[str, Any], database_url: str
    ) -> None:
        match, seen = live["match"], live["seen"]
        target = sorted(seen)[1]
        moves = seen[target][1]["moves"]
        stream = f"kozel-{match['id']}"

        async def record() -> Any:
            async with AsyncConnectionPool(database_url, open=False, min_size=1) as pool:
                return await Recorder(pool).record(
                    stream,
                    [TakeBack(target, "wrong card"), Play(moves[-1])],
                    expected_version=match["version"],
                )

        recorded = asyncio.run(record())
        config = recorded.state.config
        events = [Event(e.type, e.data) for e in recorded.events]
        assert "TakenBack" == events[0].type
        assert moves[-1] == move_text(config, events[1])
        assert match["version"] + 2 == recorded.events[1].version
        now = client.get(f"/matches/{match['id']}", headers=scorer).json()
        assert recorded.version == now["version"]
        assert recorded.state.position is not None
        assert now["round"]["view"] == recorded.state.rules.view(recorded.state.position, None)


class TestLiveFeed:
    def test_a_takeback_message_carries_the_public_view_it_goes_back_to(
        self, client: TestClient[Any], scorer: Headers, live: dict[str, Any], database_url: str
    ) -> None:
        match, seen = live["match"], live["seen"]
        target = sorted(seen)[2]
        assert 200 == take_back(client, scorer, match, target, "wrong card").status_code
        stream = f"kozel-{match['id']}"

        async def message() -> Any:
            async with AsyncConnectionPool(database_url, open=False, min_size=1) as pool:
                async with pool.connection() as conn:
                    last = (await read_stream(conn, stream))[-1]
                return await LiveFeed(LiveHub(pool), stream=stream).message(last)

        body = asyncio.run(message())
        assert "TakenBack" == body["type"]
        assert seen[target][0]["round"]["view"] == body["view"]
