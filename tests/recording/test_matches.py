"""Recording matches over HTTP: whole matches, rounds, errors, versions, idempotency."""

from __future__ import annotations

import random
from typing import Any

import pytest
from litestar.testing import TestClient

from domain.cards import deck
from domain.stream import CreateMatch, MatchConfig, Play, StartRound, decide, fold, rules_for
from tests.recording.play import create_match, play_to_end, seats_of, shuffled_deal

GAMES = [
    ("cuttle", "classic"),
    ("cuttle", "standard"),
    ("cuttle", "cutthroat"),
    ("kozel", "default"),
]


def body(game: str, variant: str, players: list[str], **extra: Any) -> dict[str, Any]:
    fmt = {"format": "short"} if game == "cuttle" else {"options": {"loss_limit": 4}}
    return {"game": game, "variant": variant, "players": players, **fmt, **extra}


class TestWholeMatches:
    @pytest.mark.parametrize(("game", "variant"), GAMES)
    def test_server_dealt_match_plays_to_a_result(
        self,
        client: TestClient[Any],
        scorer: dict[str, str],
        make_players: Any,
        game: str,
        variant: str,
    ) -> None:
        players = make_players(seats_of(game, variant))
        match = create_match(client, scorer, body(game, variant, players))
        assert match["round"] is not None, "a server-dealt match starts its first round at once"
        assert match["first_dealer_drawn"]
        final = play_to_end(client, scorer, match, random.Random(7))
        assert "finished" == final["status"]
        assert final["result"]["winners"]
        again = client.get(f"/matches/{match['id']}").json()
        assert final == again

    @pytest.mark.parametrize(("game", "variant"), [("cuttle", "standard"), ("kozel", "default")])
    def test_scorer_dealt_match_waits_for_each_round(
        self,
        client: TestClient[Any],
        scorer: dict[str, str],
        make_players: Any,
        game: str,
        variant: str,
    ) -> None:
        players = make_players(seats_of(game, variant))
        match = create_match(
            client, scorer, body(game, variant, players, dealing="scorer", first_dealer=1)
        )
        assert match["round"] is None and 1 == match["first_dealer"]
        rounds = []
        final = play_to_end(
            client,
            scorer,
            match,
            random.Random(11),
            after_each=lambda m: rounds.append(m["rounds_started"]),
        )
        assert "finished" == final["status"]
        assert final["rounds_started"] == max(rounds)

    @pytest.mark.parametrize(("game", "variant"), GAMES)
    def test_physical_deck_match_names_cards_as_they_leave_the_deck(
        self,
        client: TestClient[Any],
        scorer: dict[str, str],
        make_players: Any,
        game: str,
        variant: str,
    ) -> None:
        players = make_players(seats_of(game, variant))
        match = create_match(client, scorer, body(game, variant, players, dealing="physical"))
        named = []

        def count_named(current: dict[str, Any]) -> None:
            if current["round"] is not None and current["round"]["cards_awaited"]:
                named.append(current["round"]["cards_awaited"])

        final = play_to_end(client, scorer, match, random.Random(13), after_each=count_named)
        assert "finished" == final["status"]
        assert named, "the scorer was asked to name cards"

    def test_a_round_may_be_recorded_as_one_batch(
        self, client: TestClient[Any], scorer: dict[str, str], make_players: Any
    ) -> None:
        """A scorer who knows the deck can send a whole round at once; it is all recorded."""
        players = make_players(2)
        match = create_match(
            client, scorer, body("cuttle", "standard", players, dealing="scorer", first_dealer=0)
        )
        deal = shuffled_deal("cuttle", "standard", random.Random(3))
        started = client.post(
            f"/matches/{match['id']}/rounds", json={**deal, "expected_version": 1}, headers=scorer
        )
        assert 201 == started.status_code, started.text
        # Plan the round locally with the same engine, then send it in one request.
        config = MatchConfig("cuttle", "standard", tuple(players), 0, "scorer", "short")
        state = fold(decide(fold([]), CreateMatch(config)))
        state = fold(decide(state, StartRound(deal)), state)
        rng, moves = random.Random(5), []
        rules = rules_for("cuttle")
        while not state.is_over:
            choice = rng.choice(list(rules.legal_moves(state.position)))
            moves.append(choice.text())
            state = fold(decide(state, Play(choice.text())), state)
        response = client.post(
            f"/matches/{match['id']}/moves",
            json={"moves": moves, "expected_version": 2},
            headers=scorer,
        )
        assert 200 == response.status_code, response.text
        recorded = response.json()
        assert "finished" == recorded["match"]["status"]
        types = [e["type"] for e in recorded["events"]]
        assert ["RoundScored", "MatchEnded"] == [
            t for t in types if t in ("RoundScored", "MatchEnded")
        ]


