"""The hash chain: what an event's hash covers, walking every stream, checkpoints.

Each event stores ``hash = sha256(prev_hash || canonical)``, ``prev_hash`` being the
previous event's hash in its stream (empty at version 1) and ``canonical`` RFC 8785
JSON whose contents the event's ``chain_version`` says (migration 0011):

- v1, the events written before 0011: ``{data, event_id, stream, type, version}``;
- v2, every event since: the whole row, ``metadata``, ``recorded_at`` and
  ``global_position`` too.

``verify`` walks every stream and reports every link that does not hold. A chain
cannot show that its last events, or a whole stream, were removed, nor that a
rewritten event was re-hashed along with every later one: a ``Checkpoint`` of every
stream's head, kept outside the database, catches those (docs/event-store.md).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final
from uuid import UUID

import psycopg
import rfc8785

from domain.errors import DomainError

CHAIN_VERSIONS: Final = (1, 2)
"""The forms of ``canonical`` an event's hash may take; new events take the last."""

CHECKPOINT_FORMAT: Final = "matchlog-checkpoint"

_SAFE_INTEGER: Final = 2**53 - 1

_WALK_SQL: Final = (
    "SELECT stream, version, event_id, type, data::text, metadata::text, recorded_at, "
    "global_position, chain_version, prev_hash, hash FROM events ORDER BY stream, version"
)


class CheckpointError(DomainError):
    """A checkpoint file that cannot be read, or whose digest does not match it."""

    default_code = "CHECKPOINT_INVALID"


@dataclass(frozen=True, slots=True)
class BrokenLink:
    """A problem found at one event of a stream: ``code`` for programs, ``reason`` for people.

    Codes: ``version-missing``, ``prev-hash``, ``hash``, ``chain-version``,
    ``not-i-json`` (the chain itself); ``events-lost``, ``rewritten``,
    ``stream-gone`` (against a checkpoint).
    """

    stream: str
    version: int
    code: str
    reason: str


