"""``/matches/{id}/series``, ``/timeline`` and ``/replay``: reading a match back.

Views come from the engines; raw event data is redacted with
``domain.stream.public_event_data`` while a match is live, unless the caller is a
scorer who may record it. Once the match is over its whole record is public.
"""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, get
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import Parameter
from psycopg_pool import AsyncConnectionPool

from api.auth import Principal
from api.matches import MatchId
from api.schemas import problem_responses
from domain.errors import ForbiddenError, MalformedError, NotFoundError
from domain.stream import rules_for
from projections.replay import Track, corrections, replay_at, timeline
from projections.replay_cache import ReplayCache
from projections.reports import player_names
from projections.series import find_series
from service.access import can_see_hidden, readable_match
from service.i18n import translations

SEAT_PATTERN = r"^ *(?:[0-9]+|[Pp][Uu][Bb][Ll][Ii][Cc]|[Ff][Uu][Ll][Ll])? *$"
"""What ``parse_seat`` reads, whatever the match's seats."""


def parse_seat(value: str, seats: int) -> int | str | None:
    """Read ``seat``: a seat number, ``public`` (``None``) or ``full``.

    Raises:
        MalformedError (VALIDATION_FAILED): anything else, or a seat the match lacks.
    """
    text = value.strip().lower()
    if text in ("public", ""):
        return None
    if text == "full":
        return "full"
    if text.isascii() and text.isdigit() and int(text) < seats:
        return int(text)
    raise MalformedError(
        f"seat {value!r} is not a seat 0-{seats - 1}, 'public' or 'full'",
        code="VALIDATION_FAILED",
        details={"field": "seat", "source": "query"},
    )


class ReplayController(Controller):
    """A match's series, timeline and replay."""

    path = "/matches"
    tags = ("replays",)

    @get(
        "/{match_id:uuid}/series",
        operation_id="GetMatchSeries",
        summary="Every scored round with running totals, and the match result",
        responses=problem_responses(401, 403, 404),
    )
    async def series(
        self,
        match_id: MatchId,
        principal: NamedDependency[Principal | None],
        reads: NamedDependency[AsyncConnectionPool],
    ) -> dict[str, Any]:
        """Return the series read model (rounds or deals, totals, result)."""
        row = await readable_match(reads, principal, match_id)
        async with reads.connection() as conn:
            series = await find_series(conn, match_id)
        if series is None:
            # Matches recorded before migration 0004 have none until a rebuild.
            raise NotFoundError(
                "this match's series is not built: run `matchlog projections rebuild`",
                code="SERIES_NOT_BUILT",
                details={"match_id": str(match_id)},
            )
        return {
            "match_id": str(match_id),
            "game": series["game"],
            "variant": series["variant"],
            "status": row["status"],
            "players": [str(p) for p in series["players"]],
            "rounds": series["rounds"],
            "totals": series["totals"],
            "result": series["result"],
        }

    @get(
        "/{match_id:uuid}/timeline",
        operation_id="GetMatchTimeline",
        summary="Every ply: seat, move in notation and a sentence (hidden cards redacted)",
        responses=problem_responses(401, 403, 404),
    )
    async def get_timeline(
        self,
        match_id: MatchId,
        principal: NamedDependency[Principal | None],
        reads: NamedDependency[AsyncConnectionPool],
        state: State,
        lang: NamedDependency[str],
    ) -> dict[str, Any]:
        """Return the timeline, sentences in the request's language; while live, anonymous
        readers see only public facts."""
        row = await readable_match(reads, principal, match_id)
        track, names = await self._track(reads, state, row)
        rights = can_see_hidden(principal, row["competition_id"])
        redact = row["status"] == "live" and not rights
        return {
            "match_id": str(match_id),
            "version": track.version,
            "players": names,
            "steps": timeline(
                track,
                names,
                redact=redact,
                show_tokens=rights,
                words=translations(lang, "moves"),
            ),
            **corrections(track, show_tokens=rights),
        }

    @get(
        "/{match_id:uuid}/replay",
        operation_id="GetMatchReplay",
        summary="The position after ply N: a seat's view, the public view or the full view",
        responses=problem_responses(401, 403, 404, 422),
    )
    async def replay(
        self,
        match_id: MatchId,
        principal: NamedDependency[Principal | None],
        reads: NamedDependency[AsyncConnectionPool],
        state: State,
        ply: Annotated[int, Parameter(ge=0, description="Plies played (0: before the first).")],
        seat: Annotated[
            str,
            Parameter(
                description="A seat number, 'public' (default) or 'full'.",
                schema_extra={"pattern": SEAT_PATTERN},
            ),
        ] = "public",
    ) -> dict[str, Any]:
        """Return the match after ``ply``; seat and full views need a finished match or a scorer."""
        row = await readable_match(reads, principal, match_id)
        track, _ = await self._track(reads, state, row, names=False)
        assert track.config is not None
        chosen = parse_seat(seat, rules_for(track.config.game).seats(track.config))
        hidden_ok = row["status"] != "live" or can_see_hidden(principal, row["competition_id"])
        if chosen is not None and not hidden_ok:
            raise ForbiddenError(
                "a seat's or the full view of a live match needs a scorer's token for it",
                details={"match_id": str(match_id), "seat": seat},
            )
        if ply > len(track.plies):
            raise MalformedError(
                f"ply {ply!r} is past the last ply ({len(track.plies)})",
                code="VALIDATION_FAILED",
                details={"field": "ply", "source": "query", "plies": len(track.plies)},
            )
        seat_view = chosen if isinstance(chosen, int) else None
        body = replay_at(track, ply, seat_view, full=chosen == "full")
        body["match_id"] = str(match_id)
        return body

    @staticmethod
    async def _track(
        pool: AsyncConnectionPool, state: State, row: dict[str, Any], *, names: bool = True
    ) -> tuple[Track, list[str]]:
        cache: ReplayCache = state.replays
        async with pool.connection() as conn:
            track = await cache.track(conn, row["stream"], row["version"])
            players = [str(p) for p in row["players"]]
            return track, (await player_names(conn, players) if names else players)


__all__ = ["ReplayController", "parse_seat", "player_names"]
