"""A competition's format is the format of its matches: the one rule, and the matches
recorded against it.

A match of a competition plays its game, variant and format (Cuttle's series format,
Kozel's loss limit and eggs rule): it may name them again or name nothing, and adds
what the competition does not fix (Kozel's ``open_throws``). ``POST /matches`` and
``matchlog import`` settle a match's rules here; ``matchlog verify`` lists the matches
recorded before the rule held (docs/event-store.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import psycopg

from domain.errors import DomainError, InvalidSetupError
from domain.stream import MatchConfig, rules_for
from store import accounts
from store.accounts import Competition
from store.reads import competition_openings


@dataclass(frozen=True, slots=True)
class OffFormat:
    """A match recorded against its competition's format: ``code`` and ``reason`` say how."""

    stream: str
    competition_id: str
    code: str
    reason: str


def competition_settings(
    competition: Competition,
    game: str,
    variant: str | None,
    format: str | None,
    options: Mapping[str, Any] | None,
) -> tuple[str, str | None, Mapping[str, Any] | None]:
    """Return the variant, format and options of a match of ``competition``.

    ``None`` takes the competition's; what it does not fix the match adds.

    Raises:
        InvalidSetupError (INVALID_FORMAT): another game or variant.
        InvalidSetupError (FORMAT_MISMATCH): another format, loss limit or eggs rule;
            the message names the competition's.
    """
    details = {"competition_id": str(competition.id)}
    if competition.game != game or variant not in (None, competition.variant):
        raise InvalidSetupError(
            f"competition {competition.name!r} plays {competition.game} {competition.variant}",
            code="INVALID_FORMAT",
            details=details,
        )
    try:
        fmt, settled = rules_for(game).match_settings(competition.match_format, format, options)
    except InvalidSetupError as e:
        raise InvalidSetupError(e.message, code=e.code, details={**e.details, **details}) from None
    return competition.variant, fmt, settled


def check_config(competition: Competition, config: MatchConfig) -> None:
    """Refuse a whole match config (an imported or a recorded one) off its competition's format.

    Raises:
        DomainError: as ``competition_settings``, or the game's refusal of the config.
    """
    canonical = rules_for(config.game).validate(config)
    competition_settings(
        competition, canonical.game, canonical.variant, canonical.format, canonical.options
    )


async def off_format_matches(conn: psycopg.AsyncConnection[Any]) -> list[OffFormat]:
    """Return every recorded match whose rules are not its competition's, by stream."""
    competitions: dict[str, Competition] = {}
    found = []
    for stream, data in await competition_openings(conn):
        try:
            config = MatchConfig.from_data(data)
            competition_id = str(config.competition_id)
            if competition_id not in competitions:
                competitions[competition_id] = await accounts.get_competition(
                    conn, UUID(competition_id)
                )
            check_config(competitions[competition_id], config)
        except DomainError as e:
            found.append(OffFormat(stream, str(data.get("competition_id")), e.code, e.message))
    return found


__all__ = ["OffFormat", "check_config", "competition_settings", "off_format_matches"]
