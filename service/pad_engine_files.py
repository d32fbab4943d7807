"""What the pad's in-browser engine loads from this server besides the Pyodide runtime.

The engine (``projections.pad_engine``) runs in the page on Pyodide. It needs its own
Python modules, which this module packs into one zip, and the ``moves`` catalog of the
page's language, compiled (``service.i18n.compiled_catalog``). Each file's name carries a
hash of its content, so a browser may keep it for good: a new release names new files.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

import domain
import projections
from service.i18n import compiled_catalog

ENGINE_MODULES: Final = (
    "projections/__init__.py",
    "projections/replay.py",
    "projections/pad_engine.py",
)
"""The modules beside ``domain`` that the engine imports (tests check nothing else is)."""

PYODIDE_VERSION: Final = "314.0.8"
"""The Pyodide release under ``api/vendor/pyodide/`` (npm's ``pyodide`` package)."""


@dataclass(frozen=True, slots=True)
class EngineFile:
    """A file the engine loads: its name (with its content's hash) and its bytes."""

    name: str
    content: bytes
    media_type: str


def _named(stem: str, suffix: str, content: bytes, media_type: str) -> EngineFile:
    digest = hashlib.sha256(content).hexdigest()[:16]
    return EngineFile(f"{stem}-{digest}{suffix}", content, media_type)


@cache
def modules_zip() -> EngineFile:
    """Return the engine's Python modules as one zip: every module of ``domain`` and
    ``ENGINE_MODULES``, at the paths they are imported by."""
    root = Path(domain.__file__).parent.parent
    assert Path(projections.__file__).parent.parent == root
    paths = sorted(p.relative_to(root).as_posix() for p in (root / "domain").rglob("*.py"))
    paths += ENGINE_MODULES
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in paths:
            # A fixed date: the same modules make the same bytes, and so the same name.
            info = zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, (root / path).read_bytes())
    return _named("modules", ".zip", packed.getvalue(), "application/zip")


@cache
def moves_catalog(lang: str) -> EngineFile | None:
    """Return ``lang``'s compiled ``moves`` catalog, or ``None`` for English."""
    compiled = compiled_catalog(lang, "moves")
    if compiled is None:
        return None
    return _named(f"moves-{lang}", ".mo", compiled, "application/octet-stream")


def engine_file(name: str, languages: tuple[str, ...]) -> EngineFile | None:
    """Return the engine file called ``name`` (a name ``modules_zip`` or ``moves_catalog``
    of one of ``languages`` gives), or ``None``."""
    candidates = [modules_zip(), *(moves_catalog(lang) for lang in languages)]
    return next((f for f in candidates if f is not None and f.name == name), None)


__all__ = [
    "ENGINE_MODULES",
    "PYODIDE_VERSION",
    "EngineFile",
    "engine_file",
    "modules_zip",
    "moves_catalog",
]
