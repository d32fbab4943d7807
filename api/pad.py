"""``/score`` and ``/matches/{id}/score``: the scorer's pad, a page to record a live match.

The pages are HTML shells like the viewer's (``api.viewer.page``): no token and no
card is in them. Their scripts (``api/static/table.js``, the drawing the viewer
uses too, and ``api/static/pad.js``) read and write through the JSON API with the
scorer's token in the ``Authorization`` header. A browser opening a page sends no
token, so a match's shell is served to anyone once the match exists: whoever has
no rights on it gets a page that can show nothing but a refusal.
"""

from __future__ import annotations

import gzip
import mimetypes
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Final

from anyio import to_thread
from litestar import Controller, Request, Response, get
from litestar.datastructures import CacheControlHeader
from litestar.di import NamedDependency
from litestar.params import Parameter
from psycopg_pool import AsyncConnectionPool

from api.matches import MatchId
from api.schemas import problem_responses
from api.security import WASM
from api.viewer import PAGE_TITLES, page
from domain.errors import NotFoundError
from service.access import existing_match
from service.i18n import LANGUAGES, PSEUDO, translations
from service.pad_engine_files import PYODIDE_VERSION, engine_file, modules_zip, moves_catalog

PAD_SCRIPTS = ("table.js", "session.js", "engine.js", "pad.js")
"""The pad's scripts under ``/static``, in load order: the shared drawing and sign-in first,
then the loader of the in-browser engine."""
PAD_STYLE = "pad.css"
_HTML = "text/html; charset=utf-8"

RUNTIME_PATH: Final = f"/vendor/pyodide/{PYODIDE_VERSION}/"
"""Where the Pyodide runtime is served: the version in the path, so it is kept for good."""
_RUNTIME_DIR: Final = Path(__file__).parent / "vendor" / "pyodide" / PYODIDE_VERSION
RUNTIME_FILES: Final = frozenset(
    line.split()[1] for line in (_RUNTIME_DIR / "SHA256SUMS").read_text().splitlines() if line
)
"""The runtime's files a page may load: those its checksums list."""
_WORKER: Final = Path(__file__).parent / "static" / "engine-worker.js"
EngineFileName = Annotated[
    str, Parameter(title="File name", description="As `GET /pad/engine` names it.")
]
_FOREVER: Final = CacheControlHeader(public=True, max_age=365 * 24 * 3600, immutable=True)
# The pad's pages may compile WebAssembly (the engine's runtime); no other page may.
_PAD_OPT: Final[dict[str, Any]] = {WASM: True}


class PadController(Controller):
    """HTML pages of the scorer's pad."""

    tags = ("pad",)
    include_in_schema = False

    @get("/score", operation_id="ScorePad", media_type="text/html", opt=_PAD_OPT)
    async def home(self, lang: NamedDependency[str]) -> Response[str]:
        """Return the pad's first page: sign in, the live matches to record, a new match."""
        html = page(
            "score",
            "",
            translations(lang, "pages").gettext(PAGE_TITLES["pad"]),
            "/matches?status=live",
            lang=lang,
            scripts=PAD_SCRIPTS,
            style=PAD_STYLE,
        )
        return Response(html, media_type=_HTML)

    @get(
        "/matches/{match_id:uuid}/score",
        operation_id="ScoreMatch",
        responses=problem_responses(404),
        media_type="text/html",
        opt=_PAD_OPT,
    )
    async def score_match(
        self,
        match_id: MatchId,
        pool: NamedDependency[AsyncConnectionPool],
        lang: NamedDependency[str],
    ) -> Response[str]:
        """Return the pad of one match.

        Raises:
            NotFoundError (MATCH_NOT_FOUND): there is no such match.
        """
        await existing_match(pool, match_id)
        html = page(
            "pad",
            str(match_id),
            translations(lang, "pages").gettext(PAGE_TITLES["pad"]),
            f"/matches/{match_id}",
            lang=lang,
            scripts=PAD_SCRIPTS,
            style=PAD_STYLE,
        )
        return Response(html, media_type=_HTML)

    @get(
        "/pad/engine-worker.js",
        operation_id="PadEngineWorker",
        media_type="text/javascript",
        opt=_PAD_OPT,
    )
    async def engine_worker(self) -> Response[bytes]:
        """Return the engine's worker script under the pad's policy: a worker keeps the
        policy its script is served with, and it compiles the runtime's WebAssembly."""
        return Response(_WORKER.read_bytes(), media_type="text/javascript")

    @get("/pad/engine", operation_id="PadEngine", cache_control=CacheControlHeader(no_cache=True))
    async def engine(self, lang: NamedDependency[str]) -> dict[str, str | None]:
        """Return where the pad's in-browser engine loads from: the runtime, the Python
        modules and the ``moves`` catalog of the request's language (``null``: English)."""
        catalog = moves_catalog(lang)
        return {
            "runtime": RUNTIME_PATH,
            "modules": "/pad/engine/" + modules_zip().name,
            "catalog": None if catalog is None else "/pad/engine/" + catalog.name,
        }

    @get(
        "/pad/engine/{name:str}",
        operation_id="PadEngineFile",
        responses=problem_responses(404),
        cache_control=_FOREVER,
    )
    async def engine_file(self, name: EngineFileName) -> Response[bytes]:
        """Return one of the engine's files, named by its content's hash.

        Raises:
            NotFoundError (NOT_FOUND): no such file (an older release's, say).
        """
        found = engine_file(name, (*LANGUAGES, PSEUDO))
        if found is None:
            raise NotFoundError("no such file of the pad's engine", details={"name": name})
        return Response(found.content, media_type=found.media_type)


class RuntimeController(Controller):
    """The vendored Pyodide runtime, kept by browsers for good."""

    path = RUNTIME_PATH.rstrip("/")
    include_in_schema = False

    @get("/{name:str}", operation_id="PadRuntimeFile", cache_control=_FOREVER)
    async def runtime_file(
        self, name: EngineFileName, request: Request[Any, Any, Any]
    ) -> Response[bytes]:
        """Return one file of the runtime, gzipped for a browser that takes it.

        Raises:
            NotFoundError (NOT_FOUND): not a file of the runtime.
        """
        if name not in RUNTIME_FILES:
            raise NotFoundError("no such file of the pad's runtime", details={"name": name})
        media_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
        headers = {"Vary": "Accept-Encoding"}
        if "gzip" not in request.headers.get("accept-encoding", ""):
            return Response(_runtime_bytes(name), media_type=media_type, headers=headers)
        # Compressed once per process, off the event loop (the WebAssembly takes 0.8 s):
        # it halves the first load, 13.5 MB to 6.4 MB.
        packed = await to_thread.run_sync(_gzipped, name)
        return Response(
            packed, media_type=media_type, headers={**headers, "Content-Encoding": "gzip"}
        )


@cache
def _runtime_bytes(name: str) -> bytes:
    return (_RUNTIME_DIR / name).read_bytes()


@cache
def _gzipped(name: str) -> bytes:
    return gzip.compress(_runtime_bytes(name), compresslevel=6, mtime=0)


__all__ = [
    "PAD_SCRIPTS",
    "PAD_STYLE",
    "RUNTIME_FILES",
    "RUNTIME_PATH",
    "PadController",
    "RuntimeController",
]
