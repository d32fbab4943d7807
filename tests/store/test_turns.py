"""store/turns.py: turns are served in their numbers' order, in a process or across."""

from __future__ import annotations

import asyncio
import multiprocessing
from typing import Any

from store.turns import LocalLine, NumberedTurn, SharedLine


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


def _worker(line: SharedLine, number: int, taken: Any) -> None:
    async def main() -> None:
        turn = line.turn(number)
        await turn.acquire()
        taken.put(number)
        turn.release()

    asyncio.run(main())


class TestSharedLine:
    def test_processes_take_their_turns_in_order(self) -> None:
        context = multiprocessing.get_context("spawn")
        line, taken = SharedLine(context), context.Queue()
        workers = [context.Process(target=_worker, args=(line, n, taken)) for n in (2, 0, 3, 1)]
        for worker in workers:
            worker.start()
        try:
            assert [0, 1, 2, 3] == [taken.get(timeout=60) for _ in workers]
        finally:
            for worker in workers:
                worker.join(timeout=60)
