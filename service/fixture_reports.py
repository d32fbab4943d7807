"""A competition's rounds as data both faces give: JSON, flat rows, CSV and Markdown."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

from store.fixtures import StoredRound

ROW_COLUMNS = ("round", "table", "first", "second", "result", "match")
"""The flat rows' columns: a table's two entrants by seat order, or a bye in ``first``."""


def rounds_report(rounds: Sequence[StoredRound]) -> dict[str, Any]:
    """Return the rounds as ``GET /competitions/{id}/fixtures`` answers them (JSON-ready)."""
    return {
        "rounds": [
            {
                "number": r.number,
                "system": r.system,
                "rematches": r.rematches,
                "tables": [
                    {
                        "id": str(t.id),
                        "entrants": [str(e) for e in t.entrants],
                        "players": [str(p) for p in t.players],
                        "match_id": None if t.match_id is None else str(t.match_id),
                        "result": t.result,
                    }
                    for t in r.tables
                ],
                "byes": [str(e) for e in r.byes],
            }
            for r in rounds
        ]
    }


def result_text(table: Mapping[str, Any]) -> str:
    """Return a table's result as the first entrant's score to the second's ('' if none).

    A seat's entrant is ``seat % entrants``: a Kozel pair holds seats 0 and 2 (or 1 and 3).

    >>> result_text({"entrants": ["a", "b"], "result": {"winners": [1, 3], "draw": False}})
    '0-1'
    >>> result_text({"entrants": ["a", "b"], "result": {"winners": [], "draw": True}})
    '½-½'
    """
    result = table["result"]
    if result is None:
        return ""
    if result.get("draw"):
        return "½-½"
    first_won = any(s % len(table["entrants"]) == 0 for s in result["winners"])
    return "1-0" if first_won else "0-1"


def fixture_rows(report: Mapping[str, Any], names: Mapping[str, str]) -> list[dict[str, str]]:
    """Return one row per table and per bye, entrants by ``names`` (entrant id to name)."""
    rows = []
    for r in report["rounds"]:
        for number, t in enumerate(r["tables"], start=1):
            first, second = (names.get(e, e) for e in t["entrants"])
            rows.append(
                {
                    "round": str(r["number"]),
                    "table": str(number),
                    "first": first,
                    "second": second,
                    "result": result_text(t),
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
                    "result": "",
                    "match": "",
                }
            )
    return rows


def rows_csv(rows: Sequence[Mapping[str, str]]) -> str:
    """Render fixture rows as CSV with a header."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(ROW_COLUMNS)
    for row in rows:
        writer.writerow([row[c] for c in ROW_COLUMNS])
    return buffer.getvalue()


def rows_markdown(rows: Sequence[Mapping[str, str]], title: str) -> str:
    """Render fixture rows as a Markdown table under ``title``."""
    lines = [f"# {title}: fixtures", ""]
    lines.append("| " + " | ".join(ROW_COLUMNS) + " |")
    lines.append("|" + "|".join("---" for _ in ROW_COLUMNS) + "|")
    for row in rows:
        cells = (row[c].replace("|", "\\|") for c in ROW_COLUMNS)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


__all__ = [
    "ROW_COLUMNS",
    "fixture_rows",
    "result_text",
    "rounds_report",
    "rows_csv",
    "rows_markdown",
]
