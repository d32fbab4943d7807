"""Score-sheet matches over HTTP (Cuttle §27 rulings 41-42, Kozel R48): results entered
through the moves endpoint, scored as played rounds, refused with the rules' codes."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from tests.api.support import named_players

Client = TestClient[Any]


def sheet_match(client: Client, headers: dict[str, str], **body: Any) -> dict[str, Any]:
    """Create a match recorded by results; return its body."""
    made = client.post("/matches", json={"recording": "results", **body}, headers=headers)
    assert 201 == made.status_code, made.text
    match: dict[str, Any] = made.json()
    return match


def enter(client: Client, headers: dict[str, str], match_id: str, *results: str) -> Any:
    """Enter results (all or nothing) through the moves endpoint, at the match's version."""
    version = client.get(f"/matches/{match_id}").json()["version"]
    body = {"moves": list(results), "expected_version": version}
    return client.post(f"/matches/{match_id}/moves", json=body, headers=headers)


def version_of(client: Client, match_id: str) -> int:
    return int(client.get(f"/matches/{match_id}").json()["version"])


def refused(answer: Any) -> str:
    assert 422 == answer.status_code, answer.text
    return str(answer.json()["code"])


def cuttle(client: Client, headers: dict[str, str], seats: int = 2, **body: Any) -> dict[str, Any]:
    players = named_players(client, headers, ["Ann", "Bob", "Cy"][:seats])
    variant = "cutthroat" if seats == 3 else "standard"
    return sheet_match(
        client, headers, game="cuttle", variant=variant, players=players, first_dealer=0, **body
    )


