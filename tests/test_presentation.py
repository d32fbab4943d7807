"""The presentation descriptors (``domain.presentation``) agree with the games' rules.

The pages draw and offer only what a descriptor says, so a descriptor that drifted
from its engine (a variant, its seats or pack, a format the rules refuse) would
draw a wrong table or offer a form the server refuses.
"""

from __future__ import annotations

import pytest

from domain.errors import InvalidSetupError
from domain.games import GAMES, PRESENTATIONS, presentation_for, rules_for
from domain.presentation import Presentation
from domain.stream.config import MatchConfig


def _config(p: Presentation, variant: str, **settings: object) -> MatchConfig:
    seats = p.variant(variant).seats
    return MatchConfig(p.game, variant, tuple(f"p{s}" for s in range(seats)), 0, **settings)  # type: ignore[arg-type]


def test_every_game_has_a_presentation() -> None:
    assert list(GAMES) == list(PRESENTATIONS)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_variants_seats_and_words_are_the_rules(game: str) -> None:
    p, rules = presentation_for(game), rules_for(game)
    assert p.game == game
    assert set(rules.variants) == {v.name for v in p.variants}
    assert rules.default_variant == p.variants[0].name
    assert rules.round_word == p.round_word
    assert rules.seat_letter == p.seat_letter
    for variant in p.variants:
        assert rules.seats(_config(p, variant.name)) == variant.seats


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_variants_pack_is_the_one_dealt(game: str) -> None:
    p, rules = presentation_for(game), rules_for(game)
    for variant in p.variants:
        dealt = rules.deal_spec(_config(p, variant.name)).pack
        assert sorted(c.text() for c in dealt) == sorted(variant.pack.cards())


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_forms_settings_are_accepted_as_offered(game: str) -> None:
    p, rules = presentation_for(game), rules_for(game)
    for setting in p.settings:
        values = [setting.default, *setting.choices]
        if setting.minimum is not None:
            values.append(setting.minimum)
        for value in values:
            placed = (
                {"format": value}
                if setting.field == "format"
                else {"options": {setting.name: value}}
            )
            rules.validate(_config(p, p.variants[0].name, **placed))
        if setting.minimum is not None:
            with pytest.raises(InvalidSetupError):
                below = {"options": {setting.name: setting.minimum - 1}}
                rules.validate(_config(p, p.variants[0].name, **below))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_teams_seat_every_player_once(game: str) -> None:
    p = presentation_for(game)
    seated = sorted(s for team in p.teams for s in team.seats)
    if p.teams:
        assert all(list(range(v.seats)) == seated for v in p.variants)
    assert p.layout != "around" or all(v.seats == 4 for v in p.variants)


def test_an_unknown_game_has_no_presentation() -> None:
    with pytest.raises(InvalidSetupError) as raised:
        presentation_for("chess")
    assert "INVALID_FORMAT" == raised.value.code


class TestSidesAndScore:
    """What a listing writes of a match (``matchlog matches``): its sides and its score."""

    def test_a_team_game_names_its_sides_and_labels_its_score(self) -> None:
        kozel = PRESENTATIONS["kozel"]
        assert ["A: Ann & Cy", "B: Bob & Di"] == kozel.sides(["Ann", "Bob", "Cy", "Di"])
        score = {"loss_points": [14, 6], "eggs": 1, "multiplier": 1, "loss_limit": 12}
        label, values = kozel.score_parts(score, ["Ann", "Bob", "Cy", "Di"])
        assert ("Loss points", "A 14 · B 6 · eggs 1") == (label, values)

    def test_a_seat_game_names_its_players(self) -> None:
        cuttle = PRESENTATIONS["cuttle"]
        assert ["Ann", "Bob"] == cuttle.sides(["Ann", "Bob"])
        score = {"wins": [2, 1], "drawn_rounds": 0, "wins_needed": 3}
        assert ("Rounds won", "Ann 2 · Bob 1") == cuttle.score_parts(score, ["Ann", "Bob"])
