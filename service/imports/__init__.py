"""Importing game logs: read them, check each match, record it through the recorder.

Files, folders and ``-`` (stdin), either format, gzip or not (recognised by content,
not by name). Each match is checked by the same engine and recorder as the API and
recorded whole or not at all, in input order; a bad match is reported as
``file:line: CODE reason`` and the import goes on. Matches are recorded in batches
(``BATCH_MATCHES``, one transaction each; a batch the database refuses is recorded
match by match), because every SQL statement costs a fixed slice of Python time.
Input is streamed: only the batches in flight are held in memory. What the import
shows as it goes (progress, problems) goes to an ``ImportView`` (cli/importer.py).

The modules: ``reading`` (inputs, lines, matches and chunks), ``importer`` (checking
and recording a batch), ``parallel`` (batches in flight, worker processes),
``garbage`` (collecting less often) and ``run`` (the entry point and its counts).
"""

from service.imports.importer import Importer, Outcome
from service.imports.parallel import BATCH_MATCHES
from service.imports.reading import loads_line, read_logs
from service.imports.run import ImportView, Summary, default_jobs, run_import

__all__ = [
    "BATCH_MATCHES",
    "ImportView",
    "Importer",
    "Outcome",
    "Summary",
    "default_jobs",
    "loads_line",
    "read_logs",
    "run_import",
]
