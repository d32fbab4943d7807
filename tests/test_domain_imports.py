"""``domain/`` is pure: it imports only the standard library and itself, and does no I/O."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

DOMAIN = Path(__file__).resolve().parent.parent / "domain"
# Standard-library modules that read clocks, randomness, files or the network.
FORBIDDEN_STDLIB = {
    "time",
    "random",
    "os",
    "secrets",
    "socket",
    "subprocess",
    "io",
    "pathlib",
    "shutil",
    "tempfile",
    "urllib",
    "http",
    "asyncio",
    "threading",
    "logging",
    "sqlite3",
    "uuid",
}
ALLOWED_STDLIB_EXCEPTIONS = {"uuid"}  # UUID values are data; uuid4() is never called


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


@pytest.mark.parametrize(
    "path", sorted(DOMAIN.rglob("*.py")), ids=lambda p: str(p.relative_to(DOMAIN))
)
def test_domain_imports_only_stdlib_without_io(path: Path) -> None:
    for name in _imports(path):
        top = name.split(".")[0]
        if top == "domain" or top == "__future__":
            continue
        assert top in sys.stdlib_module_names, f"{path.name} imports third-party {name!r}"
        assert top not in FORBIDDEN_STDLIB - ALLOWED_STDLIB_EXCEPTIONS, (
            f"{path.name} imports {name!r}, which does I/O or reads a clock or randomness"
        )


def test_domain_never_calls_uuid4() -> None:
    for path in DOMAIN.rglob("*.py"):
        assert "uuid4" not in path.read_text(), f"{path.name} makes ids; they must arrive as data"
