"""Request templates on the Python side (alpha_py/bridge/plan.py; no JVM): a Plan's arguments equal codec.decode_args
on the same request, the leaf positions are those Java's Codec.Request records (checked by hand here), a DEFINE whose
positions disagree or a REPLAY of an unknown template is refused by name, and a request answered whole, as DEFINE
and as REPLAY gives the same results (a batch with PENDING outputs, deferred calls and frees included)."""
import struct

import numpy as np

from alpha_py import alpha, nn
from alpha_py.bridge import codec, plan
from alpha_py.bridge.dispatch import Dispatcher


def f32_bits(v):
    return struct.unpack("<i", struct.pack("<f", v))[0]


def define(frame, k, positions):
    return (frame[0] | codec.DEFINE, *frame[1:], k, len(positions), *positions)


def replay(frame, k, positions, nfree=0):
    leaves = [frame[p if p < 3 else p + nfree] for p in positions]
    return (frame[0] | codec.REPLAY, k, nfree, *frame[3:3 + nfree], *leaves)


def test_plan_arguments_equal_the_decoder_s_and_leaves_are_java_s():
    get = {7: "T7", 8: "T8"}.get
    tagged = [(codec.LIST, 2, codec.HANDLE, 7, codec.HANDLE, 8), (codec.INT, -3), (codec.F32, f32_bits(0.01)),
              (codec.F64, codec.f64_bits(2.5)), (codec.BOOL, 1), (codec.NULL,), (codec.STR, 0),
              (codec.MAP, 1, codec.STR, 1, codec.HANDLE, 7), (codec.LIST, 2, codec.INT, 1, codec.HANDLE, 8),
              (codec.LIST, 0)]
    frame = (codec.OP_CALL, 7, 2, 90, 91, len(tagged), *[i for t in tagged for i in t])
    objs = ["name", "key"]
    p, end = plan.compile_request("m", frame, objs)
    assert end == len(frame)
    # Java's leaves, counted without the 2 frees: the target, then every value after HANDLE/INT/F32/F64/BOOL
    assert p.positions == (1, 7, 9, 11, 13, 15, 17, 26, 30, 32)
    leaves = [frame[q if q < 3 else q + 2] for q in p.positions]
    want = codec.decode_args(frame, 5, objs, get, None)[0]
    assert plan.evaluate(p.args, leaves, get, None) == want
    assert p.args_fn(leaves, get, None) == want                 # the compiled form of the same recipes
    obj = (codec.OP_CALL, 7, 0, 1, codec.OBJ, 0)
    try:
        plan.compile_request("m", obj, ["javaobj"])
        raise AssertionError("a Java object argument was templated")
    except plan.NotTemplated:
        pass


def test_compiled_arguments_equal_the_interpreter_s_in_value_and_order_and_errors():
    """compile_args: maps, PENDING results, nesting past MAX_DEPTH (interpreted), get() calls in the same order, the
    PENDING-outside-a-batch error and a bad handle's error as evaluate gives them."""
    deep = (plan.H, 0)
    for _ in range(plan.MAX_DEPTH + 3):
        deep = (plan.L, (deep, (plan.SCALARS[0], 1)))
    recipes = ((plan.M, (((7, "k"), (plan.H, 0)), ((plan.SCALARS[1], 2), (1, 1, 0)))), (1, 0, 1), deep,
               (plan.L, ((plan.SCALARS[3], 1), (6,), (plan.SCALARS[2], 3))), (plan.H, 4))
    leaves = [7, -5, f32_bits(0.5), codec.f64_bits(-1.25), 8]

    def run(fn, results, bad):
        order = []

        def get(i):
            if i == bad:
                raise plan.StateError(f"handle {i} is not valid")
            order.append(i)
            return f"T{i}"
        try:
            return "ok", fn(leaves, get, results), order
        except Exception as e:
            return type(e), str(e), order

    outcomes = set()
    for which in (recipes, recipes[2:3], recipes[3:]):
        for results in ([["r00", "r01"], ["r10"]], None):
            for bad in (None, 8):
                fn = plan.compile_args(which)
                want = run(lambda *a: plan.evaluate(which, *a), results, bad)
                assert run(fn, results, bad) == want
                outcomes.add(want[0] if want[0] == "ok" else want[0].__name__)
    assert outcomes == {"ok", "ArgumentError", "StateError"}


