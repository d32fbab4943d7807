"""The engines' public names stay importable where they were (issue #30, item 6).

Other programs script against the engines, so a name a package exports, or that docs/
cite, never disappears when code moves: it is re-exported from its old home. The lists
below are the packages' ``__all__`` as they stood before the game seam was split
(#30); a name dropped from a package's exports fails this test.
"""

from __future__ import annotations

import importlib

import pytest

EXPORTED: dict[str, tuple[str, ...]] = {
    "domain.cuttle": (
        *("LegalMoves", "Move", "Outcome", "Phase", "Position", "RULES_VERSION", "RoundSetup"),
        *("Stack", "Termination", "Variant", "apply", "cards_awaited", "cards_to_name"),
        *("controller", "decide", "evolve", "generate_moves", "goal", "initial_position"),
        *("is_legal", "is_terminal", "legal_moves", "outcome", "outcome_of", "push", "read"),
        *("service_moves", "step", "to_act", "totals", "view", "visible_hands"),
    ),
    "domain.kozel": (
        *("CONCEDE", "DealOutcome", "DealSetup", "KozelOptions", "LegalMoves", "Move", "PACK"),
        *("Play", "Position", "apply", "beats", "can_declare", "cards_awaited", "cards_to_name"),
        *("check", "deal_started", "decide", "evolve", "generate_legal_moves"),
        *("initial_position", "is_legal", "is_terminal", "legal_moves", "outcome", "play"),
        *("read", "record_view", "service_moves", "set_beats", "step", "team_of", "to_act"),
        *("unplaced_cards", "view"),
    ),
    "domain.stream": (
        *("AddNote", "Choice", "Command", "CreateMatch", "DEALINGS", "DealSpec", "Dealing"),
        *("GAMES", "GameRules", "MAX_NOTE_LENGTH", "MAX_REASON_LENGTH", "MatchConfig"),
        *("MatchState", "Play", "RECORDINGS", "RULES_VERSION", "Recording", "ResignMatch"),
        *("Series", "StartRound", "TakeBack", "UNDOING_EVENTS", "VersionedEvent", "VoidMatch"),
        *("choices", "decide", "effective_events", "evolve", "fold", "fold_stream"),
        *("fold_versioned", "is_move", "move_text", "public_event_data", "result_choices"),
        *("rules_for", "starts_command", "step", "undone_by"),
    ),
    "domain.match": (
        *("CuttleFormat", "CuttleSeries", "DealScore", "KozelSeries", "MatchResult"),
        *("score_deal", "series_score", "team_of"),
    ),
    "domain.legal": ("LegalMoveView",),
    "domain.games": ("GAMES", "rules_for"),
    "domain.game_rules": (
        *("CardsToName", "DealSpec", "GameRules", "MoveParts", "RESULT_ENTERED", "Series"),
        *("Tables", "bad_deal", "format_mismatch"),
    ),
    "domain.kozel.rules": (
        *("LegalMoves", "apply", "can_declare", "cards_awaited", "cards_to_name", "check"),
        *("deal_started", "decide", "evolve", "generate_legal_moves", "initial_position"),
        *("is_legal", "is_terminal", "legal_moves", "outcome", "play", "read"),
        *("service_moves", "step", "to_act", "unplaced_cards", "view"),
    ),
    "domain.kozel.state": (
        *("DealSetup", "EXAMPLE", "Play", "Position", "check_position", "format_options"),
        *("format_position", "new_position", "options_from_data", "options_to_data"),
        *("parse_options", "parse_position"),
    ),
    "domain.cuttle.state": (
        *("NAMING_KINDS", "Phase", "Position", "PositionFields", "RoundSetup", "Stack"),
        *("build_position", "card_key", "deal", "format_position", "hand_sizes", "pack"),
        *("parse_position", "placed_cards"),
    ),
    "domain.cuttle.match_rules": ("RULES", "CuttleRules"),
    "domain.kozel.match_rules": ("RULES", "KozelRules"),
    "domain.logs.text": (
        *("INFO_TAGS", "Lines", "is_text_line", "move_positions", "read_match"),
        *("result_text", "write_match"),
    ),
}
"""Each module's public names before #30 (the packages' ``__all__``, and the modules'
names that code outside ``domain/`` imports)."""

CITED = (
    "domain.stream.effective_events",
    "domain.stream.step",
    "domain.stream.move_text",
    "domain.logs.commands.replay",
    "domain.kozel.read",
    "domain.cuttle.read",
)
"""The names docs/ cite as ``domain.<module>.<name>``."""


@pytest.mark.parametrize("module", sorted(EXPORTED))
def test_every_exported_name_is_still_importable(module: str) -> None:
    found = importlib.import_module(module)
    missing = [name for name in EXPORTED[module] if not hasattr(found, name)]
    assert [] == missing


@pytest.mark.parametrize("module", sorted(m for m in EXPORTED if m.count(".") == 1))
def test_packages_still_export_their_names(module: str) -> None:
    """``from package import *`` still brings every name it brought."""
    exported = set(importlib.import_module(module).__all__)
    assert set() == set(EXPORTED[module]) - exported


@pytest.mark.parametrize("dotted", CITED)
def test_names_docs_cite_are_importable(dotted: str) -> None:
    module, _, name = dotted.rpartition(".")
    assert hasattr(importlib.import_module(module), name)
