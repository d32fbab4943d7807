"""A competition's rounds as data both faces give: JSON, flat rows, CSV and Markdown."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

from service.fixtures import swiss_scores
from store.accounts import ByeScore
from store.fixtures import StoredRound, Table

ROW_COLUMNS = ("round", "table", "first", "second", "result", "dealer", "match")
"""The flat rows' columns: a table's entrants by seat order (a bye in ``first``), the
result from their sides, and the seat that deals first. Rows of a competition with
tables of three add ``third`` after ``second`` (``row_columns``)."""


def row_columns(rows: Sequence[Mapping[str, str]]) -> tuple[str, ...]:
    """Return the columns of these rows: ``ROW_COLUMNS``, with ``third`` if a table has one."""
    if any(row.get("third") for row in rows):
        at = ROW_COLUMNS.index("second") + 1
        return (*ROW_COLUMNS[:at], "third", *ROW_COLUMNS[at:])
    return ROW_COLUMNS


def rounds_report(rounds: Sequence[StoredRound], bye: ByeScore = "win") -> dict[str, Any]:
    """Return the rounds as ``GET /competitions/{id}/fixtures`` answers them (JSON-ready).

    ``swiss_scores`` gives each entrant seated or given a bye so far the score Swiss
    rounds are paired by (byes counted as the competition's ``bye`` says).
    """
    seated = dict.fromkeys(
        e for r in rounds for e in (*(x for t in r.tables for x in t.entrants), *r.byes)
    )
    scores = swiss_scores(list(seated), rounds, bye)
    return {
        "rounds": [
            {
                "number": r.number,
                "system": r.system,
                "rematches": r.rematches,
                "tables": [table_report(t) for t in r.tables],
                "byes": [str(e) for e in r.byes],
            }
            for r in rounds
        ],
        "swiss_scores": {str(e): float(score) for e, score in scores.items()},
    }


def table_report(table: Table) -> dict[str, Any]:
    """Return one table as the fixtures' body gives it (JSON-ready)."""
    return {
        "id": str(table.id),
        "entrants": [str(e) for e in table.entrants],
        "players": [str(p) for p in table.players],
        "first_dealer": table.first_dealer,
        "match_id": None if table.match_id is None else str(table.match_id),
        "result": _result(table.result),
    }


def _result(result: Mapping[str, Any] | None) -> dict[str, Any] | None:
    # A forfeit names its entrants by id: as text, so the report is JSON-ready.
    if result is None:
        return None
    if "forfeited_by" not in result:
        return dict(result)
    return {**result, "forfeited_by": [str(e) for e in result["forfeited_by"]]}


def result_text(table: Mapping[str, Any]) -> str:
    """Return a table's result as each entrant's score in seat order ('' if none).

    A seat's entrant is ``seat % entrants``: a Kozel pair holds seats 0 and 2 (or 1 and 3).
    A forfeit is marked ``ff``; a double forfeit scores nobody.

    >>> result_text({"entrants": ["a", "b"], "result": {"winners": [1, 3], "draw": False}})
    '0-1'
    >>> result_text({"entrants": ["a", "b"], "result": {"winners": [], "draw": True}})
    '½-½'
    >>> result_text({"entrants": "abc", "result": {"winners": [2], "forfeit": True}})
    '0-0-1 ff'
    """
    result = table["result"]
    if result is None:
        return ""
    count = len(table["entrants"])
    if result.get("draw"):
        return "-".join(["½" if count == 2 else "draw"] * count)
    won = {s % count for s in result["winners"]}
    text = "-".join("1" if i in won else "0" for i in range(count))
    return f"{text} ff" if result.get("forfeit") else text


def fixture_rows(report: Mapping[str, Any], names: Mapping[str, str]) -> list[dict[str, str]]:
    """Return one row per table and per bye, entrants by ``names`` (entrant id to name)."""
    rows = []
    for r in report["rounds"]:
        for number, t in enumerate(r["tables"], start=1):
            seated = [names.get(e, e) for e in t["entrants"]]
            dealer = t.get("first_dealer")
            rows.append(
                {
                    "round": str(r["number"]),
                    "table": str(number),
                    "first": seated[0],
                    "second": seated[1],
                    "third": seated[2] if len(seated) > 2 else "",
                    "result": result_text(t),
                    "dealer": "" if dealer is None else str(dealer),
                    "match": t["match_id"] or "",
                }
            )
        for entrant in r["byes"]:
            rows.append(
                {
                    "round": str(r["number"]),
                    "table": "bye",
                    "first": names.get(entrant, entrant),
                    "second": "",
                    "third": "",
                    "result": "",
                    "dealer": "",
                    "match": "",
                }
            )
    return rows


def rows_csv(rows: Sequence[Mapping[str, str]]) -> str:
    """Render fixture rows as CSV with a header."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    columns = row_columns(rows)
    writer.writerow(columns)
    for row in rows:
        writer.writerow([row[c] for c in columns])
    return buffer.getvalue()


def rows_markdown(rows: Sequence[Mapping[str, str]], title: str) -> str:
    """Render fixture rows as a Markdown table under ``title``."""
    lines = [f"# {title}: fixtures", ""]
    columns = row_columns(rows)
    lines.append("| " + " | ".join(columns) + " |")
    lines.append("|" + "|".join("---" for _ in columns) + "|")
    for row in rows:
        cells = (row[c].replace("|", "\\|") for c in columns)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


__all__ = [
    "ROW_COLUMNS",
    "fixture_rows",
    "result_text",
    "rounds_report",
    "row_columns",
    "rows_csv",
    "rows_markdown",
    "table_report",
]