class TestSeries:
    @pytest.mark.parametrize(
        ("fmt", "needed"), [("quick", 1), ("normal", 2), ("extended", 3), ("best-of-7", 4)]
    )
    def test_cuttle_formats_end_at_the_right_score(
        self,
        client: TestClient[Any],
        scorer: dict[str, str],
        make_players: Any,
        fmt: str,
        needed: int,
    ) -> None:
        players = make_players(2)
        match = create_match(
            client,
            scorer,
            {"game": "cuttle", "variant": "standard", "players": players, "format": fmt},
        )
        final = play_to_end(client, scorer, match, random.Random(needed))
        wins = final["score"]["wins"]
        if fmt == "quick":
            assert 1 == final["score"]["rounds"]
        else:
            assert needed == max(wins) and needed > min(wins)

    def test_kozel_match_ends_when_a_team_reaches_the_limit(
        self, client: TestClient[Any], scorer: dict[str, str], make_players: Any
    ) -> None:
        players = make_players(4)
        match = create_match(
            client,
            scorer,
            {"game": "kozel", "players": players, "options": {"loss_limit": 6}},
        )
        final = play_to_end(client, scorer, match, random.Random(2))
        goat = final["result"]["losers"]
        assert max(final["score"]["loss_points"]) >= 6
        assert final["score"]["loss_points"][goat[0] % 2] >= 6


