"""Planned memory of captured steps (GPU): a capture runs twice — traced on the engine's allocator, its graph dropped
unrun, then served from one arena packed by the trace (backend/cuda_graph.py graph_capture, GraphPool.capture_memory)
— and gives the same bits as a capture on the pool alone, holds no more, keeps its arena, and shares it with the
pool's other graphs. Skipped without a GPU."""
import numpy as np
import pytest

from alpha_py import alpha
from cuda_parity import keep_allocator, require_gpu  # noqa: F401 (keep_allocator: autouse)
from test_cuda_graph import data, make_net, state, train

pytestmark = pytest.mark.gpu


def run(planned, sizes=(16, 16, 16, 10, 10)):
    require_gpu()
    eg = alpha.engine.cuda_float32(0, alpha.engine.memp3(4 * alpha.MEM_1GB), auto_graph=False).set_seed(3)
    eg.backend.plan_captures = planned
    try:
        net = make_net(eg)
        opt = alpha.optim.Adam(net.params(), 1e-3)
        losses, step = train(eg, net, opt, data(eg, sizes), graph=True)
        graphs = [e.graph for e in step._entries.values()]
        return losses, state(net, opt), step._pool, graphs, step
    finally:
        del eg.backend.plan_captures


def test_a_planned_capture_equals_one_on_the_pool_and_holds_no_more():
    l0, s0, pool0, g0, step0 = run(False)
    l1, s1, pool1, g1, step1 = run(True)
    np.testing.assert_array_equal(np.array(l1), np.array(l0))
    for k in s0:
        np.testing.assert_array_equal(s1[k], s0[k], err_msg=k)
    assert step1.counts["captures"] == step0.counts["captures"] == 2       # the full batch and the short one
    arenas = [[k for k in g.keep if type(k).__name__ == "_Arena"] for g in g1]
    assert all(len(a) == 1 for a in arenas) and arenas[0][0] is arenas[1][0]   # shared: the short batch fits
    assert not any(type(k).__name__ == "_Arena" for g in g0 for k in g.keep)
    assert pool1.stats()["reserved"] <= pool0.stats()["reserved"]


def test_the_arena_goes_with_the_last_graph_that_keeps_it():
    _, _, pool, graphs, step = run(True, sizes=(16, 16, 16))
    assert len(pool._arenas) == 1 and pool._arenas[0]() is not None
    del graphs
    step._retire_all()
    step.eg.backend.graph_collect(wait=True)
    assert pool._arenas[0]() is None