class TestCuttle:
    def test_a_normal_match_with_a_drawn_round_is_scored_as_played_rounds(
        self, client: Client, scorer: dict[str, str]
    ) -> None:
        match = cuttle(client, scorer, format="normal")
        assert "results" == match["recording"]
        assert match["round"] is None and 0 == match["rounds_started"]
        answer = enter(client, scorer, match["id"], "result P1", "result draw")
        assert 200 == answer.status_code, answer.text
        types = [e["type"] for e in answer.json()["events"]]
        assert ["ResultEntered", "RoundScored", "ResultEntered", "RoundScored"] == types
        live = answer.json()["match"]
        assert {"wins": [0, 1], "drawn_rounds": 1, "rounds": 2} == {
            k: live["score"][k] for k in ("wins", "drawn_rounds", "rounds")
        }
        # Two players alternate the deal (§19) as after played rounds.
        assert "live" == live["status"] and 0 == live["dealer"] and 2 == live["rounds_started"]
        ended = enter(client, scorer, match["id"], "result P0", "result p1").json()["match"]
        assert "finished" == ended["status"]
        assert {"winners": [1], "losers": [0], "reason": "rounds", "draw": False} == ended["result"]
        assert [1, 2] == ended["score"]["wins"]
        again = client.get(f"/matches/{match['id']}").json()
        assert ended == again
        listed = client.get("/matches").json()["items"]
        assert ["results"] == [m["recording"] for m in listed if m["id"] == match["id"]]

    @pytest.mark.parametrize(
        ("fmt", "results", "result"),
        [
            ("quick", ["result draw"], {"winners": [], "losers": [], "reason": "drawn-round"}),
            ("quick", ["result P0"], {"winners": [0], "losers": [1], "reason": "rounds"}),
            ("short", ["result draw", "result P1"], {"winners": [1], "losers": [0]}),
            (
                "best-of-5",
                ["result P0", "result P1", "result draw", "result P0", "result P1", "result P1"],
                {"winners": [1], "losers": [0]},
            ),
        ],
    )
    def test_each_format_ends_when_it_says(
        self,
        client: Client,
        scorer: dict[str, str],
        fmt: str,
        results: list[str],
        result: dict[str, Any],
    ) -> None:
        match = cuttle(client, scorer, format=fmt)
        if len(results) > 1:
            live = enter(client, scorer, match["id"], *results[:-1]).json()["match"]
            assert "live" == live["status"]
        ended = enter(client, scorer, match["id"], results[-1]).json()["match"]
        assert "finished" == ended["status"]
        assert result.items() <= ended["result"].items()

    def test_cutthroat_passes_the_deal_left_and_lists_three_seats(
        self, client: Client, scorer: dict[str, str]
    ) -> None:
        match = cuttle(client, scorer, seats=3, format="normal")
        legal = client.get(f"/matches/{match['id']}/legal-moves", headers=scorer).json()
        assert ["result P0", "result P1", "result P2", "result draw"] == legal["moves"]
        sentences = [c["sentence"] for c in legal["choices"]]
        assert ["Ann won round 1", "Bob won round 1", "Cy won round 1"] == sentences[:3]
        assert "Round 1 was drawn" == sentences[3]
        assert [None] * 4 == [c["seat"] for c in legal["choices"]]
        assert [] == legal["service_moves"] and [] == legal["to_act"]
        live = enter(client, scorer, match["id"], "result P2", "result draw").json()["match"]
        assert 2 == live["dealer"]  # dealer 0, then 1, then 2: one seat left per round
        assert "MALFORMED" == refused(enter(client, scorer, match["id"], "result P3"))
        ended = enter(client, scorer, match["id"], "result P2").json()["match"]
        assert {"winners": [2], "losers": [0, 1]}.items() <= ended["result"].items()

    def test_the_timeline_reads_like_the_sheet(
        self, client: Client, scorer: dict[str, str]
    ) -> None:
        match = cuttle(client, scorer, format="normal")
        enter(client, scorer, match["id"], "result P1", "result draw", "result P1")
        steps = client.get(f"/matches/{match['id']}/timeline").json()["steps"]
        assert [(1, "result P1", "Bob won round 1"), (2, "result draw", "Round 2 was drawn")] == [
            (s["round"], s["move"], s["sentence"]) for s in steps[:2]
        ]
        assert (3, "Bob won round 3") == (steps[2]["round"], steps[2]["sentence"])

    def test_refusals_come_in_the_rules_order_and_change_nothing(
        self, client: Client, scorer: dict[str, str]
    ) -> None:
        match = cuttle(client, scorer, format="normal")
        assert "WRONG_RECORDING" == refused(enter(client, scorer, match["id"], "P0 draw"))
        assert "WRONG_RECORDING" == refused(enter(client, scorer, match["id"], "deal 60 60"))
        deal = {"deck": "AS", "expected_version": match["version"]}
        deck = client.post(f"/matches/{match['id']}/rounds", json=deal, headers=scorer)
        assert "WRONG_RECORDING" == refused(deck)
        assert "MALFORMED" == refused(enter(client, scorer, match["id"], "result P2"))
        assert "MALFORMED" == refused(enter(client, scorer, match["id"], "result"))
        # A batch is all or nothing: the good result before a bad one is not kept.
        assert "MALFORMED" == refused(enter(client, scorer, match["id"], "result P0", "result X"))
        assert match["version"] == client.get(f"/matches/{match['id']}").json()["version"]
        assert 200 == enter(client, scorer, match["id"], "result P0", "result P0").status_code
        # The match is over: MATCH_OVER comes before everything else.
        for text in ("result P1", "P0 draw", "result nobody"):
            assert "MATCH_OVER" == refused(enter(client, scorer, match["id"], text))

    def test_a_result_in_a_match_recorded_by_moves_is_refused(
        self, client: Client, scorer: dict[str, str]
    ) -> None:
        players = named_players(client, scorer, ["Ann", "Bob"])
        made = client.post(
            "/matches", json={"game": "cuttle", "players": players}, headers=scorer
        ).json()
        assert "moves" == made["recording"]
        before = made["version"]
        assert "WRONG_RECORDING" == refused(enter(client, scorer, made["id"], "result P1"))
        assert before == client.get(f"/matches/{made['id']}").json()["version"]

    def test_a_result_is_taken_back_like_a_move(
        self, client: Client, scorer: dict[str, str]
    ) -> None:
        match = cuttle(client, scorer, format="normal")
        first = enter(client, scorer, match["id"], "result P1").json()
        second = enter(client, scorer, match["id"], "result draw").json()
        back = client.post(
            f"/matches/{match['id']}/takeback",
            json={
                "to_version": first["version"],
                "reason": "the draw was entered by mistake",
                "expected_version": second["version"],
            },
            headers=scorer,
        )
        assert 200 == back.status_code, back.text
        after = back.json()["match"]
        assert [0, 1] == after["score"]["wins"] and 0 == after["score"]["drawn_rounds"]
        assert 1 == after["rounds_started"]
        # Only the last result can be taken back, as only the last round's moves can.
        too_far = client.post(
            f"/matches/{match['id']}/takeback",
            json={"to_version": 1, "reason": "more", "expected_version": back.json()["version"]},
            headers=scorer,
        )
        assert 200 == too_far.status_code, too_far.text
        assert 0 == too_far.json()["match"]["rounds_started"]
        steps = client.get(f"/matches/{match['id']}/timeline").json()["steps"]
        assert all(s["taken_back"] is not None for s in steps)
        assert second["version"] > first["version"]
