"""``/competitions/{id}/standings``: the standings read model as JSON, CSV or Markdown."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from litestar import Controller, Request, Response, get
from litestar.di import NamedDependency
from litestar.params import Parameter
from psycopg_pool import AsyncConnectionPool

from api.auth import Principal, require_read
from api.competitions import CompetitionId
from api.replays import player_names
from api.schemas import problem_responses
from projections.standings import CUTTLE_STATS, KOZEL_STATS, find_standings
from store import accounts

_MEDIA = {"json": "application/json", "csv": "text/csv", "markdown": "text/markdown"}
Format = Literal["json", "csv", "markdown"]


def columns(game: str, tiebreaks: Sequence[str]) -> list[str]:
    """Return the export columns of a game's table, tiebreaks in the competition's order."""
    stats = KOZEL_STATS if game == "kozel" else CUTTLE_STATS
    return ["rank", "name", *stats, *tiebreaks, "mu", "sigma", "ordinal"]


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None else str(value)


def flat_rows(standings: dict[str, Any], table: str) -> list[dict[str, str]]:
    """Return a table's rows as text cells under ``columns``."""
    out = []
    for row in standings.get(table, []):
        cells = {"rank": str(row["rank"]), "name": row["name"]}
        for key, value in row.items():
            if isinstance(value, int | float) and key != "rank":
                cells[key] = _number(value)
        for key, value in row["tiebreaks"].items():
            cells[key] = _number(value)
        for key, value in (row.get("rating") or {}).items():
            cells[key] = _number(value)
        out.append(cells)
    return out


def to_csv(standings: dict[str, Any]) -> str:
    """Render standings as CSV: one header, a ``table`` column (players or pairs)."""
    cols = columns(standings["game"], standings["tiebreaks"])
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["table", *cols])
    for table in ("players", "pairs"):
        for cells in flat_rows(standings, table):
            writer.writerow([table, *(cells.get(c, "") for c in cols)])
    return buffer.getvalue()


def to_markdown(standings: dict[str, Any], title: str) -> str:
    """Render standings as Markdown tables, one per table (players, then pairs)."""
    cols = columns(standings["game"], standings["tiebreaks"])
    lines = [f"# {title}", "", f"{standings['matches']} finished matches.", ""]
    for table in ("players", "pairs"):
        if table not in standings:
            continue
        lines += [f"## {table.capitalize()}", ""]
        lines.append("| " + " | ".join(cols) + " |")
        lines.append("|" + "|".join("---" for _ in cols) + "|")
        for cells in flat_rows(standings, table):
            lines.append("| " + " | ".join(cells.get(c, "") for c in cols) + " |")
        lines.append("")
    return "\n".join(lines)


class StandingsController(Controller):
    """Competition standings."""

    path = "/competitions"
    tags = ("standings",)

    @get(
        "/{competition_id:uuid}/standings",
        operation_id="GetStandings",
        summary="Standings and ratings: JSON, CSV or Markdown (?format= or Accept)",
        responses=problem_responses(401, 403, 404, 422),
    )
    async def standings(
        self,
        request: Request[Any, Any, Any],
        competition_id: CompetitionId,
        principal: NamedDependency[Principal | None],
        pool: NamedDependency[AsyncConnectionPool],
        format: Annotated[
            Format | None,
            Parameter(description="json (default), csv or markdown; else the Accept header."),
        ] = None,
    ) -> Response[Any]:
        """Return the standings; players' names are today's display names."""
        async with pool.connection() as conn:
            competition = await accounts.get_competition(conn, competition_id)
            require_read(principal, competition)
            stored = await find_standings(conn, competition_id)
            body = stored or {
                "game": competition.game,
                "tiebreaks": list(competition.tiebreaks),
                "matches": 0,
                "players": [],
                **({"pairs": []} if competition.game == "kozel" else {}),
            }
            members = {
                m for t in ("players", "pairs") for r in body.get(t, []) for m in r["members"]
            }
            names = dict(
                zip(sorted(members), await player_names(conn, sorted(members)), strict=True)
            )
        stats = KOZEL_STATS if competition.game == "kozel" else CUTTLE_STATS
        for table in ("players", "pairs"):
            if table in body:
                body[table] = [_ordered(row, names, stats) for row in body[table]]
        body["competition_id"] = str(competition_id)
        chosen = format or _from_accept(request.headers.get("accept", ""))
        if chosen == "csv":
            return Response(to_csv(body), media_type=_MEDIA["csv"])
        if chosen == "markdown":
            return Response(to_markdown(body, competition.name), media_type=_MEDIA["markdown"])
        return Response(body, media_type=_MEDIA["json"])


def _ordered(row: dict[str, Any], names: dict[str, str], stats: Sequence[str]) -> dict[str, Any]:
    """Return a stored row with its name and its keys in column order (jsonb sorts them)."""
    out: dict[str, Any] = {
        "rank": row["rank"],
        "name": " & ".join(names[m] for m in row["members"]),
        "entity": row["entity"],
        "members": row["members"],
    }
    out.update({key: row[key] for key in stats if key in row})
    out["points"] = row["points"]
    out["tiebreaks"] = row["tiebreaks"]
    if "rating" in row:
        out["rating"] = row["rating"]
    return out


def _from_accept(accept: str) -> Format:
    if "text/csv" in accept:
        return "csv"
    if "text/markdown" in accept:
        return "markdown"
    return "json"


__all__ = ["StandingsController", "to_csv", "to_markdown"]
