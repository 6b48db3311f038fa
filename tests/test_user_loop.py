"""The loop recorder of auto_graph (engine/autoloop.py) on the CPU: with defer_without_graphs every repeated
iteration is deferred, then run op by op at its end (no graphs here), so each path that must flush deferred
work early (host reads, F ops on pending tensors, parameter/optimizer access, mode and seed changes, a short
batch, an exception) is checked for results bit-identical to the plain loop. The GPU half (capture and
replay) is tests/test_user_loop_gpu.py."""
import numpy as np
import pytest

from alpha_py import F, alpha, nn
from alpha_py.engine.autoloop import AutoLoop
from alpha_py.errors import ArgumentError, ShapeError

H, C = 8, 5


def setup(auto):
    eg = alpha.engine.cpu_float32().set_seed(1)
    if auto:
        eg.auto = AutoLoop(eg, defer_without_graphs=True)
    net = nn.sequence(nn.conv3D(False, 3, 4, 3, 1, 1), nn.batchNorm_leakyRelu(4), nn.maxPool2D(2), nn.flatten(),
                      nn.fullconnect(4 * (H // 2) ** 2, 16), nn.relu(), nn.dropout(0.7),
                      nn.fullconnect(16, C)).train().init(eg)
    return eg, net, alpha.optim.Adam(net.param_map(), 1e-2)


def run(auto, n=9, short=(), before=None, mid=None):
    eg, net, opt = setup(auto)
    ls = alpha.loss.softmax_crossEntropy()
    rng = np.random.RandomState(0)
    losses, mids = [], []
    for i in range(n):
        b = 3 if i in short else 6
        x = eg.tensor(rng.uniform(-1, 1, (b, H, H, 3)).astype(np.float32))
        y = eg.tensor(np.eye(C, dtype=np.float32)[rng.randint(0, C, b)])
        if before and i in before:
            before[i](eg, net, opt)
        yh = net.forward(x)[0]
        if mid and i in mid:
            mids.append(np.asarray(mid[i](eg, net, opt, yh, y), dtype=np.float64))
        net.backward(ls.gradient(yh, y))
        opt.update().clear_grads()
        net.gc()
        losses.append(ls.loss(yh, y))
    st = {k: v.numpy() for k, v in net.state_map().items()}
    st.update({"opt." + k: np.asarray(v.numpy()) for k, v in opt.state_map().items()})
    return [r.get() for r in losses], mids, st, eg.auto_stats(), eg.backend.rng_state()


SCENARIOS = {
    "plain": {},
    "short batch": {"short": (4, 8)},
    "read yh": {"mid": {i: (lambda eg, net, opt, yh, y: yh.numpy()) for i in (3, 5, 6)}},
    "read loss": {"mid": {4: lambda eg, net, opt, yh, y: alpha.loss.softmax_crossEntropy().loss(yh, y).get()}},
    "F op": {"mid": {5: lambda eg, net, opt, yh, y: F.relu(yh)[0].numpy()}},
    "param read": {"mid": {4: lambda eg, net, opt, yh, y: net.params()[0].numpy()}},
    "opt state": {"mid": {5: lambda eg, net, opt, yh, y: len(opt.state_map())}},
    "eval/train": {"before": {4: lambda eg, net, opt: net.eval(), 6: lambda eg, net, opt: net.train()}},
    "seed": {"before": {5: lambda eg, net, opt: eg.set_seed(9)},
             "mid": {6: lambda eg, net, opt, yh, y: eg.uniform(0, 1, 4).numpy()}},
    "lr": {"before": {4: lambda eg, net, opt: opt.learning_rate(1e-3),
                      5: lambda eg, net, opt: opt.lrSchedular(alpha.optim.exponentialLr(0.8))}},
    "freeze": {"before": {4: lambda eg, net, opt: net[0].need_grads(False)}},
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_deferred_iterations_equal_the_plain_loop(name):
    off, on = run(False, **SCENARIOS[name]), run(True, **SCENARIOS[name])
    assert on[0] == off[0], f"{name}: losses {on[0]} vs {off[0]}"
    assert all(np.array_equal(a, b) for a, b in zip(on[1], off[1])), f"{name}: mid-iteration reads differ"
    assert all(np.array_equal(on[2][k], off[2][k]) for k in off[2]), f"{name}: final state differs"
    assert on[4] == off[4], f"{name}: random state differs"
    assert on[3]["flushes"] >= 3, f"{name}: iterations were not deferred: {on[3]}"


def test_exception_in_a_deferred_iteration():
    def go(auto):
        eg, net, opt = setup(auto)
        ls = alpha.loss.softmax_crossEntropy()
        rng = np.random.RandomState(0)
        for i in range(7):
            x = eg.tensor(rng.uniform(-1, 1, (6, H, H, 3)).astype(np.float32))
            y = eg.tensor(np.eye(C, dtype=np.float32)[rng.randint(0, C, 6)])
            yh = net.forward(x)[0]
            if i == 4:
                with pytest.raises(ShapeError, match="must have the same shape"):
                    ls.gradient(yh, eg.zeros(6, C + 1))
                net.gc()
                continue
            net.backward(ls.gradient(yh, y))
            opt.update().clear_grads()
            net.gc()
        return [p.numpy() for p in net.params()], opt.steps()
    on, off = go(True), go(False)
    assert on[1] == off[1] == 6 and all(np.array_equal(a, b) for a, b in zip(on[0], off[0]))


def test_pending_tensor_shape_needs_no_flush():
    eg, net, opt = setup(True)
    x = eg.tensor(np.zeros((6, H, H, 3), np.float32))
    for _ in range(3):
        yh = net.forward(x)[0]
        net.gc()
    before = eg.auto_stats()["flushes"]
    yh = net.forward(x)[0]
    assert yh._lazy is not None, "the fourth iteration should be deferred"
    assert yh.shape == (6, C) and not yh.is_deleted()
    assert eg.auto_stats()["flushes"] == before
    assert yh.numpy().shape == (6, C) and eg.auto_stats()["flushes"] == before + 1


def test_auto_graph_needs_a_cuda_engine():
    with pytest.raises(ArgumentError, match="CUDA engine"):
        alpha.engine.cpu_float32().auto_graph(True)
    assert alpha.engine.cpu_float32().auto_graph() is False


def test_a_read_before_any_forward_leaves_the_next_iteration_deferred():
    eg, net, opt = setup(True)
    ls = alpha.loss.softmax_crossEntropy()
    x = eg.tensor(np.zeros((6, H, H, 3), np.float32))
    y = eg.tensor(np.eye(C, dtype=np.float32)[np.zeros(6, int)])
    yh = None
    for i in range(5):
        if i >= 2:                               # iterations 0-1: forward first; 2-4: a loss read opens them
            loss = ls.loss(yh, y)
            if i == 4:
                assert loss._array is None and loss.get() > 0      # deferred, then read: a flush
        yh = net.forward(x)[0]
        if i == 4:
            assert yh._lazy is not None, "the forward after the flushed read should be deferred again"
        net.backward(ls.gradient(yh, y))
        opt.update().clear_grads()
        net.gc()


def test_gradient_access_between_backward_and_update_flushes():
    """The pattern of a data-parallel all-reduce: gradients read (and rewritten) before opt.update()."""
    def go(auto):
        eg, net, opt = setup(auto)
        ls = alpha.loss.softmax_crossEntropy()
        rng = np.random.RandomState(0)
        seen = []
        for i in range(6):
            x = eg.tensor(rng.uniform(-1, 1, (6, H, H, 3)).astype(np.float32))
            y = eg.tensor(np.eye(C, dtype=np.float32)[rng.randint(0, C, 6)])
            yh = net.forward(x)[0]
            net.backward(ls.gradient(yh, y))
            for p in net.params():
                g = p.grad_data
                seen.append(None if g is None else eg.backend.to_host(g).copy())
                if g is not None:
                    p.zero_grad().accumulate_grad(g * 0.5)
            opt.update().clear_grads()
            net.gc()
        return seen, [p.numpy() for p in net.params()], eg.auto_stats()
    on, off = go(True), go(False)
    assert all(a is None and b is None or np.array_equal(a, b) for a, b in zip(on[0], off[0]))
    assert all(np.array_equal(a, b) for a, b in zip(on[1], off[1]))
    assert on[2]["flushes"] >= 2, on[2]


def test_an_iteration_that_never_ends_lets_its_log_go():
    """Units forwarded one by one and never gc'd on their own (a Java Module's children): no boundary comes,
    so after MAX_EVENTS calls the recorder stops logging and holds no tensor of them."""
    from alpha_py.engine import autoloop
    eg, net, opt = setup(True)
    x = eg.tensor(np.zeros((6, H, H, 3), np.float32))
    for _ in range(autoloop.MAX_EVENTS // 2 + 2):
        net[1].forward(net[0].forward(x))
    assert eg.auto.mode == autoloop.SKIP and eg.auto.log == [] and eg.auto.made == {}
    out = net[0].forward(x)[0]
    assert out.numpy().shape == (6, H, H, 4)


def test_record_forward_of_the_unit_s_own_outputs_keeps_the_iteration_deferred():
    # Java's net.backward()/gc() name the outputs their forward returned (bridge unit_backward/unit_gc call
    # record_forward): that must not flush a deferred iteration, or a Java loop is never captured
    from alpha_py.engine.loop_graph import DEFER
    eg, net, opt = setup(True)
    ls = alpha.loss.softmax_crossEntropy()
    rng = np.random.RandomState(0)
    x = eg.tensor(rng.uniform(-1, 1, (6, H, H, 3)).astype(np.float32))
    y = eg.tensor(np.eye(C, dtype=np.float32)[rng.randint(0, C, 6)])
    for i in range(4):
        yh = net.forward(x)[0]
        g = ls.gradient(yh, y)
        if i == 3:
            assert eg.auto.mode == DEFER
            net.record_forward([yh], [x])
            assert eg.auto.mode == DEFER, "record_forward of the unit's own last outputs flushed"
        net.record_forward([yh], [x]).backward(g)
        opt.update().clear_grads()
        net.record_forward([yh]).gc()
    yh = net.forward(x)[0]
    assert eg.auto.mode == DEFER
    net.record_forward([eg.tensor(np.zeros((6, C), np.float32))])      # other outputs: flushed first
    assert eg.auto.mode != DEFER


def java_module_loop(auto, n=7, probe=None):
    """The calls a Java Module's loop makes through the bridge: its units and alpha.F one by one at the top
    level, then the mirror's record_forward + backward (bridge unit_backward) and record_forward + gc."""
    from alpha_py.bridge.hosted import hosted_module
    eg = alpha.engine.cpu_float32().set_seed(1)
    if auto:
        eg.auto = AutoLoop(eg, defer_without_graphs=True)
    conv, bn, fc = nn.conv3D(False, 3, 4, 3, 1, 1), nn.batchNorm(4), nn.fullconnect(4 * (H // 2) ** 2, C)
    net = hosted_module("JavaNet", [["conv", conv], ["bn", bn], ["fc", fc]]).train().init(eg)
    opt, ls = alpha.optim.Adam(net.param_map(), 1e-2), alpha.loss.softmax_crossEntropy()
    rng, losses = np.random.RandomState(0), []
    for i in range(n):
        x = eg.tensor(rng.uniform(-1, 1, (6, H, H, 3)).astype(np.float32))
        y = eg.tensor(np.eye(C, dtype=np.float32)[rng.randint(0, C, 6)])
        h = F.leakyRelu(0.1, bn.forward(conv.forward(x)[0])[0])[0]
        yh = fc.forward(F.flatten(F.maxPool2D(2, h)[0])[0])[0]
        if probe is not None:
            probe.append(eg.auto.mode)
        net.record_forward([yh], [x]).backward(ls.gradient(yh, y))
        opt.update().clear_grads()
        net.record_forward([yh]).gc()
        losses.append(ls.loss(yh, y))
    st = {k: v.numpy() for k, v in net.state_map().items()}
    return [r.get() for r in losses], st


def test_a_java_module_s_loop_is_deferred_like_a_python_net_s():
    # Java Modules call their units and F one by one; the mirror names the outputs (record_forward): those
    # calls are logged ("rec", "F"), so the iteration keeps one signature and is deferred (captured on a GPU)
    from alpha_py.engine.loop_graph import DEFER
    modes = []
    l1, s1 = java_module_loop(True, probe=modes)
    l0, s0 = java_module_loop(False)
    assert modes[3:] == [DEFER] * 4, modes
    assert l1 == l0
    assert all(np.array_equal(s0[k], s1[k]) for k in s0)


def java_batch_loop(auto, n=7, probe=None, bad_at=None, eg=None, templated=False):
    """A Java Module step as the bridge receives it: the forward's calls as one batch request (fc1.forward(x),
    F.leakyRelu(0.1, ...), fc2.forward(...)), then the bridge's unit_backward, update, clear_grads, unit_gc.
    eg: another engine (tests/test_user_loop_gpu.py: CUDA, its own auto_graph) instead of the CPU one.
    templated: the batch goes as Java's Templates send it (whole, then DEFINE, then REPLAY of its leaves)."""
    import struct
    from alpha_py.bridge import codec, functions
    from alpha_py.bridge.dispatch import Dispatcher
    from alpha_py.bridge.hosted import hosted_module
    eg = (eg or alpha.engine.cpu_float32()).set_seed(1)
    if auto:
        eg.auto = AutoLoop(eg, defer_without_graphs=True)
    fc1, fc2 = nn.fullconnect(True, 6, 8), nn.fullconnect(True, 8, C)
    net = hosted_module("JavaNet", [["fc1", fc1], ["fc2", fc2]]).train().init(eg)
    opt, ls = alpha.optim.Adam(net.param_map(), 1e-2), alpha.loss.softmax_crossEntropy()
    d, rng, losses = Dispatcher(), np.random.RandomState(0), []
    h1, h2 = d.registry.put(fc1), d.registry.put(fc2)
    slope = struct.unpack("<i", struct.pack("<f", 0.1))[0]
    for i in range(n):
        x = eg.tensor(rng.uniform(-1, 1, (6, 6)).astype(np.float32))
        y = eg.tensor(np.eye(C, dtype=np.float32)[rng.randint(0, C, 6)])
        hx = d.registry.put(x)
        tail = (codec.INT, 3) if i == bad_at else (codec.PENDING, 1, 0)
        frame = (codec.OP_BATCH, 0, 0, 3, codec.OP_CALL, h1, 0, 1, codec.HANDLE, hx,
                 codec.OP_NEW, 0, 1, 2, codec.F32, slope, codec.PENDING, 0, 0, codec.OP_CALL, h2, 2, 1, *tail)
        names, leaves = ["forward", "F.leakyRelu", "forward"], (1, 5, 9, 11, 15, 20)
        if templated and i == 1 and i != bad_at:
            frame = (frame[0] | codec.DEFINE, *frame[1:], 2, len(leaves), *leaves)
        elif templated and i > 1 and i != bad_at:
            frame, names = (frame[0] | codec.REPLAY, 2, 0, *[frame[p] for p in leaves]), None
        ok, reply = d.handle("batch", frame, names)
        if i == bad_at:
            return ok, reply
        assert ok, reply
        if probe is not None:
            probe.append(eg.auto.mode)
        yh = d.registry.get(reply[0][-2])
        functions.unit_backward(d, net, [x], [yh], [ls.gradient(yh, y)])
        opt.update().clear_grads()
        functions.unit_gc(d, net, [yh], [])
        losses.append(ls.loss(yh, y))
    st = {k: v.numpy() for k, v in net.state_map().items()}
    return [r.get() for r in losses], st, eg.auto


def test_a_java_module_s_batched_forward_is_one_recorded_call():
    # the bridge hands the recorder a Java Module forward's batch as one call: a Java step records the calls of
    # a Python step (batch, gradient, record_forward, backward, update, clear_grads, gc), deferred, bit-identical
    from alpha_py.engine.loop_graph import DEFER
    modes = []
    l1, s1, auto = java_batch_loop(True, probe=modes)
    l0, s0, _ = java_batch_loop(False)
    assert modes[3:] == [DEFER] * 4, modes
    steady = max(auto.templates.values(), key=lambda t: t.seen)    # (the loss read after gc opens the next one)
    assert [c[0] for c in steady.sig] == ["loss", "batch", "grad", "rec", "bwd", "update", "zero", "gc"]
    assert l1 == l0 and all(np.array_equal(s0[k], s1[k]) for k in s0)
    modes.clear()
    l2, s2, _ = java_batch_loop(True, probe=modes, templated=True)    # sent as template replays: the same
    assert modes[3:] == [DEFER] * 4, modes
    assert l2 == l0 and all(np.array_equal(s0[k], s2[k]) for k in s0)
    ok, (etype, msg) = java_batch_loop(True, bad_at=4, templated=True)  # a failing call of a batch names its unit
    assert not ok and etype == "ShapeError" and "JavaNet.fc2" in msg, msg


def test_a_templated_batch_is_keyed_by_its_plan_after_its_first_replay(monkeypatch):
    # the whole request and its DEFINE describe every argument (BatchReplay._taken); each REPLAY is looked up by its
    # plan group and leaves (run_planned) without describing them again, with the same results
    from alpha_py.bridge.batch_replay import BatchReplay
    seen = {"described": 0, "hit": 0}
    taken, run_planned = BatchReplay._taken, BatchReplay.run_planned

    def counted(self, *a):
        seen["described"] += 1
        return taken(self, *a)

    def planned(self, dispatcher, group, leaves, get, calls):
        before = seen["described"]
        out = run_planned(self, dispatcher, group, leaves, get, calls)
        seen["hit"] += seen["described"] == before
        return out
    monkeypatch.setattr(BatchReplay, "_taken", counted)
    monkeypatch.setattr(BatchReplay, "run_planned", planned)
    l1, s1, _ = java_batch_loop(True, n=9, templated=True)
    monkeypatch.undo()
    l0, s0, _ = java_batch_loop(False, n=9)
    assert seen == {"described": 2, "hit": 7}, seen
    assert l1 == l0 and all(np.array_equal(s0[k], s1[k]) for k in s0)
