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


def take_back(
    client: Client, headers: dict[str, str], match_id: str, to_version: int, reason: str
) -> dict[str, Any]:
    """Take the match back to ``to_version`` from the version it is at; return the answer."""
    version = version_of(client, match_id)
    body = {"to_version": to_version, "reason": reason, "expected_version": version}
    back = client.post(f"/matches/{match_id}/takeback", json=body, headers=headers)
    assert 200 == back.status_code, back.text
    answer: dict[str, Any] = back.json()
    return answer


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
        enter(client, scorer, match["id"], "result draw")
        # Not behind the last result, as not behind the last round with a move.
        version = version_of(client, match["id"])
        far = {"to_version": 1, "reason": "both", "expected_version": version}
        too_far = client.post(f"/matches/{match['id']}/takeback", json=far, headers=scorer)
        assert "TAKEBACK_OUT_OF_RANGE" == refused(too_far)
        back = take_back(client, scorer, match["id"], first["version"], "not a draw")
        after = back["match"]
        assert [0, 1] == after["score"]["wins"] and 0 == after["score"]["drawn_rounds"]
        assert 1 == after["rounds_started"]
        # The result before it is now the last one: it can be taken back in turn.
        again = take_back(client, scorer, match["id"], 1, "the wrong table")
        assert 0 == again["match"]["rounds_started"]
        steps = client.get(f"/matches/{match['id']}/timeline").json()["steps"]
        assert 2 == len(steps) and all(s["taken_back"] is not None for s in steps)

    def test_a_result_entered_again_after_a_takeback_keeps_its_round(
        self, client: Client, scorer: dict[str, str]
    ) -> None:
        match = cuttle(client, scorer, format="normal")
        first = enter(client, scorer, match["id"], "result P1").json()
        enter(client, scorer, match["id"], "result draw")
        take_back(client, scorer, match["id"], first["version"], "not a draw")
        enter(client, scorer, match["id"], "result P0")
        enter(client, scorer, match["id"], "result P1")
        steps = client.get(f"/matches/{match['id']}/timeline").json()["steps"]
        # The struck draw was round 2; so is the result entered in its place.
        assert [1, 2, 2, 3] == [s["round"] for s in steps]
        assert [False, True, False, False] == [s["taken_back"] is not None for s in steps]


def kozel(client: Client, headers: dict[str, str], **body: Any) -> dict[str, Any]:
    players = named_players(client, headers, ["Ann", "Bob", "Cy", "Di"])
    return sheet_match(client, headers, game="kozel", players=players, first_dealer=0, **body)


def rows(match: dict[str, Any]) -> tuple[list[int], int, int]:
    """Loss points per team, eggs and the next deal's multiplier."""
    score = match["score"]
    return score["loss_points"], score["eggs"], score["multiplier"]


