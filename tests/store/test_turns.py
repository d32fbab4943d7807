"""store/turns.py: turns are served in their numbers' order, in a process or across."""

from __future__ import annotations

import asyncio
import multiprocessing
from typing import Any

import pytest

from store.turns import LocalLine, NumberedTurn, SharedLine, TurnsAborted


async def _take(turn: NumberedTurn, number: int, taken: list[int]) -> None:
    await turn.acquire()
    await asyncio.sleep(0)  # another coroutine may run while this one holds the turn
    taken.append(number)
    turn.release()


class TestLocalLine:
    def test_turns_are_served_in_order_whoever_asks_first(self) -> None:
        async def main() -> list[int]:
            line, taken = LocalLine(), list[int]()
            numbers = [3, 1, 4, 0, 2]
            await asyncio.gather(*(_take(line.turn(n), n, taken) for n in numbers))
            return taken

        assert [0, 1, 2, 3, 4] == asyncio.run(main())

    def test_closing_passes_on_a_turn_never_taken(self) -> None:
        async def main() -> list[int]:
            line, taken = LocalLine(), list[int]()
            later = asyncio.ensure_future(_take(line.turn(1), 1, taken))
            await asyncio.sleep(0)
            assert [] == taken
            await line.turn(0).close()
            await asyncio.wait_for(later, timeout=5)
            return taken

        assert [1] == asyncio.run(main())

    def test_a_turn_is_given_back_once(self) -> None:
        async def main() -> bool:
            line = LocalLine()
            first, second = line.turn(0), line.turn(1)
            await first.acquire()
            first.release()
            await second.acquire()
            first.release()  # again: must not move the line back to turn 1
            await first.close()
            third = asyncio.ensure_future(line.turn(2).acquire())
            await asyncio.sleep(0.01)
            waited = not third.done()
            second.release()
            await asyncio.wait_for(third, timeout=5)
            return waited

        assert asyncio.run(main())


def _worker(line: SharedLine, number: int, order: Any, taken: Any) -> None:
    async def main() -> None:
        turn = line.turn(number)
        await turn.acquire()
        # Shared memory is written at once (a queue's feeder thread might lag behind).
        order[taken.value] = number
        taken.value += 1
        turn.release()

    asyncio.run(main())


class TestSharedLine:
    def test_processes_take_their_turns_in_order(self) -> None:
        context = multiprocessing.get_context("spawn")
        line = SharedLine(context)
        order, taken = context.Array("i", [-1] * 4, lock=False), context.Value("i", 0, lock=False)
        workers = [
            context.Process(target=_worker, args=(line, n, order, taken)) for n in (2, 0, 3, 1)
        ]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=60)
        assert [0, 1, 2, 3] == list(order)


class TestAbort:
    def test_waiting_and_later_turns_are_refused(self) -> None:
        async def main() -> tuple[bool, bool]:
            line = LocalLine()
            waiting = asyncio.ensure_future(line.turn(2).acquire())
            await asyncio.sleep(0)
            line.abort()
            with pytest.raises(TurnsAborted):
                await waiting
            with pytest.raises(TurnsAborted):
                await line.turn(0).acquire()
            await line.turn(3).close()  # nothing to give back: returns at once
            return True, waiting.done()

        assert (True, True) == asyncio.run(main())

    def test_a_shared_line_wakes_its_waiting_processes(self) -> None:
        context = multiprocessing.get_context("spawn")
        line, outcomes = SharedLine(context), context.Queue()
        worker = context.Process(target=_wait_for_turn, args=(line, 1, outcomes))
        worker.start()
        try:
            assert "waiting" == outcomes.get(timeout=60)
            line.abort()
            assert "aborted" == outcomes.get(timeout=60)
        finally:
            worker.join(timeout=60)


def _wait_for_turn(line: SharedLine, number: int, outcomes: Any) -> None:
    async def main() -> None:
        outcomes.put("waiting")
        try:
            await line.turn(number).acquire()
            outcomes.put("served")
        except TurnsAborted:
            outcomes.put("aborted")

    asyncio.run(main())
