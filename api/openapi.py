"""What the OpenAPI document says beyond what Litestar reads from a handler's types.

A handler names ``documented(...)`` as its ``operation_class`` to add a request body
example, or more media types to its success answer (CSV and Markdown standings, the
live feeds' ``text/event-stream``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from litestar.openapi.spec import (
    Example,
    OpenAPIMediaType,
    OpenAPIResponse,
    OpenAPIType,
    Operation,
    RequestBody,
    Schema,
)

TEXT = Schema(type=OpenAPIType.STRING)
OBJECT = Schema(type=OpenAPIType.OBJECT)


def documented(
    *,
    example: Mapping[str, Any] | None = None,
    media: Mapping[str, Schema] | None = None,
    replace: bool = False,
) -> type[Operation]:
    """Return an ``Operation`` class adding ``example`` to the JSON request body, and
    ``media`` (media type: schema) to the success answer (in place of what Litestar
    inferred, when ``replace``).
    """

    @dataclass
    class Documented(Operation):
        def __post_init__(self) -> None:
            body = self.request_body
            if example is not None and isinstance(body, RequestBody):
                for body_media in body.content.values():
                    body_media.examples = {"example": Example(value=dict(example))}
            if media and isinstance(self.responses, dict):
                for status, response in self.responses.items():
                    if not status.startswith("2") or not isinstance(response, OpenAPIResponse):
                        continue
                    content = {} if replace else dict(response.content or {})
                    for media_type, schema in media.items():
                        content[media_type] = OpenAPIMediaType(schema=schema)
                    response.content = content

    return Documented


__all__ = ["OBJECT", "TEXT", "documented"]
