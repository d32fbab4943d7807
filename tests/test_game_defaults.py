"""``DefaultRules`` (domain/game_defaults.py): what a game must write, and what it need not.

Draw high (``tests/third_game``) writes only the required members; every other answer
below is a default. tests/viewer/test_third_game.py takes the same game through the API.
"""

from __future__ import annotations

import pytest

from domain.cards import deck, format_cards
from domain.errors import DomainError
from domain.game_defaults import DefaultRules
from domain.game_rules import RESULT_ENTERED
from domain.standings import FinishedMatch
from domain.stream import MatchConfig
from tests.third_game import RULES, registered
from tests.third_game.engine import Draw
from tests.third_game.series import Series

REQUIRED = {
    *("game", "round_word", "seat_letter", "max_seats", "move_kinds"),
    *("initial_position", "decide", "evolve", "outcome", "legal_moves", "to_act", "view"),
    *("new_series", "score", "series_from_scored", "rounds_data", "describe_step"),
}
CONFIG = MatchConfig("drawhigh", "duel", ("a", "b"), 0, format="first-to-2")
DECK = format_cards(deck())


def _refused(code: str, call: object, *args: object) -> None:
    with pytest.raises(DomainError) as raised:
        call(*args)  # type: ignore[operator]
    assert code == raised.value.code


class TestRequired:
    def test_a_game_writes_its_engine_series_and_words_only(self) -> None:
        assert REQUIRED == set(DefaultRules.__abstractmethods__)

    def test_a_game_missing_a_member_is_refused_naming_it(self) -> None:
        members = {name: getattr(type(RULES), name) for name in REQUIRED - {"describe_step"}}
        with pytest.raises(TypeError, match="describe_step"):
            type("Half", (DefaultRules,), members)()


class TestSettings:
    def test_names_derive_from_the_round_word_and_the_only_variant(self) -> None:
        assert ("HandStarted", "HandScored", "HAND_NOT_STARTED") == (
            RULES.round_started,
            RULES.round_scored,
            RULES.not_started_code,
        )
        assert ("duel", "duel", 2, 1) == (
            RULES.default_variant,
            RULES.competition_variant,
            RULES.seats(CONFIG),
            RULES.entrant_size,
        )

    def test_validate_makes_the_format_canonical_and_drops_options(self) -> None:
        given = MatchConfig(
            "drawhigh", "duel", ("a", "b"), 0, format=" First-to-2", options={"x": 1}
        )
        assert CONFIG == RULES.validate(given)
        assert "first-to-3" == RULES.validate(MatchConfig("drawhigh", "duel", ("a", "b"), 0)).format

    def test_validate_refuses_another_variant_and_a_score_sheet(self) -> None:
        for config in (
            MatchConfig("drawhigh", "trio", ("a", "b"), 0),
            MatchConfig("drawhigh", "duel", ("a", "b"), 0, recording="results"),
        ):
            _refused("INVALID_FORMAT", RULES.validate, config)

    def test_a_match_repeats_its_competitions_format_or_is_refused(self) -> None:
        assert ("first-to-2", None) == RULES.match_settings("first-to-2", "FIRST-TO-2", None)
        _refused("FORMAT_MISMATCH", RULES.match_settings, "first-to-2", "first-to-3", None)
        assert "first-to-2" == RULES.competition_format("first-to-2", {})
        assert ("Format", "first-to-2") == RULES.format_tag("first-to-2", {})

    def test_a_game_with_no_formats_refuses_every_one(self) -> None:
        _refused("INVALID_FORMAT", DefaultRules.format_text, RULES, "first-to-2")
        assert DefaultRules.format_tag(RULES, None, {}) is None


class TestRoundsAndSeries:
    def test_a_round_is_dealt_from_the_whole_pack(self) -> None:
        series = RULES.new_series(CONFIG)
        setup = RULES.setup_data(CONFIG, series, {"deck": DECK.split()})
        assert {"dealer": 0, "seats": 2, "deck": DECK} == setup
        for deal in ({"deck": DECK[3:]}, {"deck": DECK, "indicator_position": 3}, {"hands": []}):
            _refused("INVALID_DECK", RULES.setup_data, CONFIG, series, deal)

    def test_a_hand_goes_through_the_default_engine_members(self) -> None:
        position = RULES.initial_position({"dealer": 0, "seats": 2, "deck": "2C AS 3D"})
        assert RULES.public_to_act(position) == RULES.to_act(position) == (1,)
        assert (0, None, ()) == (
            RULES.cards_awaited(position),
            RULES.cards_to_name(position),
            tuple(RULES.service_moves(position)),
        )
        assert 1 == RULES.move_parts(Draw(1)).seat
        events, position = RULES.step(position, "H1 draw")
        drawn = events[0]
        assert "H1 draw" == RULES.move_text(drawn.type, drawn.data)
        assert drawn.data == RULES.public_data(CONFIG, drawn.type, dict(drawn.data))
        events, position = RULES.step(position, "H0 draw")
        assert RULES.record_view(position) == RULES.view(position, None)
        assert 0 == RULES.outcome(position)  # AS over 2C

    def test_no_score_sheet_no_concession_no_resignation(self) -> None:
        series = RULES.new_series(CONFIG)
        assert (False, (), None) == (
            RULES.is_result("result H0"),
            RULES.results(CONFIG),
            RULES.concession("H0 concede"),
        )
        assert RULES.move_events("server") == {"CardDrawn", RESULT_ENTERED}
        _refused("MALFORMED", RULES.enter_result, series, "result H0", 1)
        _refused("RESIGNATION_UNSUPPORTED", RULES.resign_match, series, 0)

    def test_a_scored_hand_reads_back_into_the_same_series(self) -> None:
        series, scored = RULES.score(RULES.new_series(CONFIG), 1, 1)
        assert {"hand": 1, "winner": 1, "wins": [0, 1]} == scored.data
        again = RULES.series_from_scored(RULES.new_series(CONFIG), scored.data)
        assert series == again and [scored.data] == RULES.rounds_data(again)
        assert 1 == again.dealer and again.result() is None
        assert {"wins": [0, 1], "target": 2} == RULES.ended_data(again)
        assert "wins 0-1, target 2" == RULES.score_text(again.score_data())
        assert {} == RULES.result_data(again)
        assert (1,) == Series(2, 0, (1, 1)).result().winners  # type: ignore[union-attr]


class TestStandings:
    def test_the_default_players_table_and_ratings(self) -> None:
        won = {"winners": [1], "losers": [0], "reason": "hands"}
        drawn = {"winners": [], "losers": [], "reason": "agreed"}
        matches = [
            FinishedMatch("m1", "drawhigh", ("ann", "bob"), (), won),
            FinishedMatch("m2", "drawhigh", ("bob", "cy"), (), drawn),
        ]
        with registered():
            assert [2, 1] == RULES.places(matches[0])
            lines, met = RULES.tally(matches)["players"]
        assert {"played": 2, "won": 1, "drawn": 1, "lost": 0, "points": 1.5} == lines["bob"].stats
        assert [0.0, 0.5] == [e.score for e in met]
        assert [[0], [1]] == RULES.rating_teams(2)
        assert ("players",) == RULES.standings_tables