@dataclass(frozen=True, slots=True)
class Head:
    """A stream's last event: its version and its hash (hex)."""

    version: int
    hash: str


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """Every stream's head at one moment, and a digest over all of them.

    The digest is sha256 over the RFC 8785 JSON of the file's other fields: it shows
    that the file is whole and unedited, not who wrote it. Keep the file (or at least
    its digest) where whoever can write the database cannot.
    """

    taken_at: str
    events: int
    heads: Mapping[str, Head]

    def _body(self) -> dict[str, Any]:
        return {
            "format": CHECKPOINT_FORMAT,
            "format_version": 1,
            "taken_at": self.taken_at,
            "events": self.events,
            "streams": {
                name: {"version": head.version, "hash": head.hash}
                for name, head in sorted(self.heads.items())
            },
        }

    @property
    def digest(self) -> str:
        """Return the sha256 (hex) of the checkpoint's canonical JSON."""
        return hashlib.sha256(rfc8785.dumps(self._body())).hexdigest()

    def to_json(self) -> str:
        """Return the checkpoint file's text: its fields and their digest."""
        return json.dumps({**self._body(), "digest": self.digest}, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Checkpoint:
        """Read a checkpoint file's text; refuse one whose digest does not match it.

        Raises:
            CheckpointError (CHECKPOINT_INVALID): not a checkpoint, or altered.
        """
        try:
            document = json.loads(text)
            digest = document.pop("digest")
            if document.get("format") != CHECKPOINT_FORMAT or document["format_version"] != 1:
                raise CheckpointError("not a matchlog checkpoint (format 1)")
            checkpoint = cls(
                taken_at=str(document["taken_at"]),
                events=int(document["events"]),
                heads={
                    str(name): Head(int(head["version"]), str(head["hash"]))
                    for name, head in document["streams"].items()
                },
            )
        except (ValueError, TypeError, KeyError, AttributeError) as e:
            raise CheckpointError(f"not a matchlog checkpoint: {type(e).__name__}: {e}") from e
        if checkpoint.digest != digest or checkpoint._body() != document:
            raise CheckpointError(
                "the checkpoint's digest does not match its contents: the file was altered",
                details={"digest": digest, "computed": checkpoint.digest},
            )
        return checkpoint


@dataclass(slots=True)
class ChainReport:
    """What ``verify`` found: how much it read, every stream's head, every problem."""

    events: int = 0
    heads: dict[str, Head] = field(default_factory=dict)
    problems: list[BrokenLink] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Return whether every link held (and, against a checkpoint, nothing was lost)."""
        return not self.problems

    def checkpoint(self, taken_at: datetime) -> Checkpoint:
        """Return a checkpoint of the heads this walk found."""
        return Checkpoint(utc_text(taken_at), self.events, dict(self.heads))


def canonical_event(
    stream: str, version: int, event_id: UUID, type: str, data: Mapping[str, Any]
) -> bytes:
    """Return the RFC 8785 canonical JSON a chain v1 hash covers.

    >>> canonical_event('cuttle-1', 2, UUID(int=1), 'Drew', {'card': '7H'})
    b'{"data":{"card":"7H"},"event_id":"00000000-0000-0000-0000-000000000001","stream":"cuttle-1","type":"Drew","version":2}'
    """
    return rfc8785.dumps(_v1_fields(stream, version, event_id, type, data))


def _v1_fields(
    stream: str, version: int, event_id: UUID, type: str, data: Mapping[str, Any]
) -> dict[str, Any]:
    return {
        "stream": stream,
        "version": version,
        "event_id": str(event_id),
        "type": type,
        "data": dict(data),
    }


def canonical_event_v2(
    stream: str,
    version: int,
    event_id: UUID,
    type: str,
    data: Mapping[str, Any],
    metadata: Mapping[str, Any],
    recorded_at: datetime,
    global_position: int,
) -> bytes:
    """Return the RFC 8785 canonical JSON a chain v2 hash covers: the whole row.

    >>> canonical_event_v2('cuttle-1', 1, UUID(int=1), 'Drew', {}, {'by': 'a'},
    ...                    datetime(2026, 11, 23, tzinfo=UTC), 7)[61:]
    b'"global_position":7,"metadata":{"by":"a"},"recorded_at":"2026-11-23T00:00:00.000000Z","stream":"cuttle-1","type":"Drew","version":1}'
    """
    return rfc8785.dumps(
        {
            **_v1_fields(stream, version, event_id, type, data),
            "metadata": dict(metadata),
            "recorded_at": utc_text(recorded_at),
            "global_position": global_position,
        }
    )


def utc_text(moment: datetime) -> str:
    """Return ``moment`` as chain v2 hashes it: UTC, microseconds, ``Z``.

    >>> utc_text(datetime.fromisoformat('2026-11-23T01:02:03.5+01:00'))
    '2026-11-23T00:02:03.500000Z'
    """
    return moment.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def event_hash(previous: bytes | None, canonical: bytes) -> bytes:
    """Return the chain link: sha256 of the previous hash (empty at version 1) and the event.

    >>> event_hash(None, b'{}').hex()[:16]
    '44136fa355b3678a'
    """
    return hashlib.sha256((previous or b"") + canonical).digest()


async def verify(
    conn: psycopg.AsyncConnection[Any],
    *,
    against: Checkpoint | None = None,
    progress: Callable[[int, int], None] | None = None,
    every: int = 20_000,
) -> ChainReport:
    """Walk every stream's hash chain and report every link that does not hold.

    A link breaks when a version is missing, ``prev_hash`` is not the previous
    event's hash, ``hash`` is not sha256(``prev_hash`` + the event's canonical JSON),
    a stream's chain version goes back from 2 to 1, or a value is not I-JSON. With
    ``against``, it also reports every stream of that checkpoint that lost events,
    was rewritten up to its checkpointed head, or is gone. ``progress(events,
    streams)`` is called every ``every`` events. On an idle connection the walk
    reads one snapshot (REPEATABLE READ, read only), so the heads are consistent.
    """
    walk = _Walk(against)
    # Only a transaction's first statement may choose its isolation: inside a
    # caller's open transaction the walk reads with the caller's snapshots.
    fresh = conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    async with conn.transaction():
        if fresh:
            await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        cur = conn.cursor()
        async for row in cur.stream(_WALK_SQL, size=1000):
            walk.row(row)
            if progress is not None and walk.report.events % every == 0:
                progress(walk.report.events, len(walk.report.heads))
    return walk.finish()


class _Walk:
    """The state of one walk over ``events`` in (stream, version) order."""

    __slots__ = ("at_checkpoint", "chain", "checkpoint", "expected", "previous", "report")

    def __init__(self, checkpoint: Checkpoint | None) -> None:
        self.report = ChainReport()
        self.checkpoint = checkpoint
        self.at_checkpoint: dict[str, str] = {}
        self.previous: bytes | None = None
        self.expected = 1
        self.chain = CHAIN_VERSIONS[0]

    def row(self, row: tuple[Any, ...]) -> None:
        """Check one event's link, given the events of its stream before it."""
        name, version, chain = row[0], row[1], row[8]
        stored_prev = None if row[9] is None else bytes(row[9])
        digest = bytes(row[10])
        report = self.report
        report.events += 1
        if name not in report.heads:
            self.previous, self.expected, self.chain = None, 1, CHAIN_VERSIONS[0]
        report.heads[name] = Head(version, digest.hex())
        if version != self.expected:
            last = version - 1
            missing = (
                f"version {last}" if last == self.expected else f"versions {self.expected}..{last}"
            )
            self._problem(name, self.expected, "version-missing", f"{missing} missing")
        elif stored_prev != self.previous:
            self._problem(name, version, "prev-hash", "prev_hash is not the previous event's hash")
        if chain < self.chain:
            self._problem(
                name, version, "chain-version", f"chain version {chain} after {self.chain}"
            )
        self.chain = max(self.chain, chain)
        if chain not in CHAIN_VERSIONS:
            self._problem(name, version, "chain-version", f"unknown chain version {chain}")
        else:
            try:
                canonical = _canonical(row)
            except (ValueError, rfc8785.CanonicalizationError) as e:
                self._problem(name, version, "not-i-json", f"the event is not I-JSON: {e}")
            else:
                if event_hash(stored_prev, canonical) != digest:
                    self._problem(name, version, "hash", "hash does not match the event")
        self.previous, self.expected = digest, version + 1
        if self.checkpoint is not None:
            head = self.checkpoint.heads.get(name)
            if head is not None and head.version == version:
                self.at_checkpoint[name] = digest.hex()

    def finish(self) -> ChainReport:
        """Add what the checkpoint shows, and return the report in (stream, version) order."""
        report = self.report
        if self.checkpoint is not None:
            for name, then in self.checkpoint.heads.items():
                now = report.heads.get(name)
                if now is None:
                    self._problem(
                        name,
                        1,
                        "stream-gone",
                        f"stream is gone; it held {then.version} events at the checkpoint",
                    )
                elif now.version < then.version:
                    self._problem(
                        name,
                        now.version + 1,
                        "events-lost",
                        f"events {now.version + 1}..{then.version} are gone since the checkpoint",
                    )
                elif self.at_checkpoint.get(name) != then.hash:
                    self._problem(
                        name,
                        then.version,
                        "rewritten",
                        f"rewritten since the checkpoint: version {then.version}'s hash differs",
                    )
        report.problems.sort(key=lambda p: (p.stream, p.version))
        return report

    def _problem(self, stream: str, version: int, code: str, reason: str) -> None:
        self.report.problems.append(BrokenLink(stream, version, code, reason))


def _canonical(row: tuple[Any, ...]) -> bytes:
    """Return the canonical JSON a walked row's hash covers, in its chain version."""
    stream, version, event_id, type_, data_text, metadata_text, recorded_at, position, chain = row[
        :9
    ]
    data = json.loads(data_text, parse_int=_parse_json_int)
    if chain == 1:
        return canonical_event(stream, version, event_id, type_, data)
    metadata = json.loads(metadata_text, parse_int=_parse_json_int)
    return canonical_event_v2(
        stream, version, event_id, type_, data, metadata, recorded_at, position
    )


def _parse_json_int(text: str) -> int | float:
    # jsonb prints a float like 1e300 as digits; read it back as the float it was.
    value = int(text)
    return value if -_SAFE_INTEGER <= value <= _SAFE_INTEGER else float(text)
