"""The request's language: which one a page or an answer is written in, and saying so.

``request_language(request)`` negotiates it (``?lang=``, then the device's remembered
choice in the ``LANG_COOKIE`` cookie, then ``Accept-Language``, else English; see
``service.i18n.negotiate``) and notes on the request that the answer depends on it;
``vary_by_language``, an app-wide ``before_send``, then puts ``Vary: Accept-Language,
Cookie`` on that answer. A page asked for with a listed ``?lang=`` also remembers it: the
answer sets the cookie (the language switcher is a set of such links).

Handlers take the language as the ``lang`` dependency (``provide_language``)::

    async def handler(self, lang: NamedDependency[str]) -> ...:
        moves = translations(lang, "moves")
"""

from __future__ import annotations

from typing import Any, Final

from litestar.connection import ASGIConnection
from litestar.datastructures import Cookie, MutableScopeHeaders
from litestar.types import Message, Scope

from service.i18n import DEFAULT, LANGUAGES, negotiate, supported

LANG_COOKIE: Final = "matchlog-lang"
"""The cookie holding the device's chosen language (set when a page is asked ``?lang=``)."""
REMEMBER_SECONDS: Final = 400 * 24 * 3600
"""How long the device remembers a choice: the longest a browser keeps a cookie."""
VARY: Final = "Accept-Language, Cookie"

_USED: Final = "matchlog.language"
_CHOSEN: Final = "matchlog.language-chosen"


def request_language(request: ASGIConnection[Any, Any, Any, Any]) -> str:
    """Return the language to answer ``request`` in (a tag of ``service.i18n.LANGUAGES``,
    or the unlisted pseudo-language), and mark the answer as depending on it."""
    lang = negotiate(
        query=request.query_params.get("lang"),
        cookie=request.cookies.get(LANG_COOKIE),
        accept_language=request.headers.get("accept-language"),
    )
    state = request.scope.setdefault("state", {})
    state[_USED] = lang
    if (chosen := chosen_language(request)) is not None:
        state[_CHOSEN] = chosen
    return lang


def provide_language(request: ASGIConnection[Any, Any, Any, Any]) -> str:
    """The ``lang`` dependency: the request's language (``request_language``)."""
    return request_language(request)


def chosen_language(request: ASGIConnection[Any, Any, Any, Any]) -> str | None:
    """Return the listed language ``?lang=`` names, if any: a choice the device keeps."""
    lang = supported(request.query_params.get("lang"))
    return lang if lang in LANGUAGES else None


def remember_cookie(lang: str) -> Cookie:
    """Return the cookie that keeps ``lang`` as the device's choice."""
    return Cookie(
        key=LANG_COOKIE,
        value=lang,
        max_age=REMEMBER_SECONDS,
        path="/",
        samesite="lax",
        httponly=False,
    )


async def vary_by_language(message: Message, scope: Scope) -> None:
    """App-wide ``before_send``: an answer that read the request's language says so."""
    if message["type"] != "http.response.start":
        return
    state: dict[str, Any] = scope.get("state", {})
    if _USED not in state:
        return
    headers = MutableScopeHeaders.from_message(message)
    existing = headers.get("vary")
    headers["Vary"] = f"{existing}, {VARY}" if existing else VARY
    if "content-language" not in headers:
        lang = state[_USED]
        headers["Content-Language"] = lang if lang in LANGUAGES else DEFAULT
    chosen = state.get(_CHOSEN)
    if chosen and headers.get("content-type", "").startswith("text/html"):
        headers.add("Set-Cookie", remember_cookie(chosen).to_header(header=""))


__all__ = [
    "LANG_COOKIE",
    "chosen_language",
    "provide_language",
    "remember_cookie",
    "request_language",
    "vary_by_language",
]
