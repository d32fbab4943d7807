"""What the OpenAPI document says beyond what Litestar reads from a handler's types.

``ClosedModels`` (a schema plugin of the app) closes the schemas of models that refuse
unknown fields, and bounds their whole numbers as every body's are (±(2**53 - 1)).

A handler names ``documented(...)`` as its ``operation_class`` to add a request body
example, or more media types to its success answer (CSV and Markdown standings, the
live feeds' ``text/event-stream``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from litestar._openapi.schema_generation import SchemaCreator
from litestar.openapi.spec import (
    Example,
    OpenAPIMediaType,
    OpenAPIResponse,
    OpenAPIType,
    Operation,
    Reference,
    RequestBody,
    Schema,
)
from litestar.plugins.pydantic import PydanticSchemaPlugin
from litestar.typing import FieldDefinition

from api.inputs import MAX_SAFE_INTEGER

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


class ClosedModels(PydanticSchemaPlugin):
    """Pydantic models drawn as Litestar draws them, and a model that refuses unknown
    fields (``extra="forbid"``) says so: ``additionalProperties: false``."""

    @classmethod
    def for_pydantic_model(
        cls, field_definition: FieldDefinition, schema_creator: SchemaCreator
    ) -> Schema:
        """Return the model's schema, closed if the model is."""
        schema = super().for_pydantic_model(field_definition, schema_creator)
        if field_definition.annotation.model_config.get("extra") == "forbid":
            schema.additional_properties = False
        for child in (schema.properties or {}).values():
            _bound_integers(child)
        return schema


def _bound_integers(schema: Schema | Reference) -> None:
    """Give whole numbers without bounds those of every JSON body (api.inputs)."""
    if not isinstance(schema, Schema):
        return
    if schema.type == OpenAPIType.INTEGER and schema.minimum is None and schema.maximum is None:
        schema.minimum, schema.maximum = -MAX_SAFE_INTEGER, MAX_SAFE_INTEGER
    for child in (*(schema.one_of or ()), *(schema.any_of or ())):
        _bound_integers(child)
    if isinstance(schema.items, Schema):
        _bound_integers(schema.items)


__all__ = ["OBJECT", "TEXT", "ClosedModels", "documented"]
