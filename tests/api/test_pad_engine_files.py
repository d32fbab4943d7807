"""What the pad's in-browser engine loads (#34): the runtime, its modules, its catalogs.

Every file comes from this server and is kept by the browser for good (its name or path
carries its version or hash); the modules hold everything the engine imports and no
module beyond ``domain`` and the engine's own; only the pad's pages may run WebAssembly.
"""

from __future__ import annotations

import gettext
import hashlib
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from api.pad import RUNTIME_PATH
from api.security import CONTENT_SECURITY_POLICY, WASM_POLICY
from domain.cards import deck
from domain.stream import CreateMatch, MatchConfig, MatchState, StartRound, step
from service.pad_engine_files import ENGINE_MODULES, PYODIDE_VERSION, modules_zip, moves_catalog

VENDOR = Path(__file__).resolve().parents[2] / "api" / "vendor" / "pyodide" / PYODIDE_VERSION


def test_the_manifest_names_the_files_of_the_page_language(client: TestClient[Any]) -> None:
    english = client.get("/pad/engine").json()
    assert english == {
        "runtime": RUNTIME_PATH,
        "modules": "/pad/engine/" + modules_zip().name,
        "catalog": None,
    }
    russian = client.get("/pad/engine", headers={"Accept-Language": "ru"})
    assert "no-cache" in russian.headers["cache-control"]
    assert "Accept-Language" in russian.headers["vary"]
    catalog = client.get(russian.json()["catalog"])
    assert 200 == catalog.status_code
    assert "immutable" in catalog.headers["cache-control"]
    words = gettext.GNUTranslations(io.BytesIO(catalog.content))
    assert words.gettext("Cuttle") != "Cuttle"


def test_engine_files_are_named_by_their_content_and_kept_for_good(
    client: TestClient[Any],
) -> None:
    name = modules_zip().name
    answer = client.get("/pad/engine/" + name)
    assert 200 == answer.status_code
    assert hashlib.sha256(answer.content).hexdigest()[:16] in name
    assert "max-age=31536000" in answer.headers["cache-control"]
    gone = client.get("/pad/engine/modules-0000000000000000.zip")
    assert 404 == gone.status_code
    assert gone.json()["code"] == "NOT_FOUND"


def test_the_runtime_is_the_pinned_release_served_with_its_types(client: TestClient[Any]) -> None:
    sums = (VENDOR / "SHA256SUMS").read_text().split("\n")
    files = dict(reversed(line.split()) for line in sums if line)
    assert set(files) == {
        "pyodide.mjs",
        "pyodide.asm.mjs",
        "pyodide.asm.wasm",
        "python_stdlib.zip",
        "pyodide-lock.json",
    }
    for name, digest in files.items():
        assert hashlib.sha256((VENDOR / name).read_bytes()).hexdigest() == digest, name
    assert "Mozilla Public License Version 2.0" in (VENDOR / "LICENSE").read_text()
    wasm = client.get(RUNTIME_PATH + "pyodide.asm.wasm", headers={"Accept-Encoding": "gzip"})
    assert wasm.headers["content-type"] == "application/wasm"
    assert wasm.headers["content-encoding"] == "gzip"
    assert "immutable" in wasm.headers["cache-control"]
    assert wasm.content == (VENDOR / "pyodide.asm.wasm").read_bytes()  # as unpacked
    plain = client.get(RUNTIME_PATH + "pyodide-lock.json", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert plain.content == (VENDOR / "pyodide-lock.json").read_bytes()
    assert 404 == client.get(RUNTIME_PATH + "SHA256SUMS").status_code
    module = client.get(RUNTIME_PATH + "pyodide.mjs")
    assert module.headers["content-type"].startswith("text/javascript")


def test_only_the_pad_may_compile_webassembly(client: TestClient[Any]) -> None:
    assert WASM_POLICY != CONTENT_SECURITY_POLICY
    assert WASM_POLICY.replace(" 'wasm-unsafe-eval'", "") == CONTENT_SECURITY_POLICY
    assert client.get("/score").headers["content-security-policy"] == WASM_POLICY
    # The engine runs in a worker, which keeps the policy its script is served with.
    worker = client.get("/pad/engine-worker.js")
    assert worker.headers["content-type"].startswith("text/javascript")
    assert worker.headers["content-security-policy"] == WASM_POLICY
    for path in ("/", "/desk", "/pad/engine", RUNTIME_PATH + "pyodide.mjs"):
        assert client.get(path).headers["content-security-policy"] == CONTENT_SECURITY_POLICY


@pytest.mark.parametrize("lang", ["ja", "x-pseudo"])
def test_the_modules_alone_run_the_engine(tmp_path: Path, lang: str) -> None:
    """In a bare interpreter with nothing of ours but the zip: the engine imports, answers
    in the language of a catalog, and has loaded no module of ours beyond the zip's."""
    archive = tmp_path / "modules.zip"
    archive.write_bytes(modules_zip().content)
    names = zipfile.ZipFile(archive).namelist()
    assert set(ENGINE_MODULES) <= set(names)
    assert all(n.startswith("domain/") or n in ENGINE_MODULES for n in names)
    catalog = tmp_path / "moves.mo"
    found = moves_catalog(lang)
    assert found is not None
    catalog.write_bytes(found.content)
    script = f"""
import json, sys
sys.path.insert(0, {str(archive)!r})
from projections.pad_engine import BrowserMatch
match = BrowserMatch(json.dumps(["Ann", "Bob"]), {str(catalog)!r})
assert json.loads(match.confirm(json.dumps({_events()!r}))) == {{"held": True}}
answer = json.loads(match.answer(0))
ours = sorted({{m.split(".")[0] for m in sys.modules}} & {{"api", "cli", "service", "store",
    "projections", "domain", "psycopg", "litestar", "pydantic", "babel"}})
print(json.dumps([answer["match"]["status"], answer["legal"]["choices"], ours]))
"""
    run = subprocess.run(
        [sys.executable, "-I", "-c", script], capture_output=True, text=True, cwd=tmp_path
    )
    assert 0 == run.returncode, run.stderr
    status, offered, loaded = json.loads(run.stdout)
    assert status == "live"
    assert loaded == ["domain", "projections"]
    assert offered and all(c["sentence"] for c in offered)
    marked = all(c["sentence"].startswith("⟦") for c in offered)
    translated = all(not c["sentence"].isascii() for c in offered)
    assert marked if lang == "x-pseudo" else translated, offered


def _events() -> list[dict[str, Any]]:
    """A new scorer-dealt Cuttle match's events once its first round is dealt, as the API
    lists them."""
    config = MatchConfig("cuttle", "standard", ("a", "b"), 0, dealing="scorer")
    created, state = step(MatchState(), CreateMatch(config))
    dealt, _ = step(state, StartRound({"deck": " ".join(c.text() for c in deck())}))
    return [
        {"version": v, "type": e.type, "data": json.loads(json.dumps(e.data))}
        for v, e in enumerate([*created, *dealt], start=1)
    ]
