"""auto_graph on the GPU: the README loop written by hand (forward, loss.gradient, backward, update().clear_grads(),
gc) gives bit for bit the results of the same loop op by op (auto_graph=False) while its iterations are captured
and replayed: with losses kept across iterations, host reads in mid-iteration, a short last batch, train/eval
switches, trainable flags, lr changes and schedulers, set_seed, checkpoint loads, dropout, an exception in
mid-iteration, an uncapturable unit; the switch turns it off. Skipped without CuPy/GPU.
Run: python3 -m pytest -q tests/test_user_loop_gpu.py"""
import os
import subprocess
import sys

import numpy as np
import pytest

from alpha_py import alpha, nn
from alpha_py.errors import ShapeError
from cuda_parity import keep_allocator, require_gpu  # noqa: F401 (keep_allocator: an autouse fixture)
from test_cuda_graph import HostPeek, state

pytestmark = pytest.mark.gpu
H, C = 12, 10



def setup(auto, optim="Adam", peek=None, seed=3):
    require_gpu()
    eg = alpha.engine.cuda_float32(0, auto_graph=auto).set_seed(seed)
    units = [nn.conv3D(False, 3, 8, 3, 1, 1), nn.batchNorm_leakyRelu(8), nn.maxPool2D(2),
             nn.conv3D(True, 8, 12, 3, 1, 1), nn.batchNorm(12), nn.relu()]
    units += [HostPeek(peek)] if peek else []
    units += [nn.flatten(), nn.fullconnect(12 * (H // 2) ** 2, 32), nn.relu(), nn.dropout(0.75),
              nn.fullconnect(32, C)]
    net = nn.sequence(*units).train().init(eg)
    opt = getattr(alpha.optim, optim)(net.param_map(), 1e-2)
    return eg, net, opt


def batches(eg, sizes, seed=0):
    rng = np.random.RandomState(seed)
    return [(eg.tensor(rng.randn(n, H, H, 3).astype(np.float32)),
             eg.tensor(np.eye(C, dtype=np.float32)[rng.randint(0, C, n)])) for n in sizes]


def run(auto, sizes, before=None, mid=None, optim="Adam", peek=None):
    """The README loop over batches of `sizes`; before[i](eg, net, opt) runs before iteration i, mid[i](...)
    between forward and backward (its return value is kept). Returns (losses, mids, final state, stats)."""
    eg, net, opt = setup(auto, optim, peek)
    ls = alpha.loss.softmax_crossEntropy()
    losses, mids = [], []
    for i, (x, y) in enumerate(batches(eg, sizes)):
        if before and i in before:
            before[i](eg, net, opt)
        yh = net.forward(x)[0]
        if mid and i in mid:
            mids.append(mid[i](eg, net, opt, yh, y))
        net.backward(ls.gradient(yh, y))
        opt.update().clear_grads()
        net.gc()
        losses.append(ls.loss(yh, y))            # read only at the end: replays must not overwrite it
    return [r.get() for r in losses], mids, state(net, opt), eg.auto_stats()


def same(sizes, before=None, mid=None, min_replays=1, **kw):
    off = run(False, sizes, before, mid, **kw)
    on = run(True, sizes, before, mid, **kw)
    assert on[0] == off[0], f"losses differ: auto_graph {on[0]} vs op by op {off[0]}"
    assert all(np.array_equal(a, b) for a, b in zip(on[1], off[1])), "values read in mid-iteration differ"
    bad = [k for k in off[2] if not np.array_equal(on[2][k], off[2][k])]
    assert not bad, f"final state differs in {bad[:8]}"
    assert on[3]["replays"] >= min_replays, f"expected at least {min_replays} replayed iterations: {on[3]}"
    return on[3]


def test_readme_loop_is_captured_and_bit_identical():
    s = same([16] * 8, min_replays=4)
    # one flush: the last loss is read while the iteration it opened (loss, then nothing) is still deferred
    assert s["captures"] == 1 and s["flushes"] <= 1 and s["failed"] == 0, s


@pytest.mark.parametrize("optim", ["SGD", "Momentum", "RMSprop", "AdamW"])
def test_other_optimizers(optim):
    same([16] * 6, optim=optim, min_replays=3)


def test_host_read_in_mid_iteration_falls_back_for_that_iteration():
    read = {i: (lambda eg, net, opt, yh, y: yh.numpy().copy()) for i in (3, 5)}
    read[6] = lambda eg, net, opt, yh, y: np.float64(alpha.loss.softmax_crossEntropy().loss(yh, y).get())
    s = same([16] * 9, mid=read, min_replays=3)
    assert s["flushes"] >= 3, s


def test_short_last_batch_gets_its_own_graph():
    s = same([16, 16, 16, 16, 16, 7, 16, 16, 16, 7, 7, 7, 7, 16], min_replays=3)
    assert s["captures"] >= 2 and s["failed"] == 0, s


def test_train_eval_trainable_flags_and_lr_changes():
    def to_eval(eg, net, opt):
        net.eval()

    def to_train(eg, net, opt):
        net.train()

    def freeze(eg, net, opt):
        net[0].need_grads(False)

    def lr(eg, net, opt):
        opt.learning_rate(3e-3)

    def sched(eg, net, opt):
        opt.lrSchedular(alpha.optim.exponentialLr(0.9))
    same([16] * 16, before={3: to_eval, 6: to_train, 8: freeze, 10: lr, 12: sched}, min_replays=4)


def test_mode_switch_in_mid_iteration():
    def flip(eg, net, opt, yh, y):
        net.eval()
        net.train()
        return np.zeros(1)
    s = same([16] * 7, mid={4: flip}, min_replays=2)
    assert s["flushes"] >= 1, s


def test_set_seed_and_random_draws():
    def seed(eg, net, opt):
        eg.set_seed(11)

    def draw(eg, net, opt, yh, y):
        return eg.uniform(0, 1, 5).numpy().copy()
    same([16] * 9, before={4: seed}, mid={6: draw}, min_replays=3)


def test_checkpoint_load_between_iterations(tmp_path):
    path = str(tmp_path / "ck.zip")

    def save(eg, net, opt):
        alpha.stat.save_zip(net, path)

    def load(eg, net, opt):
        alpha.stat.load_zip(net, path)
    same([16] * 9, before={3: save, 6: load}, min_replays=3)


def test_exception_in_mid_iteration_leaves_op_by_op_state():
    def go(auto):
        eg, net, opt = setup(auto)
        ls = alpha.loss.softmax_crossEntropy()
        data = batches(eg, [16] * 6)
        for i, (x, y) in enumerate(data):
            yh = net.forward(x)[0]
            if i == 4:
                with pytest.raises(ShapeError):
                    ls.gradient(yh, eg.zeros(16, C + 1))
                net.gc()
                continue
            net.backward(ls.gradient(yh, y))
            opt.update().clear_grads()
            net.gc()
        return state(net, opt), opt.steps(), eg.backend.rng_state()
    on, off = go(True), go(False)
    assert on[1:] == off[1:]
    assert all(np.array_equal(on[0][k], off[0][k]) for k in off[0])


def test_uncapturable_unit_runs_op_by_op_with_the_same_results():
    s = same([16] * 6, peek="cupy", min_replays=0)
    assert s["replays"] == 0 and s["failed"] == 1 and s["not_captured"], s


def test_switch_turns_it_off():
    eg = alpha.engine.cuda_float32(0, auto_graph=False)
    assert not eg.auto_graph() and eg.auto_stats()["captures"] == 0
    assert eg.auto_graph(True).auto_graph()
    code = "from alpha_py import alpha; print(alpha.engine.cuda_float32(0).auto_graph())"
    env = dict(os.environ, ALPHA_AUTO_GRAPH="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_train_step_beside_the_recorder():
    eg, net, opt = setup(True)
    step = alpha.train_step(net, alpha.loss.softmax_crossEntropy(), opt)
    losses = [step(x, y).get() for x, y in batches(eg, [16] * 4)]
    assert all(np.isfinite(losses)) and eg.auto_stats()["eager"] == 0


def test_outputs_kept_across_launches_keep_their_values_and_memory_stays_flat():
    def go(auto, n):
        eg, net, opt = setup(auto)
        ls = alpha.loss.softmax_crossEntropy()
        data = batches(eg, [16] * 4)
        kept, prev, used = [], None, []
        for i in range(n):
            x, y = data[i % 4]
            yh = net.forward(x)[0]
            net.backward(ls.gradient(yh, y))
            opt.update().clear_grads()
            net.gc()
            if prev is not None:                 # last iteration's output, read after this launch
                kept.append(prev.numpy().copy())
            prev = yh
            used.append(eg.backend.memory.stats()["used"] if i >= 10 else 0)
        return kept, used, eg.auto_stats()
    on, off = go(True, 40), go(False, 40)
    assert all(np.array_equal(a, b) for a, b in zip(on[0], off[0])), "an output read after the next launch differs"
    assert on[2]["replays"] >= 30 and len(set(on[1][10:])) == 1, f"memory grows over replays: {on[1][10:]}"


def test_anomaly_mode_turns_the_capture_off_and_back_on():
    """detect_anomaly(True) checks every unit's outputs, so the loop runs op by op while it is on (same results);
    turning it off restores the auto_graph setting it found, and the loop is replayed again."""
    setting = {}

    def on(eg, net, opt):
        setting[id(eg)] = eg.auto_graph()
        eg.detect_anomaly(True)
        assert not eg.auto_graph()

    def off(eg, net, opt):
        eg.detect_anomaly(False)
        assert eg.auto_graph() == setting[id(eg)]
    same([8] * 12, before={4: on, 6: off}, min_replays=2)     # replays counted by the recorder made at 6


def test_iterations_left_op_by_op_take_planned_memory():
    # a read of yh in every iteration: deferring keeps flushing, so the signature is left op by op; those
    # iterations then take their memory from a plan (engine/loop_memory.py), with results bit for bit the same
    s = same([16] * 12, mid={i: (lambda eg, net, opt, yh, y: yh.numpy()) for i in range(12)}, min_replays=0)
    assert s["replays"] == 0 and s["memory"]["planned"] > 0, s
    assert "serve" in s["memory"]["states"], s


def test_the_loop_with_auto_graph_off_takes_planned_memory_with_the_pool_s_results():
    """auto_graph off: every iteration runs op by op, its memory from a plan (as train_step(graph=False)); results
    bit for bit those of the bare pool (no recorder at all), outputs the user keeps across iterations too."""
    def go(planned):
        eg, net, opt = setup(False)
        if not planned:
            eg.auto = None                       # no recorder: every block from the pool
        ls, kept, losses = alpha.loss.softmax_crossEntropy(), [], []
        for i, (x, y) in enumerate(batches(eg, [16] * 10 + [8, 16])):
            yh = net.forward(x)[0]
            net.backward(ls.gradient(yh, y))
            opt.update().clear_grads()
            net.gc()
            losses.append(ls.loss(yh, y))
            if i == 6:
                kept.append(yh)                  # read at the end: later iterations must not reuse its bytes
        return [r.get() for r in losses], [k.numpy() for k in kept], state(net, opt), eg.auto_stats()
    planned, pool = go(True), go(False)
    assert planned[0] == pool[0] and all(np.array_equal(a, b) for a, b in zip(planned[1], pool[1]))
    assert all(np.array_equal(planned[2][k], pool[2][k]) for k in pool[2])
    s = planned[3]
    assert s["captures"] == 0 and s["replays"] == 0 and s["eager"] == 12, s
    assert s["memory"]["planned"] > 0 and pool[3] == {}, s          # blocks were served from a plan's arena


def test_a_captured_loop_keeps_no_op_by_op_arena():
    s = same([16] * 8, min_replays=4)
    assert s["memory"]["arena_bytes"] == 0 and "serve" not in s["memory"]["states"], s


def java_module_run(auto, n=8):
    """A Java Module's loop as the bridge runs it: units and alpha.F called one by one, the mirror's
    record_forward + backward, update, record_forward + gc (tests/test_user_loop.py has the CPU half)."""
    from alpha_py import F
    from alpha_py.bridge.hosted import hosted_module
    require_gpu()
    eg = alpha.engine.cuda_float32(0, auto_graph=auto).set_seed(3)
    conv, bn, fc = nn.conv3D(False, 3, 8, 3, 1, 1), nn.batchNorm(8), nn.fullconnect(8 * (H // 2) ** 2, C)
    net = hosted_module("JavaNet", [["conv", conv], ["bn", bn], ["fc", fc]]).train().init(eg)
    opt, ls, losses = alpha.optim.Adam(net.param_map(), 1e-2), alpha.loss.softmax_crossEntropy(), []
    for x, y in batches(eg, [16] * n):
        h = F.leakyRelu(0.1, bn.forward(conv.forward(x)[0])[0])[0]
        yh = fc.forward(F.flatten(F.maxPool2D(2, h)[0])[0])[0]
        net.record_forward([yh], [x]).backward(ls.gradient(yh, y))
        opt.update().clear_grads()
        net.record_forward([yh]).gc()
        losses.append(ls.loss(yh, y))
    return [r.get() for r in losses], state(net, opt), eg.auto_stats()


def test_a_java_module_s_loop_is_captured_and_bit_identical():
    off, on = java_module_run(False), java_module_run(True)
    assert on[0] == off[0]
    bad = [k for k in off[1] if not np.array_equal(on[1][k], off[1][k])]
    assert not bad, f"final state differs in {bad[:8]}"
    s = on[2]
    assert s["captures"] == 1 and s["replays"] >= 4 and s["failed"] == 0, s


def test_a_java_module_s_batched_step_is_captured_and_bit_identical():
    """The bridge's path: a Java Module forward's batch request is one recorded call; the step is captured."""
    from test_user_loop import java_batch_loop
    require_gpu()
    l1, s1, auto = java_batch_loop(None, n=9, eg=alpha.engine.cuda_float32(0, auto_graph=True))
    l0, s0, off = java_batch_loop(None, n=9, eg=alpha.engine.cuda_float32(0, auto_graph=False))
    assert not off.capture and off.stats()["captures"] == 0 and l1 == l0     # off: op by op, planned memory
    bad = [k for k in s0 if not np.array_equal(s0[k], s1[k])]
    assert not bad, f"final state differs in {bad[:8]}"
    st = auto.stats()
    assert st["captures"] >= 1 and st["replays"] >= 4 and st["failed"] == 0, st
    l2, s2, tpl = java_batch_loop(None, n=9, eg=alpha.engine.cuda_float32(0, auto_graph=True), templated=True)
    assert l2 == l0 and all(np.array_equal(s0[k], s2[k]) for k in s0)       # sent as template replays: the same
    st = tpl.stats()
    assert st["captures"] >= 1 and st["replays"] >= 4 and st["failed"] == 0, st


def _target_loop(auto, pattern):
    """A net of [n, C] -> [n, C] trained by L2 towards a target that is the input itself ("A": one tensor taken by
    two calls) or another tensor ("B"), per iteration as `pattern` says."""
    require_gpu()
    eg = alpha.engine.cuda_float32(0, auto_graph=auto).set_seed(5)
    net = nn.sequence(nn.fullconnect(C, 16), nn.relu(), nn.fullconnect(16, C)).train().init(eg)
    opt, ls, losses = alpha.optim.Adam(net.param_map(), 1e-2), alpha.loss.L2(), []
    rng = np.random.RandomState(1)
    for p in pattern:
        x = eg.tensor(rng.randn(8, C).astype(np.float32))
        t = x if p == "A" else eg.tensor(rng.randn(8, C).astype(np.float32))
        yh = net.forward(x)[0]
        net.backward(ls.gradient(yh, t))
        opt.update().clear_grads()
        net.gc()
        losses.append(ls.loss(yh, t))
    return [r.get() for r in losses], state(net, opt), eg.auto_stats(), eg.auto


def test_an_input_taken_by_two_calls_fills_one_buffer_and_its_pairing_is_part_of_the_signature():
    """The same tensor as the forward's input and the loss's target is copied into one graph buffer; iterations where
    the target is another tensor get a signature (and graph) of their own, so neither replays the other's."""
    pattern = "AAAAAABBBBBBAAAABBB"
    off, on = _target_loop(False, pattern), _target_loop(True, pattern)
    assert on[0] == off[0], "losses differ"
    bad = [k for k in off[1] if not np.array_equal(on[1][k], off[1][k])]
    assert not bad, f"final state differs in {bad[:8]}"
    s = on[2]
    assert s["captures"] == 2 and s["replays"] >= 8 and s["failed"] == 0, s
    ins = {any(part[0] == "same" for call in t.sig for part in call[2:] if isinstance(part, tuple)): len(t.ins)
           for t in on[3].templates.values() if t.graph is not None}
    # each iteration opens with the last one's loss read (its yh and target), then takes x and, in B, the target:
    # A fills 3 buffers (the target shares x's), B 4
    assert ins == {True: 3, False: 4}, ins