class TestKozel:
    def test_deals_are_scored_from_the_loss_point_table(
        self, client: Client, scorer: dict[str, str]
    ) -> None:
        match = kozel(client, scorer)
        assert "results" == match["recording"]
        # R24: 31-59 card points give the loser 2, 30 or fewer with a trick 4, no trick 6;
        # a team with no card points that took a trick is not blank (4, not 6).
        steps = [
            ("deal 75 45", [0, 2], 1),
            ("deal 60 60", [0, 2], 2),
            ("deal 90 30", [0, 6], 3),
            ("deal 120 0", [0, 10], 0),
            ("deal 31 89", [2, 10], 1),
        ]
        for text, totals, dealer in steps:
            answer = enter(client, scorer, match["id"], text)
            assert 200 == answer.status_code, answer.text
            live = answer.json()["match"]
            assert (totals, "live") == (live["score"]["loss_points"], live["status"])
            assert dealer == live["dealer"], text  # one seat clockwise per deal (R3)
        assert 1 == live["score"]["eggs"] and 5 == live["score"]["deals"]
        ended = enter(client, scorer, match["id"], "deal 0 120 blank A").json()["match"]
        assert [8, 10] == ended["score"]["loss_points"] and "live" == ended["status"]
        ended = enter(client, scorer, match["id"], "deal 100 20").json()["match"]
        assert [8, 14] == ended["score"]["loss_points"]
        assert {"winners": [0, 2], "losers": [1, 3], "reason": "goat-with-eggs"}.items() <= (
            ended["result"].items()
        )
        assert "MATCH_OVER" == refused(enter(client, scorer, match["id"], "deal 60 60"))

    def test_eggs_double_the_next_decided_deal(
        self, client: Client, scorer: dict[str, str]
    ) -> None:
        match = kozel(client, scorer, options={"eggs_double_next": True, "loss_limit": 12})
        first = enter(client, scorer, match["id"], "deal 60 60", "deal 60 60").json()["match"]
        assert ([0, 0], 2, 4) == rows(first)
        # 2 loss points times 4 after two eggs in a row (each eggs doubles the pending
        # multiplier, R25); then the multiplier is back to 1.
        second = enter(client, scorer, match["id"], "deal 70 50").json()["match"]
        assert ([0, 8], 2, 1) == rows(second)
        third = enter(client, scorer, match["id"], "deal 60 60", "deal 120 0 blank B")
        ended = third.json()["match"]
        assert ([0, 20], 3, 1) == rows(ended) and "finished" == ended["status"]
        rounds = client.get(f"/matches/{match['id']}/series").json()["rounds"]
        assert [1, 2, 4, 1, 2] == [r["multiplier"] for r in rounds]
        assert [0, 0, 8, 0, 12] == [r["loss_points"] for r in rounds]
        # A sheet says only that team B took no trick in deal 5; other counts are unknown.
        assert [None, 0] == rounds[-1]["tricks"]

    def test_the_timeline_and_legal_moves(self, client: Client, scorer: dict[str, str]) -> None:
        match = kozel(client, scorer)
        legal = client.get(f"/matches/{match['id']}/legal-moves", headers=scorer).json()
        assert ([], [], []) == (legal["moves"], legal["choices"], legal["service_moves"])
        enter(client, scorer, match["id"], "deal 75 45", "deal 60 60", "deal 120 0 blank B")
        steps = client.get(f"/matches/{match['id']}/timeline").json()["steps"]
        assert [
            "Deal 1: 75-45, team B takes 2 loss points",
            "Deal 2: 60-60, eggs",
            "Deal 3: 120-0, team B took no trick and takes 6 loss points",
        ] == [s["sentence"] for s in steps]
        assert [1, 2, 3] == [s["round"] for s in steps]

    @pytest.mark.parametrize(
        ("text", "code"),
        [
            ("S0 lead 7S", "WRONG_RECORDING"),
            ("S1 concede", "WRONG_RECORDING"),
            ("result P1", "WRONG_RECORDING"),
            ("deal", "MALFORMED"),
            ("deal 60", "MALFORMED"),
            ("deal sixty 60", "MALFORMED"),
            ("deal 60 60 blank", "MALFORMED"),
            ("deal 60 60 blank C", "MALFORMED"),
            ("deal 70 60", "INVALID_RESULT"),
            ("deal 60.5 59.5", "INVALID_RESULT"),
            ("deal 130 -10", "INVALID_RESULT"),
            ("deal 0 120 blank B", "INVALID_RESULT"),
            ("deal 60 60 blank A B", "INVALID_RESULT"),
        ],
    )
    def test_refusals(self, client: Client, scorer: dict[str, str], text: str, code: str) -> None:
        match = kozel(client, scorer)
        assert code == refused(enter(client, scorer, match["id"], text))
        assert match["version"] == version_of(client, match["id"])

    def test_a_deal_is_taken_back(self, client: Client, scorer: dict[str, str]) -> None:
        match = kozel(client, scorer)
        first = enter(client, scorer, match["id"], "deal 75 45").json()
        second = enter(client, scorer, match["id"], "deal 20 100").json()
        assert [4, 2] == second["match"]["score"]["loss_points"]
        back = take_back(client, scorer, match["id"], first["version"], "points swapped")
        assert [0, 2] == back["match"]["score"]["loss_points"]
        again = enter(client, scorer, match["id"], "deal 100 20").json()["match"]
        assert ([0, 6], 2) == (again["score"]["loss_points"], again["score"]["deals"])


