"""Standings as people read them: named rows in column order, and CSV or Markdown.

The API (``GET /competitions/{id}/standings``) and the CLI (``matchlog standings``)
both render through here, so a table reads the same wherever it is exported. Ratings
(``mu``, ``sigma``, ``ordinal``) are written to ``RATING_DECIMALS`` places in tables and
Markdown and ``CSV_RATING_DECIMALS`` in CSV; JSON keeps them whole.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

import psycopg

from domain.games import rules_for
from projections.standings import find_standings
from store.accounts import Competition


async def player_names(conn: psycopg.AsyncConnection[Any], players: Sequence[str]) -> list[str]:
    """Return the display names of ``players`` (in order); an unknown id stays as it is."""
    cur = await conn.execute(
        "SELECT id::text, display_name FROM players WHERE id = ANY(%s::uuid[])", (list(players),)
    )
    names = dict(await cur.fetchall())
    return [names.get(p, p) for p in players]


async def standings_report(
    conn: psycopg.AsyncConnection[Any], competition: Competition
) -> dict[str, Any]:
    """Return a competition's standings with players' names and rows in column order.

    Names are today's display names; before any match has ended the tables are empty.
    """
    stored = await find_standings(conn, competition.id)
    rules = rules_for(competition.game)
    body = stored or {
        "game": competition.game,
        "tiebreaks": list(competition.tiebreaks),
        "matches": 0,
        "forfeits": 0,
        **{table: [] for table in rules.standings_tables},
    }
    body.setdefault("forfeits", 0)
    members = {m for t in ("players", "pairs") for r in body.get(t, []) for m in r["members"]}
    names = dict(zip(sorted(members), await player_names(conn, sorted(members)), strict=True))
    stats = rules.standings_stats
    for table in ("players", "pairs"):
        if table in body:
            body[table] = [_ordered(row, names, stats) for row in body[table]]
    body["competition_id"] = str(competition.id)
    return body


def columns(game: str, tiebreaks: Sequence[str]) -> list[str]:
    """Return the export columns of a game's table, tiebreaks in the competition's order."""
    stats = rules_for(game).standings_stats
    return ["rank", "name", *stats, *tiebreaks, "mu", "sigma", "ordinal"]


RATING_PARTS = ("mu", "sigma", "ordinal")
"""A rating's parts, as openskill gives them (floats of 17 digits)."""
RATING_DECIMALS = 2
"""Places a rating is written to for people (tables, Markdown): 25.00, 8.33."""
CSV_RATING_DECIMALS = 4
"""Places a rating is written to in CSV: enough to sort by, short of float noise."""


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None else str(value)


def flat_rows(
    standings: dict[str, Any], table: str, rating_decimals: int = RATING_DECIMALS
) -> list[dict[str, str]]:
    """Return a table's rows as text cells under ``columns``, ratings to so many places."""
    out = []
    for row in standings.get(table, []):
        cells = {"rank": str(row["rank"]), "name": row["name"]}
        for key, value in row.items():
            if isinstance(value, int | float) and key != "rank":
                cells[key] = _number(value)
        for key, value in row["tiebreaks"].items():
            cells[key] = _number(value)
        for key, value in (row.get("rating") or {}).items():
            number = isinstance(value, int | float) and key in RATING_PARTS
            cells[key] = f"{value:.{rating_decimals}f}" if number else _number(value)
        out.append(cells)
    return out


def filled_columns(cols: Sequence[str], rows: Sequence[dict[str, str]]) -> list[str]:
    """Return the ``cols`` some row fills, with rank and name always; all of them for no rows.

    A Kozel pair has no rating, so a pairs table shows no rating columns; an empty
    table keeps every column so its header still says what will come.

    >>> filled_columns(["rank", "name", "won", "mu"], [{"rank": "1", "name": "A", "won": "2"}])
    ['rank', 'name', 'won']
    >>> filled_columns(["rank", "name", "mu"], [])
    ['rank', 'name', 'mu']
    """
    return [c for c in cols if not rows or c in ("rank", "name") or any(r.get(c) for r in rows)]


def to_csv(standings: dict[str, Any]) -> str:
    """Render standings as CSV: one header, a ``table`` column (players or pairs).

    The header is fixed by game and tiebreaks, whatever the rows fill (a pair's rating
    cells are empty), so scripts can rely on it.
    """
    cols = columns(standings["game"], standings["tiebreaks"])
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["table", *cols])
    for table in ("players", "pairs"):
        for cells in flat_rows(standings, table, CSV_RATING_DECIMALS):
            writer.writerow([table, *(cells.get(c, "") for c in cols)])
    return buffer.getvalue()


def to_markdown(standings: dict[str, Any], title: str) -> str:
    """Render standings as Markdown tables, one per table (players, then pairs).

    Each table leaves out the columns none of its rows fills (a pair has no rating).
    """
    all_cols = columns(standings["game"], standings["tiebreaks"])
    lines = [f"# {title}", "", f"{finished_matches(standings['matches'])}.", ""]
    for table in ("players", "pairs"):
        if table not in standings:
            continue
        rows = flat_rows(standings, table)
        cols = filled_columns(all_cols, rows)
        lines += [f"## {table.capitalize()}", ""]
        lines.append("| " + " | ".join(cols) + " |")
        lines.append("|" + "|".join("---" for _ in cols) + "|")
        for cells in rows:
            lines.append("| " + " | ".join(cells.get(c, "") for c in cols) + " |")
        lines.append("")
    return "\n".join(lines)


def finished_matches(count: int) -> str:
    """Return how many matches a table counts, in words.

    >>> finished_matches(1), finished_matches(2)
    ('1 finished match', '2 finished matches')
    """
    return f"{count} finished match" + ("" if count == 1 else "es")


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
    # Rows stored before forfeits were counted have neither.
    out["forfeits_won"] = row.get("forfeits_won", 0)
    out["forfeits_lost"] = row.get("forfeits_lost", 0)
    out["tiebreaks"] = row["tiebreaks"]
    if "rating" in row:
        out["rating"] = row["rating"]
    return out


__all__ = [
    "CSV_RATING_DECIMALS",
    "RATING_DECIMALS",
    "RATING_PARTS",
    "columns",
    "filled_columns",
    "finished_matches",
    "flat_rows",
    "player_names",
    "standings_report",
    "to_csv",
    "to_markdown",
]
