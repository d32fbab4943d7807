"""The game seam: every registered game answers the whole ``GameRules`` protocol, and
the answers the api/cli branches need are the ones those branches give today."""

from __future__ import annotations

import inspect

import pytest

from domain.errors import DomainError, InvalidSetupError
from domain.game_rules import GameRules
from domain.games import GAMES, rules_for
from domain.stream import MatchConfig


def _members() -> list[str]:
    """Every member of ``GameRules``, from each concern's protocol it is composed of."""
    names: set[str] = set()
    for part in GameRules.__mro__:
        if part.__module__ == "domain.game_rules":
            names |= {*inspect.get_annotations(part), *vars(part)}
    return sorted(name for name in names if not name.startswith("_"))


def test_the_protocol_is_composed_of_its_concerns() -> None:
    """A member of each concern reaches ``GameRules`` (the walk above sees them all)."""
    assert {"step", "score", "validate", "move_text", "tally", "describe_step"} <= set(_members())


def test_no_member_takes_one_games_setting() -> None:
    """The shared protocol names no game's own setting (Kozel's loss limit was one, #30)."""
    for name in _members():
        member = getattr(GameRules, name, None)
        if inspect.isfunction(member):
            assert "loss_limit" not in inspect.signature(member).parameters, name


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_game_has_every_member(game: str) -> None:
    rules = GAMES[game]
    assert rules.game == game
    missing = [name for name in _members() if not hasattr(rules, name)]
    assert missing == []
    for name in _members():
        if inspect.isfunction(getattr(GameRules, name, None)):
            assert callable(getattr(rules, name))


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(InvalidSetupError) as raised:
        rules_for("chess")
    assert raised.value.code == "INVALID_FORMAT"
    assert "cuttle or kozel" in raised.value.message


@pytest.mark.parametrize(
    ("game", "fmt", "options", "want"),
    [
        ("cuttle", None, None, ("best-of-7", None)),
        ("cuttle", "best-of-7", None, ("best-of-7", None)),
        ("cuttle", " Best-of-7", None, ("best-of-7", None)),
        ("kozel", None, None, (None, {"loss_limit": 8, "eggs_double_next": False})),
        (
            "kozel",
            None,
            {"open_throws": True},
            (None, {"open_throws": True, "loss_limit": 8, "eggs_double_next": False}),
        ),
        (
            "kozel",
            None,
            {"loss_limit": 8, "eggs_double_next": False, "trump_indicator_bottom": True},
            (None, {"loss_limit": 8, "eggs_double_next": False, "trump_indicator_bottom": True}),
        ),
    ],
)
def test_match_settings_are_the_competitions_plus_the_rest(
    game: str, fmt: str | None, options: dict | None, want: tuple
) -> None:
    """A match takes its competition's format, may repeat it, and adds what it does not fix.

    See #29: a Kozel match's ``open_throws`` replaced a competition's loss limit of 8.
    """
    match_format = "best-of-7" if game == "cuttle" else {"loss_limit": 8}
    assert want == rules_for(game).match_settings(match_format, fmt, options)


@pytest.mark.parametrize(
    ("game", "fmt", "options", "field", "competition"),
    [
        ("cuttle", "normal", None, "format", "quick"),
        ("cuttle", "best-of-7", None, "format", "quick"),
        ("cuttle", "best-of-1", None, "format", "quick"),
        ("kozel", None, {"loss_limit": 12}, "loss_limit", 6),
        ("kozel", None, {"open_throws": True, "eggs_double_next": True}, "eggs_double_next", False),
        ("kozel", None, {"eggs_double_next": 0}, "eggs_double_next", False),
    ],
)
def test_match_settings_refuse_another_value_naming_the_competitions(
    game: str, fmt: str | None, options: dict | None, field: str, competition: object
) -> None:
    match_format = "quick" if game == "cuttle" else {"loss_limit": 6}
    with pytest.raises(InvalidSetupError) as raised:
        rules_for(game).match_settings(match_format, fmt, options)
    assert "FORMAT_MISMATCH" == raised.value.code
    assert field == raised.value.details["field"]
    assert competition == raised.value.details["competition"]
    assert f"the competition's {field} is {competition!r}" in raised.value.message


@pytest.mark.parametrize("game", ["cuttle", "kozel"])
def test_cli_answers_are_the_branches(game: str) -> None:
    rules = rules_for(game)
    assert rules.default_variant == ("standard" if game == "cuttle" else "default")
    # The CLI passes --format and --loss-limit alike; each game keeps what it knows.
    given = MatchConfig(
        game, rules.default_variant, (), 0, format="short", options={"loss_limit": 5}
    )
    config = rules.validate(given)
    want_settings = ("short", None) if game == "cuttle" else (None, 5)
    assert want_settings == (config.format, config.options.get("loss_limit"))
    want = "quick" if game == "cuttle" else {"loss_limit": 5}
    assert rules.competition_format("quick", {"loss_limit": 5}) == want


def test_canonical_formats() -> None:
    cuttle, kozel = rules_for("cuttle"), rules_for("kozel")
    assert cuttle.canonical_format(None) == "normal"
    assert cuttle.canonical_format("best-of-3") == "normal"
    assert kozel.canonical_format(None) == {"loss_limit": 12, "eggs_double_next": False}
    with pytest.raises(DomainError):
        kozel.canonical_format({"open_throws": True})
    with pytest.raises(DomainError):
        cuttle.canonical_format({"loss_limit": 4})