# Hand-worked from R24 (loss points 2/4/6) and section 10 (the goat at 12): each script
# is one table's deals, team A being the table's first entrant; the figures are, per
# side, (won, deals_won, deals_lost, loss_points_taken, loss_points_given, eggs, goat).
SCRIPTS: list[tuple[list[str], tuple[int, ...], tuple[int, ...]]] = [
    (
        # B takes 2, eggs, B takes 4 (20 points), B takes 6 (blank): B is the goat at 12.
        ["deal 75 45", "deal 60 60", "deal 100 20", "deal 120 0 blank B"],
        (1, 3, 0, 0, 12, 1, 0),
        (0, 0, 3, 12, 0, 1, 1),
    ),
    (
        # A takes 2 (31), 4 (30), 4 (no points but a trick), 2 (59): A is the goat at 12.
        ["deal 31 89", "deal 30 90", "deal 0 120", "deal 59 61"],
        (0, 0, 4, 12, 0, 0, 1),
        (1, 4, 0, 0, 12, 0, 0),
    ),
    (
        # eggs; A 2; B 4; B 6 (blank); A 4; B 2: B reaches 12 with A at 6.
        [
            "deal 60 60",
            "deal 45 75",
            "deal 90 30",
            "deal 120 0 blank B",
            "deal 10 110",
            "deal 70 50",
        ],
        (1, 3, 2, 6, 12, 1, 0),
        (0, 2, 3, 12, 6, 1, 1),
    ),
]
STATS = ("won", "deals_won", "deals_lost", "loss_points_taken", "loss_points_given", "eggs", "goat")


def test_a_kozel_league_of_fixed_pairs_on_score_sheets(
    client: Client, admin: dict[str, str]
) -> None:
    made = client.post("/competitions", json={"name": "Cup", "game": "kozel"}, headers=admin)
    assert 201 == made.status_code, made.text
    cup = made.json()["id"]
    people = named_players(client, admin, [f"K{i}" for i in range(6)])
    pairs = [people[0:2], people[2:4], people[4:6]]
    entrants = {}
    for members in pairs:
        entered = client.post(
            f"/competitions/{cup}/entrants", json={"players": members}, headers=admin
        )
        assert 201 == entered.status_code, entered.text
        entrants[entered.json()["id"]] = "+".join(sorted(members))
    fixtures = client.post(
        f"/competitions/{cup}/fixtures", json={"system": "round-robin"}, headers=admin
    )
    assert 201 == fixtures.status_code, fixtures.text
    tables = [t for r in fixtures.json()["rounds"] for t in r["tables"]]
    assert 3 == len(tables)
    expected: dict[str, list[int]] = {key: [0] * len(STATS) for key in entrants.values()}
    for table, (script, first, second) in zip(tables, SCRIPTS, strict=True):
        match = sheet_match(
            client, admin, game="kozel", players=table["players"], fixture_id=table["id"]
        )
        answer = enter(client, admin, match["id"], *script)
        assert 200 == answer.status_code, answer.text
        assert "finished" == answer.json()["match"]["status"]
        for entrant, figures in zip(table["entrants"], (first, second), strict=True):
            line = expected[entrants[entrant]]
            expected[entrants[entrant]] = [a + b for a, b in zip(line, figures, strict=True)]
    standings = client.get(f"/competitions/{cup}/standings").json()
    assert 3 == standings["matches"]
    got = {line["entity"]: [line[s] for s in STATS] for line in standings["pairs"]}
    assert expected == got
    # Ratings count score-sheet matches too: every player has played two.
    assert {2} == {line["played"] for line in standings["players"]}
    assert all(line["rating"]["sigma"] < 8.3 for line in standings["players"])
    listed = client.get(f"/competitions/{cup}/fixtures").json()["rounds"]
    assert all(t["result"] is not None for r in listed for t in r["tables"])
