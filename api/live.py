"""``/matches/{id}/live`` and ``/competitions/{id}/live``: server-sent events.

Each message's ``id`` is the event's global position; a client that reconnects
with ``Last-Event-ID`` gets every later event once. Events of a live match are
redacted exactly as the public view is (``public_event_data``).

Every feed of the process follows one ``LiveHub`` (one database connection for all
of them). A client (its token when it sends one, else its address) may hold
``live_max_feeds_per_client`` feeds open across every process and server sharing
the database (counted there, ``service.wiring.FeedLedger``), a process ``live_max_feeds`` (counted
here: it guards the process's memory); past either cap a feed is refused with 429
and ``Retry-After``. The address is the peer's, or, from a peer among
``trusted_proxies``, the one its ``X-Forwarded-For`` names (``client_address``). A
feed opened with a token ends once the token is no longer active (revoked, or
expired).
"""

from __future__ import annotations

import ipaddress
import uuid
import weakref
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any, Final

from litestar import Controller, Request, get
from litestar.di import NamedDependency
from litestar.exceptions import TooManyRequestsException
from litestar.params import HeaderParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage
from psycopg_pool import AsyncConnectionPool

from api.auth import Principal, current_principal
from api.competitions import CompetitionId
from api.matches import MatchId
from api.openapi import TEXT, documented
from api.schemas import problem_responses, sent_as
from domain.errors import MalformedError
from projections.live import Authorise, LiveFeed, LiveHub
from service.access import readable_competition, readable_match
from service.settings import Networks
from service.wiring import FeedLedger

LastEventId = Annotated[
    str | None,
    HeaderParameter(
        name="Last-Event-ID",
        description="Resume after this event (its global position, as the last message's id).",
        schema_extra=sent_as(r"^\s*[0-9]*\s*$"),
    ),
]


def resume_after(last_event_id: str | None) -> int:
    """Read ``Last-Event-ID`` (a global position; absent: from the start).

    Raises:
        MalformedError (VALIDATION_FAILED): not a non-negative whole number.
    """
    if last_event_id is None or not last_event_id.strip():
        return 0
    text = last_event_id.strip()
    if not (text.isascii() and text.isdigit()):
        raise MalformedError(
            f"Last-Event-ID {last_event_id!r} is not an event position",
            code="VALIDATION_FAILED",
            details={"field": "Last-Event-ID", "source": "header"},
        )
    return int(text)


RETRY_AFTER_SECONDS: Final = 10
"""What a refused feed's ``Retry-After`` asks a client to wait."""


def client_address(request: Request[Any, Any, Any], trusted: Networks) -> str:
    """Return the caller's address: the peer's, unless the peer is a trusted proxy.

    From a trusted proxy, ``X-Forwarded-For`` is read right to left, past the
    addresses of trusted proxies (each appended the address it saw), to the first
    that is not one: the proxies vouch for that much and no more. Past an entry that
    is no address, the last trusted hop is the caller.
    """
    peer = request.client.host if request.client is not None else "unknown"
    if not _is_trusted(peer, trusted):
        return peer
    hops = [
        hop.strip()
        for header in request.headers.getall("x-forwarded-for", [])
        for hop in header.split(",")
    ]
    caller = peer
    for hop in reversed(hops):
        try:
            address = ipaddress.ip_address(hop)
        except ValueError:
            break
        caller = str(address)
        if not _is_trusted(caller, trusted):
            break
    return caller


def _is_trusted(host: str, trusted: Networks) -> bool:
    if not trusted:
        return False
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(address in network for network in trusted)


def client_of(
    request: Request[Any, Any, Any], principal: Principal | None, trusted: Networks = ()
) -> str:
    """Return who a feed counts against: the token when one was sent, else the address."""
    if principal is not None:
        return f"token {principal.token_id}"
    return f"address {client_address(request, trusted)}"


