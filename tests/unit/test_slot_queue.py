"""Claims on one belief slot take turns within a process (graph/beliefs/slot_queue.py)."""
from __future__ import annotations

import asyncio

import pytest

from graph.beliefs.slot_queue import SlotQueue


def test_holders_of_one_slot_take_turns_and_other_slots_do_not_wait():
    async def scenario():
        queue, inside, most, order = SlotQueue(), set(), 0, []

        async def claim(name: str, slots: list[str]):
            nonlocal most
            async with queue.hold(slots):
                inside.add(name)
                most = max(most, len({n for n in inside if n.startswith("a")}))
                order.append(name)
                await asyncio.sleep(0)
                await asyncio.sleep(0)
                inside.discard(name)

        await asyncio.gather(*(claim(f"a{i}", ["slot-a"]) for i in range(5)), claim("b", ["slot-b"]),
                             claim("ab", ["slot-b", "slot-a", "slot-a"]))
        return most, order, len(queue)

    most, order, left = asyncio.run(scenario())
    assert most == 1                       # never two holders of slot-a at once
    assert order.index("b") < order.index("a4")  # slot-b did not wait for slot-a's queue
    assert left == 0                       # idle slots are forgotten


def test_a_failed_write_releases_its_slots():
    async def scenario():
        queue = SlotQueue()
        with pytest.raises(RuntimeError):
            async with queue.hold(["s"]):
                raise RuntimeError("the transaction failed")
        async with queue.hold(["s"]):
            return len(queue)

    assert asyncio.run(scenario()) == 1
