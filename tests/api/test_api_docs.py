"""``/schema``: Swagger UI from installed files only; the other UIs are off."""

from __future__ import annotations

import re
from typing import Any

import pytest
from litestar.testing import TestClient


@pytest.mark.parametrize("path", ["/schema", "/schema/swagger"])
def test_the_docs_page_names_only_our_own_files_and_no_inline_script(
    refusing_client: TestClient[Any], path: str
) -> None:
    page = refusing_client.get(path)
    assert 200 == page.status_code
    assert page.headers["content-type"].startswith("text/html")
    urls = re.findall(r'(?:src|href)="([^"]*)"', page.text)
    assert urls and all(u.startswith("/schema/") for u in urls), urls
    assert "//" not in page.text.replace("<!DOCTYPE html>", "")
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page.text, re.S)
    assert 2 == len(scripts) and all("src=" in attrs and not body for attrs, body in scripts)
    for url in urls:
        asset = refusing_client.get(url)
        assert 200 == asset.status_code, url
    assert 'data-spec-url="/schema/openapi.json"' in page.text


@pytest.mark.parametrize("ui", ["redoc", "elements", "rapidoc", "stoplight", "scalar"])
def test_the_other_uis_are_off(refusing_client: TestClient[Any], ui: str) -> None:
    assert 404 == refusing_client.get(f"/schema/{ui}").status_code


def test_our_start_up_script_is_served_beside_swagger_ui(
    refusing_client: TestClient[Any],
) -> None:
    assert refusing_client.get("/schema/openapi.json").json()["openapi"].startswith("3.1")
    bundle = refusing_client.get("/schema/swagger-ui/swagger-ui-bundle.js")
    assert bundle.headers["content-type"].startswith("text/javascript")
    init = refusing_client.get("/schema/swagger-ui/swagger-init.js").text
    assert "validatorUrl: null" in init