class TestRefusals:
    @pytest.fixture(name="match")
    def _match(
        self, client: TestClient[Any], scorer: dict[str, str], make_players: Any
    ) -> dict[str, Any]:
        players = make_players(2)
        return create_match(
            client, scorer, body("cuttle", "standard", players, dealing="scorer", first_dealer=0)
        )

    def started(
        self, client: TestClient[Any], scorer: dict[str, str], match: dict[str, Any]
    ) -> Any:
        deal = shuffled_deal("cuttle", "standard", random.Random(1))
        response = client.post(
            f"/matches/{match['id']}/rounds", json={**deal, "expected_version": 1}, headers=scorer
        )
        assert 201 == response.status_code
        return response.json()

    def events_of(self, client: TestClient[Any], scorer: dict[str, str], match_id: str) -> Any:
        return client.get(f"/matches/{match_id}/events", headers=scorer).json()["items"]

    def test_moves_before_the_round_starts_are_refused(
        self, client: TestClient[Any], scorer: dict[str, str], match: dict[str, Any]
    ) -> None:
        response = client.post(
            f"/matches/{match['id']}/moves",
            json={"moves": ["P1 draw"], "expected_version": 1},
            headers=scorer,
        )
        assert 422 == response.status_code
        assert "ROUND_NOT_STARTED" == response.json()["code"]

    def test_illegal_move_changes_nothing(
        self, client: TestClient[Any], scorer: dict[str, str], match: dict[str, Any]
    ) -> None:
        self.started(client, scorer, match)
        before = self.events_of(client, scorer, match["id"])
        response = client.post(
            f"/matches/{match['id']}/moves",
            json={"moves": ["P1 draw", "P1 draw"], "expected_version": 2},
            headers=scorer,
        )
        assert 422 == response.status_code
        assert "NOT_YOUR_TURN" == response.json()["code"]
        assert response.headers["content-type"].startswith("application/problem+json")
        assert before == self.events_of(client, scorer, match["id"])

    def test_malformed_move_is_malformed(
        self, client: TestClient[Any], scorer: dict[str, str], match: dict[str, Any]
    ) -> None:
        self.started(client, scorer, match)
        response = client.post(
            f"/matches/{match['id']}/moves",
            json={"moves": ["P1 scuttle 10H>7H"], "expected_version": 2},
            headers=scorer,
        )
        assert 422 == response.status_code
        assert "MALFORMED" == response.json()["code"]

    def test_a_four_naming_a_card_is_refused_not_recorded_as_the_four(
        self, client: TestClient[Any], scorer: dict[str, str], match: dict[str, Any]
    ) -> None:
        """See #29: ``P1 oneoff 4H>3H@P0`` was recorded as ``P1 oneoff 4H``."""
        cards = [card.text() for card in deck()]
        i, j = cards.index("3C"), cards.index("4H")
        cards[i], cards[j] = cards[j], cards[i]  # P1 is dealt 4H
        response = client.post(
            f"/matches/{match['id']}/rounds",
            json={"deck": " ".join(cards), "expected_version": 1},
            headers=scorer,
        )
        assert 201 == response.status_code, response.text
        before = self.events_of(client, scorer, match["id"])
        response = client.post(
            f"/matches/{match['id']}/moves",
            json={"moves": ["P1 oneoff 4H>3H@P0"], "expected_version": 2},
            headers=scorer,
        )
        assert 422 == response.status_code
        assert "INVALID_TARGET" == response.json()["code"]
        assert before == self.events_of(client, scorer, match["id"])

    def test_stale_if_match_is_412_with_current_version(
        self, client: TestClient[Any], scorer: dict[str, str], match: dict[str, Any]
    ) -> None:
        self.started(client, scorer, match)
        response = client.post(
            f"/matches/{match['id']}/moves",
            json={"moves": ["P1 draw"]},
            headers={**scorer, "If-Match": '"1"'},
        )
        assert 412 == response.status_code
        problem = response.json()
        assert ("VERSION_CONFLICT", 2) == (problem["code"], problem["details"]["current_version"])

    def test_stale_expected_version_field_is_409(
        self, client: TestClient[Any], scorer: dict[str, str], match: dict[str, Any]
    ) -> None:
        self.started(client, scorer, match)
        response = client.post(
            f"/matches/{match['id']}/moves",
            json={"moves": ["P1 draw"], "expected_version": 5},
            headers=scorer,
        )
        assert 409 == response.status_code
        assert 2 == response.json()["details"]["current_version"]

    def test_version_checked_before_the_rules(
        self, client: TestClient[Any], scorer: dict[str, str], match: dict[str, Any]
    ) -> None:
        self.started(client, scorer, match)
        response = client.post(
            f"/matches/{match['id']}/moves",
            json={"moves": ["P0 draw"], "expected_version": 1},
            headers=scorer,
        )
        assert "VERSION_CONFLICT" == response.json()["code"]

    def test_missing_version_is_428(
        self, client: TestClient[Any], scorer: dict[str, str], match: dict[str, Any]
    ) -> None:
        self.started(client, scorer, match)
        response = client.post(
            f"/matches/{match['id']}/moves", json={"moves": ["P1 draw"]}, headers=scorer
        )
        assert (428, "VERSION_REQUIRED") == (response.status_code, response.json()["code"])

    def test_unknown_match_is_404(self, client: TestClient[Any], scorer: dict[str, str]) -> None:
        response = client.get("/matches/00000000-0000-4000-8000-000000000000")
        assert (404, "MATCH_NOT_FOUND") == (response.status_code, response.json()["code"])

    def test_writes_need_a_token(self, client: TestClient[Any], match: dict[str, Any]) -> None:
        response = client.post(
            f"/matches/{match['id']}/moves", json={"moves": ["P1 draw"], "expected_version": 1}
        )
        assert (401, "UNAUTHENTICATED") == (response.status_code, response.json()["code"])

    def test_bad_body_names_the_field(
        self, client: TestClient[Any], scorer: dict[str, str], match: dict[str, Any]
    ) -> None:
        response = client.post(
            f"/matches/{match['id']}/moves", json={"moves": "P1 draw"}, headers=scorer
        )
        assert 422 == response.status_code
        fields = [e["field"] for e in response.json()["details"]["errors"]]
        assert any("moves" in f for f in fields)

    def test_match_over_is_checked_first(
        self, client: TestClient[Any], scorer: dict[str, str], match: dict[str, Any]
    ) -> None:
        resigned = client.post(
            f"/matches/{match['id']}/resign",
            json={"seat": 0, "expected_version": 1},
            headers=scorer,
        )
        assert 200 == resigned.status_code, resigned.text
        assert [1] == resigned.json()["match"]["result"]["winners"]
        response = client.post(
            f"/matches/{match['id']}/moves",
            json={"moves": ["garbage!"], "expected_version": resigned.json()["version"]},
            headers=scorer,
        )
        assert "MATCH_OVER" == response.json()["code"]

    @pytest.mark.parametrize(
        ("change", "code"),
        [
            ({"format": "best-of-4"}, "INVALID_FORMAT"),
            ({"variant": "speed"}, "INVALID_FORMAT"),
            ({"first_dealer": 5}, "INVALID_FORMAT"),
        ],
    )
    def test_bad_match_setups(
        self,
        client: TestClient[Any],
        scorer: dict[str, str],
        make_players: Any,
        change: dict[str, Any],
        code: str,
    ) -> None:
        players = make_players(2)
        response = client.post(
            "/matches", json={**body("cuttle", "standard", players), **change}, headers=scorer
        )
        assert 422 == response.status_code, response.text
        assert code == response.json()["code"]

    def test_a_player_takes_one_seat(
        self, client: TestClient[Any], scorer: dict[str, str], make_players: Any
    ) -> None:
        twice = make_players(1) * 2
        response = client.post("/matches", json=body("cuttle", "standard", twice), headers=scorer)
        assert (422, "INVALID_FORMAT") == (response.status_code, response.json()["code"])

    def test_unknown_player(self, client: TestClient[Any], scorer: dict[str, str]) -> None:
        ghosts = ["00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"]
        response = client.post("/matches", json=body("cuttle", "standard", ghosts), headers=scorer)
        assert "UNKNOWN_PLAYER" == response.json()["code"]


