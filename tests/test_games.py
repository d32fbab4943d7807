"""The game seam: every registered game answers the whole ``GameRules`` protocol, and
the answers the api/cli branches need are the ones those branches give today."""

from __future__ import annotations

import inspect

import pytest

from domain.errors import DomainError, InvalidSetupError
from domain.game_rules import GameRules
from domain.games import GAMES, rules_for


def _members() -> list[str]:
    return sorted(
        name for name in {*GameRules.__annotations__, *vars(GameRules)} if not name.startswith("_")
    )


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


@pytest.mark.parametrize("game", ["cuttle", "kozel"])
@pytest.mark.parametrize("fmt", [None, "short"])
@pytest.mark.parametrize("options", [None, {"loss_limit": 6}])
def test_match_settings_fill_gaps_as_the_api_did(game: str, fmt: str | None, options: dict) -> None:
    match_format = "best-of-7" if game == "cuttle" else {"loss_limit": 8}
    want_fmt, want_options = fmt, options
    if game == "cuttle" and fmt is None:
        want_fmt = match_format
    if game == "kozel" and options is None:
        want_options = dict(match_format)  # type: ignore[arg-type]
    assert rules_for(game).match_settings(match_format, fmt, options) == (want_fmt, want_options)


@pytest.mark.parametrize("game", ["cuttle", "kozel"])
def test_cli_answers_are_the_branches(game: str) -> None:
    rules = rules_for(game)
    assert rules.default_variant == ("standard" if game == "cuttle" else "default")
    options = {} if game == "cuttle" else {"loss_limit": 5}
    fmt = "short" if game == "cuttle" else None
    assert rules.cli_settings("short", 5) == (fmt, options)
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
