"""What differs between games is read from the registry (domain.games), not listed again:
the API's accepted games and its schema's enum, the seat letters of a move, the size of
a competition's entrant (issue #30)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from api.app import create_app
from api.match_schemas import MatchIn
from api.schemas import CompetitionIn
from domain.cuttle.match_rules import RULES as CUTTLE
from domain.errors import MalformedError
from domain.games import GAMES
from service.matches import seated
from service.settings import Settings


class HighCard:
    """Just what these reads ask of a game's rules: a stand-in registered by the tests."""

    game = "highcard"
    seat_letter = "H"
    entrant_size = 1
    variants: tuple[str, ...] = ("default",)
    competition_variant: str | None = "default"
    tiebreaks: frozenset[str] = frozenset({"wins"})

    def seat_token(self, seat: int) -> str:
        return f"H{seat}"

    def canonical_format(self, value: Any) -> Any:
        return "first-to-1" if value is None else value


@pytest.fixture(name="highcard")
def _highcard(monkeypatch: pytest.MonkeyPatch) -> HighCard:
    rules = HighCard()
    monkeypatch.setitem(GAMES, rules.game, rules)  # type: ignore[arg-type]
    return rules


class TestAcceptedGames:
    @pytest.mark.parametrize("model", [CompetitionIn, MatchIn])
    def test_a_registered_game_is_accepted(self, highcard: HighCard, model: Any) -> None:
        players = ["0d7e4c1a-1111-4222-8333-944455556666", "1d7e4c1a-1111-4222-8333-944455556666"]
        body = {"name": "Draw high", "game": "highcard", "players": players}
        fields = {k: body[k] for k in model.model_fields if k in body}
        assert "highcard" == model.model_validate(fields).game

    @pytest.mark.parametrize("model", [CompetitionIn, MatchIn])
    def test_an_unregistered_game_is_refused(self, model: Any) -> None:
        with pytest.raises(ValidationError) as e:
            model.model_validate({"name": "x", "game": "highcard", "players": []})
        assert ("game",) == e.value.errors()[0]["loc"]
        assert "not a game matchlog records: cuttle or kozel" in str(e.value)

    def test_the_schema_lists_the_games_registered_before_the_app(self, highcard: HighCard) -> None:
        app = create_app(Settings(database_url="postgresql://unused/x"))
        schemas = app.openapi_schema.to_schema()["components"]["schemas"]
        for model in ("CompetitionIn", "CompetitionOut", "MatchIn"):
            assert [*GAMES] == schemas[model]["properties"]["game"]["enum"]
        assert "highcard" in GAMES


class TestSeatLetters:
    def test_a_move_for_another_seat_of_the_game_is_refused(self, highcard: HighCard) -> None:
        with pytest.raises(MalformedError) as e:
            seated("highcard", 1, "H0 draw")
        assert "SEAT_MISMATCH" == e.value.code

    def test_a_move_without_a_seat_is_given_the_games_letter(self, highcard: HighCard) -> None:
        assert ("H1 draw", "H1 draw") == (
            seated("highcard", 1, "draw"),
            seated("highcard", 1, "H1 draw"),
        )

    def test_cuttle_and_kozel_keep_their_letters(self) -> None:
        assert ("P0 draw", "S2 play 7H") == (
            seated("cuttle", 0, "draw"),
            seated("kozel", 2, "play 7H"),
        )
        with pytest.raises(MalformedError):
            seated("kozel", 1, "S0 play 7H")


def test_every_game_says_how_many_players_make_an_entrant() -> None:
    assert {"cuttle": 1, "kozel": 2} == {g: r.entrant_size for g, r in GAMES.items()}
    assert 1 == CUTTLE.entrant_size
