"""A Kozel match taken up mid-deal over REST: ``POST /matches/{id}/rounds`` with a position."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from domain.kozel.context import EXAMPLE_MATCH
from domain.kozel.state import EXAMPLE
from tests.recording.conftest import _make_players  # noqa: F401
from tests.recording.play import create_match

Client = TestClient[Any]


@pytest.fixture(name="match")
def _match(client: Client, scorer: dict[str, str], make_players: Any) -> dict[str, Any]:
    """A physical-deck Kozel match whose first dealer fits ``EXAMPLE_MATCH`` (S3, R3)."""
    body = {"game": "kozel", "players": make_players(4), "dealing": "physical", "first_dealer": 3}
    return create_match(client, scorer, body)


def start(client: Client, scorer: dict[str, str], match_id: str, **deal: Any) -> Any:
    return client.post(f"/matches/{match_id}/rounds", json=deal, headers=scorer)


def play(client: Client, scorer: dict[str, str], match_id: str, move: str, version: int) -> Any:
    played = client.post(
        f"/matches/{match_id}/moves",
        json={"moves": [move], "expected_version": version},
        headers=scorer,
    )
    assert 200 == played.status_code, played.text
    return played.json()


class TestPositionStart:
    def test_the_match_carries_the_context_and_plays_on(
        self, client: Client, scorer: dict[str, str], match: dict[str, Any]
    ) -> None:
        started = start(client, scorer, match["id"], position=EXAMPLE_MATCH, expected_version=1)
        assert 201 == started.status_code, started.text
        score = started.json()["match"]["score"]
        assert ([4, 2], 2, 4) == (score["loss_points"], score["eggs"], score["deals"])
        legal = client.get(f"/matches/{match['id']}/legal-moves", headers=scorer).json()
        # The trick is 0:7S/1+KS: seat 2 answers; seat 3 holds a molodka (R21).
        assert [2, 3] == legal["to_act"]
        assert "S2 throw 6D" in legal["moves"] and "S2 beat 6D" not in legal["moves"]

        body = play(client, scorer, match["id"], "S2 throw 6D", started.json()["version"])
        assert ["CardsThrown"] == [e["type"] for e in body["events"]]
        assert score == body["match"]["score"]

        scored = self.play_out_the_deal(client, scorer, match["id"], body["version"])
        totals = [4, 2]
        totals[scored["losing_team"]] += scored["loss_points"]
        assert totals == scored["totals"]
        after = client.get(f"/matches/{match['id']}").json()["score"]
        eggs = 2 + scored["eggs"]
        assert (totals, eggs, 5) == (after["loss_points"], after["eggs"], after["deals"])
        assert 1 == scored["deal"], "the match's own deals count from the one it took up"

        version = client.get(f"/matches/{match['id']}").json()["version"]
        later = start(client, scorer, match["id"], position=EXAMPLE_MATCH, expected_version=version)
        assert 422 == later.status_code, later.text
        assert "INVALID_DECK" == later.json()["code"]

    def play_out_the_deal(
        self, client: Client, scorer: dict[str, str], match_id: str, version: int
    ) -> dict[str, Any]:
        """Play the first listed move (naming the first unplaced cards) until the deal is scored."""
        while True:
            legal = client.get(f"/matches/{match_id}/legal-moves", headers=scorer).json()
            if legal["cards_awaited"]:
                move = "cards " + " ".join(legal["nameable"][: legal["cards_awaited"]])
            else:
                move = legal["moves"][0]
            body = play(client, scorer, match_id, move, version)
            version = body["version"]
            for event in body["events"]:
                if event["type"] == "DealScored":
                    return dict(event["data"])


class TestPositionRefusals:
    @pytest.mark.parametrize(
        ("deal", "code"),
        [
            ({"position": EXAMPLE_MATCH, "indicator": "9H"}, "INVALID_DECK"),
            ({"position": EXAMPLE_MATCH.replace("dealer=3", "dealer=2")}, "INVALID_DECK"),
            ({"position": f"{EXAMPLE} rules=8 deal=5 loss=4/2 eggs=2 carried=1"}, "INVALID_DECK"),
            ({"position": f"{EXAMPLE} deal=5 loss=4/2"}, "MALFORMED"),
            ({"position": "dealer=3 leader=0"}, "MALFORMED"),
            ({"position": f"{EXAMPLE} deal=2 loss=4/2 eggs=2 carried=1"}, "INVALID_POSITION"),
            ({"position": f"{EXAMPLE_MATCH}\nS2 throw 6D"}, "VALIDATION_FAILED"),
            ({"position": 5}, "VALIDATION_FAILED"),
        ],
    )
    def test_a_bad_position_is_a_problem_and_changes_nothing(
        self,
        client: Client,
        scorer: dict[str, str],
        match: dict[str, Any],
        deal: dict[str, Any],
        code: str,
    ) -> None:
        refused = start(client, scorer, match["id"], **deal, expected_version=1)
        assert 422 == refused.status_code, refused.text
        assert code == refused.json()["code"]
        assert 1 == client.get(f"/matches/{match['id']}").json()["version"]

    def test_a_cuttle_round_takes_no_position(
        self, client: Client, scorer: dict[str, str], make_players: Any
    ) -> None:
        body = {"game": "cuttle", "variant": "standard", "players": make_players(2)}
        match = create_match(client, scorer, {**body, "dealing": "scorer", "first_dealer": 0})
        refused = start(client, scorer, match["id"], position=EXAMPLE_MATCH, expected_version=1)
        assert 422 == refused.status_code, refused.text
        assert "INVALID_DECK" == refused.json()["code"]
        assert 1 == client.get(f"/matches/{match['id']}").json()["version"]
