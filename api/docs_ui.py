"""The API docs at ``/schema``: Swagger UI served from installed files, nothing from the internet.

Swagger UI's own files come from the ``swagger-ui-bundle`` package, our start-up script
from ``api/docs_assets``; both under ``/schema/swagger-ui/``. The page has no inline
script, so a ``script-src 'self'`` policy allows it. Litestar's other UIs are off.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from litestar import Request
from litestar.openapi.plugins import OpenAPIRenderPlugin, YamlRenderPlugin
from litestar.router import Router
from litestar.static_files import create_static_files_router
from swagger_ui_bundle import swagger_ui_path

ASSETS = "/swagger-ui"
"""Where, under the schema path, Swagger UI's files and ours are served."""

_OURS = Path(__file__).resolve().parent / "docs_assets"


class OfflineSwagger(OpenAPIRenderPlugin):
    """Swagger UI at the schema root and at ``/swagger``, from files installed with matchlog."""

    def __init__(self) -> None:
        super().__init__(path=["/", "/swagger"])

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        """Return the page: Swagger UI's stylesheet and script, then ours to start it."""
        spec = self.get_openapi_json_route(request)
        assets = spec.rsplit("/", 1)[0] + ASSETS
        title = html.escape(str(openapi_schema.get("info", {}).get("title", "API")))
        page = f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} API</title>
<link rel="icon" type="image/png" href="{assets}/favicon-32x32.png">
<link rel="stylesheet" href="{assets}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui" data-spec-url="{html.escape(spec)}"></div>
<script src="{assets}/swagger-ui-bundle.js"></script>
<script src="{assets}/swagger-init.js"></script>
</body>
</html>
"""
        return page.encode("utf-8")

    def receive_router(self, router: Router) -> None:
        """Serve the UI's files beside the page (ours first, then Swagger UI's)."""
        router.register(
            create_static_files_router(
                path=ASSETS,
                directories=[_OURS, Path(str(swagger_ui_path))],
                name="swagger-ui-assets",
                include_in_schema=False,
            )
        )


def docs_plugins() -> list[OpenAPIRenderPlugin]:
    """Return the schema's renderers: Swagger UI, and the YAML schema beside the JSON one."""
    return [OfflineSwagger(), YamlRenderPlugin()]


__all__ = ["ASSETS", "OfflineSwagger", "docs_plugins"]