def step_frames(hr, hx, hf, out_id):
    """A step as a Java Module sends it: frees [out_id], deferred release(ids) (an OP_FN), a carried batch
    relu.forward(x) -> F.leakyRelu(0.1, PENDING 0 0), then a call on the batch's last output (sum)."""
    slope = f32_bits(0.1)
    frame = (codec.OP_CALL | codec.DEFERRED | codec.WITH_BATCH, hf, 1, out_id,
             1, codec.OP_FN, 0, 1, 1, codec.LIST, 1, codec.INT, out_id,
             2, codec.OP_CALL, hr, 2, 1, codec.HANDLE, hx,
             codec.OP_NEW, 0, 3, 2, codec.F32, slope, codec.PENDING, 0, 0,
             1, codec.PENDING, 1, 0)
    positions = (1, 5, 11, 14, 18, 20, 24)           # counted without the one free
    return frame, positions


def run_steps(mode):
    """Three steps of step_frames through one dispatcher, sent whole (mode 'whole') or whole, DEFINE, REPLAY."""
    d, eg = Dispatcher(), alpha.engine.cpu_float32()
    relu = nn.relu().init(eg)
    hr = d.registry.put(relu)
    seen = []
    out_id = d.registry.put(eg.zeros(1))
    for step in range(3):
        x = eg.tensor(np.linspace(-1, 1, 8, dtype=np.float32) * (step + 1), 2, 4)
        hx, hf = d.registry.put(x), d.registry.put(nn.relu().init(eg))
        frame, positions = step_frames(hr, hx, hf, out_id)
        objs = ["forward", "release", "forward", "F.leakyRelu"]
        if mode == "whole" or step == 0:
            ok, reply = d.handle("forward", frame, objs)
        elif step == 1:
            ok, reply = d.handle("forward", define(frame, 3, positions), objs)
        else:
            ok, reply = d.handle("forward", replay(frame, 3, positions, nfree=1), None)
        assert ok, reply
        outs = handles(reply[0])                  # relu's output, leakyRelu's, the call's
        assert len(outs) == 3
        seen.append([d.registry.get(i).value().copy() for i in outs])
        out_id = outs[1]
    return seen


def handles(ints):
    """The handle ids of a reply made of LISTs, HANDLEs and TYPEDEFs, in order."""
    out, k = [], 0
    while k < len(ints):
        t = ints[k]
        if t == codec.HANDLE:
            out.append(ints[k + 1])
        k += {codec.LIST: 2, codec.HANDLE: 3, codec.TYPEDEF: 4}.get(t, 1)
    return out


def test_whole_define_and_replay_give_the_same_results():
    whole, templated = run_steps("whole"), run_steps("templated")
    for a, b in zip(whole, templated):
        for u, v in zip(a, b):
            np.testing.assert_array_equal(u, v)


def test_bad_templates_are_refused_by_name():
    d, eg = Dispatcher(), alpha.engine.cpu_float32()
    hr, hx = d.registry.put(nn.relu().init(eg)), d.registry.put(eg.ones(1, 4))
    frame = (codec.OP_CALL, hr, 0, 1, codec.HANDLE, hx)
    ok, (etype, msg) = d.handle("forward", define(frame, 0, (1, 4)), ["forward"])
    assert not ok and etype == "StateError" and "template 0" in msg and "leaf positions" in msg, msg
    ok, (etype, msg) = d.handle("forward", replay(frame, 9, (1, 5)), None)
    assert not ok and etype == "StateError" and "template 9 was never defined" in msg, msg
    ok, reply = d.handle("forward", define(frame, 0, (1, 5)), None)
    assert ok
    ok, reply2 = d.handle("forward", replay(frame, 0, (1, 5)), None)
    assert ok and reply2[0][3] != reply[0][3]
    np.testing.assert_array_equal(d.registry.get(reply2[0][3]).value().reshape(1, 4), np.ones((1, 4), np.float32))
