"""Security headers on every answer: pages, JSON, problems, static files, the schema UI.

The content security policy lets a page load scripts, styles, images and data from
this service only, and nothing inline: the viewer and the schema UI must keep their
scripts and styles in files served here. No page may be framed.
"""

from __future__ import annotations

from litestar.datastructures import MutableScopeHeaders
from litestar.types import Message, Scope

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)

WASM = "compiles_wasm"
"""A route handler's ``opt`` key: its page may compile WebAssembly (the pad's engine)."""

WASM_POLICY = CONTENT_SECURITY_POLICY.replace(
    "script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'"
)
"""The policy of a page that runs the in-browser engine: WebAssembly, and nothing more."""

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}


async def add_security_headers(message: Message, scope: Scope) -> None:
    """App-wide ``before_send``: put ``SECURITY_HEADERS`` on every HTTP answer's start."""
    if message["type"] != "http.response.start":
        return
    headers = MutableScopeHeaders.from_message(message)
    for name, value in SECURITY_HEADERS.items():
        headers[name] = value
    handler = scope.get("route_handler")
    if handler is not None and handler.opt.get(WASM):
        headers["Content-Security-Policy"] = WASM_POLICY


__all__ = [
    "CONTENT_SECURITY_POLICY",
    "SECURITY_HEADERS",
    "WASM",
    "WASM_POLICY",
    "add_security_headers",
]