class LiveFeeds:
    """The process's live feeds: the hub they follow and the caps on how many are open."""

    def __init__(
        self,
        hub: LiveHub,
        ledger: FeedLedger,
        *,
        accounts: AsyncConnectionPool,
        max_feeds: int,
        max_per_client: int,
        token_check_interval: float,
        trusted_proxies: Networks = (),
    ) -> None:
        self.hub = hub
        self._ledger = ledger
        # Tokens are checked on the primary (the hub may read a standby): a revoked
        # token ends its feeds at the next check, not once the standby has replayed it.
        self._accounts = accounts
        self._max_feeds = max_feeds
        self._max_per_client = max_per_client
        self._check_interval = token_check_interval
        self._trusted = trusted_proxies
        self.open = 0
        """How many feeds the process has open (from the request to the client's leaving)."""

    async def _claim(self, client: str) -> Callable[[], None]:
        if self.open >= self._max_feeds:
            raise _too_many(f"the server already holds its {self._max_feeds} live feeds")
        # Counted before the database is asked, so racing requests cannot overshoot.
        self.open += 1
        feed_id = uuid.uuid4()
        try:
            held = await self._ledger.open(feed_id, client, self._max_per_client)
        except BaseException:
            self.open -= 1
            raise
        if held >= self._max_per_client:
            self.open -= 1
            raise _too_many(f"this client already holds {held} live feeds, the most it may")
        released = False

        def release() -> None:
            nonlocal released
            if released:
                return
            released = True
            self.open -= 1
            self._ledger.close(feed_id)

        return release

    async def follow(
        self,
        request: Request[Any, Any, Any],
        principal: Principal | None,
        after: int,
        *,
        stream: str | None = None,
        competition_id: str | None = None,
    ) -> ServerSentEvent:
        """Open a feed for the caller, counted against the caps until the client leaves.

        Raises:
            TooManyRequestsException (429): the client's or the process's cap is reached.
        """
        release = await self._claim(client_of(request, principal, self._trusted))
        header = request.headers.get("authorization")
        authorise: Authorise | None = None
        if header is not None:
            pool = self._accounts

            async def authorise() -> bool:
                return await current_principal(pool, header) is not None

        feed = LiveFeed(
            self.hub,
            stream=stream,
            competition_id=competition_id,
            authorise=authorise,
            check_interval=self._check_interval,
        )
        messages = _stream(feed, after, release)
        # A response that never starts streaming never runs the generator's finally.
        weakref.finalize(messages, release)
        return ServerSentEvent(messages)


def _too_many(detail: str) -> TooManyRequestsException:
    return TooManyRequestsException(
        detail=detail, headers={"Retry-After": str(RETRY_AFTER_SECONDS)}
    )


class _Frames(ServerSentEventMessage):
    """Server-sent events already encoded (a page of them): written as they are, at once."""

    def __init__(self, frames: bytes) -> None:
        super().__init__()
        self.frames = frames

    def encode(self) -> bytes:
        """Return the frames."""
        return self.frames


async def _stream(
    feed: LiveFeed, after: int, release: Callable[[], None]
) -> AsyncIterator[ServerSentEventMessage]:
    try:
        async for frames in feed.batches(after):
            yield _Frames(frames)
    finally:
        release()


class LiveController(Controller):
    """Live feeds of a match and of a competition."""

    tags = ("live",)

    @get(
        "/matches/{match_id:uuid}/live",
        operation_id="FollowMatch",
        operation_class=documented(media={"text/event-stream": TEXT}, replace=True),
        summary="Follow a match as server-sent events (hidden cards redacted while live)",
        responses=problem_responses(401, 403, 404, 422, 429),
    )
    async def match_live(
        self,
        request: Request[Any, Any, Any],
        match_id: MatchId,
        principal: NamedDependency[Principal | None],
        reads: NamedDependency[AsyncConnectionPool],
        live: NamedDependency[LiveFeeds],
        last_event_id: LastEventId = None,
    ) -> ServerSentEvent:
        """Stream the match's events from the start, or after ``Last-Event-ID``."""
        after = resume_after(last_event_id)
        row = await readable_match(reads, principal, match_id)
        return await live.follow(request, principal, after, stream=row["stream"])

    @get(
        "/competitions/{competition_id:uuid}/live",
        operation_id="FollowCompetition",
        operation_class=documented(media={"text/event-stream": TEXT}, replace=True),
        summary="Follow every match of a competition as server-sent events",
        responses=problem_responses(401, 403, 404, 422, 429),
    )
    async def competition_live(
        self,
        request: Request[Any, Any, Any],
        competition_id: CompetitionId,
        principal: NamedDependency[Principal | None],
        reads: NamedDependency[AsyncConnectionPool],
        live: NamedDependency[LiveFeeds],
        last_event_id: LastEventId = None,
    ) -> ServerSentEvent:
        """Stream the events of the competition's matches, or after ``Last-Event-ID``."""
        after = resume_after(last_event_id)
        await readable_competition(reads, principal, competition_id)
        return await live.follow(request, principal, after, competition_id=str(competition_id))


__all__ = [
    "RETRY_AFTER_SECONDS",
    "LiveController",
    "LiveFeeds",
    "client_address",
    "client_of",
    "resume_after",
]
