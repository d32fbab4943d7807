"""``OPTIONS``: the methods a path takes, all of them.

Litestar answers ``OPTIONS`` itself, from a handler it makes when a path's first
handler is registered; the path's later handlers (a controller registers its handlers
one by one) are missing from its ``Allow``: ``/competitions/{id}/entrants`` said
``OPTIONS, POST`` though it takes ``GET`` too. ``answer_options`` answers from the
app's map of every path's handlers instead.
"""

from __future__ import annotations

from typing import Any

from litestar import Request, Response
from litestar.status_codes import HTTP_204_NO_CONTENT


def answer_options(request: Request[Any, Any, Any]) -> Response[None] | None:
    """Return the answer to an ``OPTIONS`` request (``None`` for any other request)."""
    if request.method != "OPTIONS":
        return None
    methods: set[str] = {"OPTIONS"}
    for path in request.route_handler.paths:
        methods.update(request.app.route_handler_method_map.get(path, {}))
    allow = ", ".join(sorted(methods))
    return Response(None, status_code=HTTP_204_NO_CONTENT, headers={"Allow": allow})


__all__ = ["answer_options"]
