from __future__ import annotations

from dataclasses import astuple, dataclass, fields
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import pytest

from domain.events import NewEvent, RecordedEvent
from domain.logs.base import LogEvent
from domain.records import builder


@dataclass(frozen=True)
class Unslotted:
    x: int


class TestBuilder:
    @pytest.mark.parametrize(
        "record",
        [
            RecordedEvent(7, "kozel-1", 2, UUID(int=3), "Dealt", {"a": [1]}, {"m": 1},
                          datetime(2026, 1, 1, tzinfo=UTC), "ab" * 32),
            NewEvent(UUID(int=4), "Drew", {"card": "7H"}, {}, None),
            LogEvent(3, 2, "Drew", {"card": "7H"}, "e1", "t1", {"by": "x"}),
        ],
    )  # fmt: skip
    def test_builds_what_the_constructor_builds(self, record: Any) -> None:
        built = builder(type(record))(*astuple(record))
        assert record == built
        names = [f.name for f in fields(type(built))]
        assert [getattr(record, n) for n in names] == [getattr(built, n) for n in names]

    def test_a_built_record_stays_frozen(self) -> None:
        event = builder(NewEvent)(UUID(int=1), "Drew", {}, {}, None)
        with pytest.raises(AttributeError):
            event.type = "Other"  # type: ignore[misc]

    def test_a_built_record_is_of_its_class_and_hashes_as_one(self) -> None:
        args = (UUID(int=1), "Drew", (), (), None)
        event = builder(NewEvent)(*args)
        assert NewEvent is type(event)
        assert hash(NewEvent(*args)) == hash(event)  # type: ignore[arg-type]

    def test_refuses_a_class_without_slots(self) -> None:
        with pytest.raises(TypeError):
            builder(Unslotted)
