"""Planned step memory (alpha_py.core.step_plan) over a fake device: the packing never lets blocks that are
alive together share bytes, steps are served from the arena once two steps traced alike, and a block someone
still holds is never handed out again."""
import gc
import random

import pytest

from alpha_py.core.step_plan import ALIGN, MAX_RECORDS, MAX_REPLANS, Plan, StepMemory


class Ptr:
    """A fake device pointer: address, size and the owner it keeps alive (like cupy's UnownedMemory)."""

    def __init__(self, ptr, n, owner=None):
        self.ptr, self.n, self.owner = ptr, n, owner


class Device:
    """A bump 'pool' with huge address gaps, and a registry of what is alive to check overlaps."""

    def __init__(self):
        self.next, self.pool_calls, self.trims = 1 << 40, 0, 0

    def pool(self, n):
        self.pool_calls += 1
        p = Ptr(self.next, n)
        self.next += ((n + ALIGN - 1) // ALIGN + 1) * ALIGN
        return p

    def trim(self):
        self.trims += 1


def overlap(a, b):
    return a.ptr < b.ptr + b.n and b.ptr < a.ptr + a.n


class Step:
    """A fixed allocation pattern: a chain of activations kept for 'backward', freed in reverse, temporaries
    freed at once, one output kept past the step. Checks every handout against the blocks alive."""

    def __init__(self, sizes, seed=0):
        self.sizes = sizes
        self.alive = []

    def alloc(self, malloc, n):
        p = malloc(n)
        for q in self.alive:
            assert not overlap(p, q), f"block {p.ptr:#x}+{n} overlaps a live block {q.ptr:#x}+{q.n}"
        self.alive.append(p)
        return p

    def free(self, p):
        self.alive.remove(p)

    def run(self, mem, hold=None):
        malloc = mem.begin()
        acts = []
        for n in self.sizes:
            acts.append(self.alloc(malloc, n))
            tmp = self.alloc(malloc, n // 2 + 7)
            self.free(tmp)
            del tmp
        out = self.alloc(malloc, 4)
        for a in reversed(acts):
            g = self.alloc(malloc, a.n)
            self.free(g)
            del g
        kept = acts[hold] if hold is not None else None
        for a in acts:
            self.free(a)
        del acts, a
        mem.finish()
        self.free(out)
        return out, kept


def test_plan_never_overlaps_blocks_alive_together():
    rng = random.Random(3)
    for trial in range(30):
        n = rng.randint(1, 60)
        sizes = [rng.choice([4, 100, 513, 4096, 70000]) for _ in range(n)]
        start = sorted(rng.sample(range(10 * n), n))
        end = [None if rng.random() < 0.1 else s + rng.randint(1, 5 * n) for s in start]
        plan = Plan(sizes, start, end)
        for i in range(n):
            assert (plan.offsets[i] is None) == (end[i] is None)
            if plan.offsets[i] is not None:
                assert plan.offsets[i] % ALIGN == 0 and plan.offsets[i] + sizes[i] <= plan.total
        for i in range(n):
            for j in range(n):
                if i == j or plan.offsets[i] is None or plan.offsets[j] is None:
                    continue
                same_time = start[i] < end[j] and start[j] < end[i]
                same_bytes = plan.offsets[i] < plan.offsets[j] + sizes[j] and plan.offsets[j] < plan.offsets[i] + sizes[i]
                assert not (same_time and same_bytes), (trial, i, j)
                if same_bytes and end[i] <= start[j]:
                    assert plan.rank[i] <= plan.need[j]       # j waits for every earlier holder
        planned = [i for i in range(n) if end[i] is not None]
        assert sorted(plan.rank[i] for i in planned) == list(range(1, len(planned) + 1))
        assert plan.total <= sum((s + ALIGN - 1) // ALIGN * ALIGN for s in sizes)


def test_serves_from_the_arena_after_two_equal_steps():
    dev, step = Device(), Step([1000, 3000, 200, 5000])
    mem = StepMemory(dev.pool, Ptr, dev.trim)
    for _ in range(2):
        step.run(mem)
        assert mem.state == "record"
    calls = dev.pool_calls
    for _ in range(5):
        step.run(mem)
    assert mem.state == "serve" and dev.trims == 1
    # the output outlives each step: the pool serves it; everything else comes from the arena
    assert dev.pool_calls - calls == 1 + 5
    per_step = len(step.sizes) * 3 + 1
    assert mem.stats["planned"] == 5 * (per_step - 1)
    assert mem.live == 0
    # the arena is smaller than everything the step asked for
    assert mem.plan.total < sum(step.sizes) * 3


def test_a_held_block_is_never_handed_out_again():
    dev, step = Device(), Step([1000, 3000, 200, 5000])
    mem = StepMemory(dev.pool, Ptr, dev.trim)
    for _ in range(3):
        step.run(mem)
    _, kept = step.run(mem, hold=1)           # the user keeps an activation of a served step
    step.alive.append(kept)                   # every later handout is checked against it
    before = mem.stats["pool_steps"]
    step.run(mem)
    assert mem.stats["pool_steps"] == before + 1      # the next step runs on the pool
    step.alive.remove(kept)
    del kept
    gc.collect()
    planned = mem.stats["planned"]
    step.run(mem)
    assert mem.stats["planned"] > planned and mem.live == 0


def test_divergent_steps_replan_then_give_up():
    dev = Device()
    mem = StepMemory(dev.pool, Ptr, dev.trim)
    a, b = Step([1000, 3000]), Step([1000, 3000, 64])
    for _ in range(3):
        a.run(mem)
    assert mem.state == "serve"
    b.run(mem)                                # a longer step: back to recording
    assert mem.state == "record" and mem.stats["replans"] == 1
    for k in range(3):
        a.run(mem)
    assert mem.state == "serve"
    for k in range(MAX_REPLANS):                # each plan broken by a longer step, then planned again
        b.run(mem)
        a.run(mem)
        a.run(mem)
    assert mem.state == "off" and mem.stats["replans"] == MAX_REPLANS + 1
    planned = mem.stats["planned"]
    a.run(mem)
    assert mem.stats["planned"] == planned      # off: the pool serves everything


def test_steps_that_never_repeat_stop_being_traced():
    dev = Device()
    mem = StepMemory(dev.pool, Ptr, dev.trim)
    for k in range(MAX_RECORDS):
        Step([100 + k, 200]).run(mem)
    assert mem.state == "off" and mem.plan is None


def test_a_failed_step_is_not_planned():
    dev, step = Device(), Step([100, 200])
    mem = StepMemory(dev.pool, Ptr, dev.trim)
    step.run(mem)
    mem.begin()
    mem.finish(ok=False)
    step.run(mem)
    assert mem.state == "record"              # the failed step broke the pair of equal traces
    step.run(mem)
    step.run(mem)
    assert mem.state == "serve"


def test_an_arena_the_pool_refuses_leaves_the_pool_in_charge():
    dev, step = Device(), Step([100, 200])
    refuse = {"on": False}

    def pool(n):
        if refuse["on"]:
            raise MemoryError(f"cap: {n} bytes")
        return dev.pool(n)

    mem = StepMemory(pool, Ptr)
    step.run(mem)
    step.run(mem)
    refuse["on"] = True
    with pytest.raises(MemoryError):
        step.run(mem)                         # the plan's arena is refused; the step itself then fails too
    assert mem.state == "off" and "cap" in mem.stats["error"]


def test_a_capture_planner_records_on_scratch_and_serves_after_one_trace():
    """The two-pass capture (backend/cuda_graph.py graph_capture): the first pass is served by `scratch` and
    traced, the second gets the arena from `arena` at once; what outlives the pass (the output) comes from the
    pool, and no handout overlaps a live block."""
    dev, scratch, step = Device(), Device(), Step([1000, 3000, 200, 5000])
    arenas = []

    def arena(total):
        arenas.append(dev.pool(total))
        return arenas[-1]

    mem = StepMemory(dev.pool, Ptr, scratch=scratch.pool, traces=1, arena=arena)
    step.run(mem)
    per_step = len(step.sizes) * 3 + 1
    assert scratch.pool_calls == per_step and dev.pool_calls == 0 and mem.state == "record"
    step.run(mem)
    assert mem.state == "serve" and len(arenas) == 1 and arenas[0].n == mem.plan.total
    assert dev.pool_calls == 2 and mem.stats["planned"] == per_step - 1       # the arena, the output
    assert scratch.pool_calls == per_step and mem.live == 0