class TestIdempotency:
    def test_retry_with_the_same_key_gets_the_first_answer(
        self, client: TestClient[Any], scorer: dict[str, str], make_players: Any
    ) -> None:
        players = make_players(2)
        match = create_match(client, scorer, body("cuttle", "standard", players))
        legal = client.get(f"/matches/{match['id']}/legal-moves", headers=scorer).json()
        move = next(m for m in legal["moves"] if m.endswith("draw"))
        request = {"moves": [move], "expected_version": match["version"]}
        headers = {**scorer, "Idempotency-Key": "tap-1"}
        first = client.post(f"/matches/{match['id']}/moves", json=request, headers=headers)
        again = client.post(f"/matches/{match['id']}/moves", json=request, headers=headers)
        assert 200 == first.status_code == again.status_code
        # The very bytes: the answer is kept as the text that was sent.
        assert first.content == again.content
        assert first.headers["ETag"] == again.headers["ETag"]
        assert again.headers["Content-Type"].startswith("application/json")
        assert "true" == again.headers["Idempotent-Replayed"]
        events = client.get(f"/matches/{match['id']}/events", headers=scorer).json()["items"]
        assert first.json()["version"] == len(events)

    def test_a_retried_create_gets_the_first_answer_and_no_second_match(
        self, client: TestClient[Any], scorer: dict[str, str], make_players: Any
    ) -> None:
        """Without an id in the body the retry decides a new match: the key refuses it."""
        request = body("cuttle", "standard", make_players(2))
        headers = {**scorer, "Idempotency-Key": "create-1"}
        first = client.post("/matches", json=request, headers=headers)
        again = client.post("/matches", json=request, headers=headers)
        assert 201 == first.status_code == again.status_code
        assert first.content == again.content
        assert "true" == again.headers["Idempotent-Replayed"]
        listed = client.get("/matches", headers=scorer).json()["items"]
        assert [first.json()["id"]] == [
            m["id"] for m in listed if m["players"] == request["players"]
        ]

    def test_a_retry_without_a_version_gets_the_first_answer(
        self, client: TestClient[Any], scorer: dict[str, str], make_players: Any
    ) -> None:
        match = create_match(client, scorer, body("cuttle", "standard", make_players(2)))
        legal = client.get(f"/matches/{match['id']}/legal-moves", headers=scorer).json()
        move = next(m for m in legal["moves"] if m.endswith("draw"))
        url = f"/matches/{match['id']}/moves"
        keyed = {**scorer, "Idempotency-Key": "tap-3"}
        first = client.post(url, json={"moves": [move]}, headers={**keyed, "If-Match": '"2"'})
        again = client.post(url, json={"moves": [move]}, headers=keyed)
        assert 200 == first.status_code == again.status_code
        assert first.json() == again.json()
        assert "true" == again.headers["Idempotent-Replayed"]

    def test_same_key_for_another_request_is_refused(
        self, client: TestClient[Any], scorer: dict[str, str], make_players: Any
    ) -> None:
        players = make_players(2)
        match = create_match(client, scorer, body("cuttle", "standard", players))
        headers = {**scorer, "Idempotency-Key": "tap-2"}
        legal = client.get(f"/matches/{match['id']}/legal-moves", headers=scorer).json()
        first, second = legal["moves"][:2]
        url = f"/matches/{match['id']}/moves"
        ok = client.post(url, json={"moves": [first], "expected_version": 2}, headers=headers)
        assert 200 == ok.status_code
        reused = client.post(url, json={"moves": [second], "expected_version": 2}, headers=headers)
        assert (409, "IDEMPOTENCY_KEY_REUSED") == (reused.status_code, reused.json()["code"])

    def test_a_key_belongs_to_its_token(
        self,
        client: TestClient[Any],
        scorer: dict[str, str],
        make_players: Any,
        make_token: Any,
    ) -> None:
        from store.accounts import Role

        other = {"Authorization": f"Bearer {make_token(Role.SCORER)}"}
        players = make_players(2)
        match = create_match(client, scorer, body("cuttle", "standard", players))
        legal = client.get(f"/matches/{match['id']}/legal-moves", headers=scorer).json()
        move = next(m for m in legal["moves"] if m.endswith("draw"))
        url = f"/matches/{match['id']}/moves"
        request = {"moves": [move], "expected_version": 2}
        client.post(url, json=request, headers={**scorer, "Idempotency-Key": "k"})
        theirs = client.post(url, json=request, headers={**other, "Idempotency-Key": "k"})
        assert "Idempotent-Replayed" not in theirs.headers
        assert "VERSION_CONFLICT" == theirs.json()["code"]
