"""The ``matchlog`` command line: cli/app.py's commands, loaded with the collector paused.

Loading the commands creates a few hundred thousand objects (modules, classes,
pydantic and Typer models) and no garbage; at CPython's default thresholds the
cyclic collector ran again and again over them meanwhile, for about a fifth of
start-up (docs/benchmarks.md, Import, "Now"). What was loaded is then frozen, so later
collections skip it (and forked ``--jobs`` workers leave those pages shared).
"""

from __future__ import annotations

import gc

gc.disable()
try:
    from cli.app import app
finally:
    gc.freeze()
    gc.enable()

__all__ = ["app"]

if __name__ == "__main__":
    app()
