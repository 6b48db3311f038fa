"""The bridge's typed wire format and dispatcher on the Python side (no JVM needed): requests as
Java's Codec builds them, replies as Java decodes them, the Py4J text form, and errors."""
import struct

import numpy as np

from alpha_py import alpha, nn
from alpha_py.bridge import codec
from alpha_py.bridge.dispatch import Dispatcher
from alpha_py.bridge.py4j_server import Py4JEndpoint


def f32_bits(v):
    return struct.unpack("<i", struct.pack("<f", v))[0]


def request(op, target, *tagged, frees=()):
    """[op, target, nfree, frees..., nargs, tagged args...] as Codec.Request.frame builds it."""
    return (op, target, len(frees), *frees, len(tagged), *[i for t in tagged for i in t])


def test_decode_every_tag():
    get = {7: "T7", 8: "T8"}.get
    args, _ = codec.decode_args(request(0, 0,
                                     (codec.LIST, 2, codec.HANDLE, 7, codec.HANDLE, 8),
                                     (codec.INT, -3), (codec.F32, f32_bits(0.01)),
                                     (codec.F64, codec.f64_bits(2.5)), (codec.BOOL, 1), (codec.NULL,),
                                     (codec.STR, 0), (codec.MAP, 1, codec.STR, 1, codec.HANDLE, 7),
                                     (codec.LIST, 2, codec.INT, 1, codec.HANDLE, 8),
                                     (codec.OBJ, 2)),
                             3, ["name", "key", "javaobj"], get, lambda o: ("wrapped", o))
    assert args == [["T7", "T8"], -3, 0.01, 2.5, True, None, "name", {"key": "T7"}, [1, "T8"],
                    ("wrapped", "javaobj")]
    assert codec.f32(f32_bits(0.1)) == 0.1                 # Java's 0.1f arrives as 0.1, as Float.toString prints it


def test_encode_replies_and_typedefs():
    d = Dispatcher()
    eg = alpha.engine.cpu_float32()
    x = eg.ones(2)
    enc = d.encoder
    assert [enc.encode(v, None) for v in (None, True, 3, 1.5, "s")] == [None, True, 3, 1.5, "s"]
    assert enc.encode(x, x) is codec.SELF_REPLY
    ints, strs = enc.encode([x, x], None)                   # first time: the type is announced once
    assert ints[:2] == [codec.LIST, 2] and ints[2] == codec.TYPEDEF and strs == ["Tensor", "Tensor"]
    assert len(d.registry) == 1                              # the same object twice: one id, two refs
    again, strs2 = enc.encode([x], None)                     # known type: the fast path, no strings
    assert again == [codec.LIST, 1, codec.HANDLE, ints[-2], ints[-1]] and strs2 is None
    m, ms = enc.encode({"a": 1, "b": [2.5, None]}, None)
    assert m == [codec.MAP, 2, codec.STR, 0, codec.INT, 1, codec.STR, 1, codec.LIST, 2,
                 codec.F64, codec.f64_bits(2.5), codec.NULL] and ms == ["a", "b"]


def test_dispatch_call_frees_and_errors():
    d = Dispatcher()
    eg = alpha.engine.cpu_float32()
    hx = d.registry.put(eg.ones(1, 4))
    hr = d.registry.put(nn.relu().init(eg))
    ok, (ints, _) = d.handle("forward", request(codec.OP_CALL, hr, (codec.HANDLE, hx)), None)
    assert ok and ints[0] == codec.LIST and len(d.registry) == 3
    out_id = ints[-2]
    ok, n = d.handle("count", request(codec.OP_FN, 0, frees=(out_id,)), None)   # frees ride along
    assert ok and n == 2
    ok, (kind, msg) = d.handle("ndim", request(codec.OP_CALL, out_id), None)
    assert not ok and kind == "StateError" and f"handle {out_id}" in msg and "released" in msg
    ok, (kind, msg) = d.handle("no_such", request(codec.OP_FN, 0), None)
    assert not ok and kind == "KeyError" and msg.startswith("bridge.no_such")
    ok, (kind, msg) = d.handle("forward", (codec.OP_CALL, hr, 0, 1, 99), None)
    assert not ok and kind == "ArgumentError" and "unknown value tag 99" in msg
    ok, (kind, msg) = d.handle("nn.conv3D", request(codec.OP_NEW, 0, (codec.INT, 3)), None)
    assert not ok and "conv3D" in msg


def test_py4j_text_form_round_trip():
    ep = Py4JEndpoint(Dispatcher())
    req = "engine.cpu_float32\x01" + ",".join(map(str, request(codec.OP_NEW, 0))) + "\x01"
    reply = ep.invoke(req)
    assert reply.startswith("P") and "|" in reply
    ints, strs = reply[1:].split("|")
    assert codec.parse_strs(strs) == ["Engine", "Engine"]
    hid = codec.parse_ints(ints)[-2]
    assert ep.invoke("dataType\x01" + ",".join(map(str, request(codec.OP_CALL, hid))) + "\x01") == "Scpu_float32"
    bad = ep.invoke("ones\x01" + ",".join(map(str, request(codec.OP_CALL, hid, (codec.INT, -1)))) + "\x01")
    assert bad.startswith("E") and "\n" in bad
    assert codec.text_reply(float("nan")) == "DNaN" and codec.text_reply(float("-inf")) == "D-Infinity"
    assert codec.parse_strs(codec.join_strs(["a:b", "", "ü𝄞x"])) == ["a:b", "", "ü𝄞x"]


def test_dispatch_batch_runs_calls_in_order_with_pending_results():
    """OP_BATCH as alpha.bridge.Batch sends it: relu.forward(x), then F.tanh of its output (PENDING 0 0);
    one reply list per call; an error names the failing call's unit."""
    d = Dispatcher()
    eg = alpha.engine.cpu_float32()
    x = eg.tensor([-1.0, 2.0, -3.0, 4.0], 1, 4)
    hx, hr = d.registry.put(x), d.registry.put(nn.relu().init(eg, "r"))
    batch = (codec.OP_BATCH, 0, 0, 2,
             codec.OP_CALL, hr, 0, 1, codec.HANDLE, hx,
             codec.OP_NEW, 0, 1, 1, codec.PENDING, 0, 0)
    ok, (ints, strs) = d.handle("batch", batch, ["forward", "F.tanh"])
    assert ok and ints[:2] == [codec.LIST, 2], ints
    tanh_id = ints[-2]
    np.testing.assert_allclose(d.registry.get(tanh_id).value().reshape(-1), np.tanh([0.0, 2.0, 0.0, 4.0]), rtol=1e-6)
    bad = (codec.OP_BATCH, 0, 0, 1, codec.OP_CALL, hr, 0, 1, codec.INT, 3)
    ok, (etype, msg) = d.handle("batch", bad, ["forward"])
    assert not ok and "'r'" in msg, msg
    ok, (etype, msg) = d.handle("x", (codec.OP_CALL, hr, 0, 1, codec.PENDING, 0, 0), None)
    assert not ok and "outside a batch" in msg


def test_deferred_calls_run_before_the_frees_and_the_request():
    """op | DEFERRED: [ncalls, calls...] after the frees (Java's gc()/clear_grads() sent late): they run
    first (their handle arguments are still valid), then the frees, then the request; a failing one is
    reported by this request, naming it."""
    d = Dispatcher()
    eg = alpha.engine.cpu_float32()
    x = eg.ones(1, 4)
    hx, hr = d.registry.put(x), d.registry.put(nn.relu().init(eg, "r"))
    ok, (ints, _) = d.handle("forward", request(codec.OP_CALL, hr, (codec.HANDLE, hx)), None)
    out_id = ints[-2]
    frame = (codec.OP_FN | codec.DEFERRED, 0, 1, hx,                 # frees x after the deferred call
             1, codec.OP_FN, 0, 0, 3, codec.HANDLE, hr, codec.LIST, 1, codec.HANDLE, hx, codec.LIST, 1, codec.INT, out_id,
             0)
    ok, n = d.handle("count", frame, ["unit_gc"])
    assert ok and n == 1, n                                         # the relu left; x freed, the output released
    bad = (codec.OP_FN | codec.DEFERRED, 0, 0, 1, codec.OP_CALL, hr, 0, 0, 0)
    ok, (etype, msg) = d.handle("count", bad, ["no_such_method"])
    assert not ok and "no_such_method" in msg and "sent late" in msg and "count" in msg, msg


def test_list_reply_fast_path_with_none_and_undo():
    """[tensor, None] (input gradients) stays on the fast path; a list with an unknown type undoes its puts."""
    d = Dispatcher()
    eg = alpha.engine.cpu_float32()
    x = eg.ones(2)
    enc = d.encoder
    enc.encode([x], None)                                   # the type is announced
    ints, strs = enc.encode([x, None], None)
    assert ints[:2] == [codec.LIST, 2] and ints[2] == codec.HANDLE and ints[-1] == codec.NULL and strs is None
    y = eg.zeros(3)
    ints, strs = enc.encode([None, y, "s"], None)           # a string: the general path, puts undone first
    hy = ints[ints.index(codec.HANDLE) + 1]
    assert strs == ["s"] and d.registry._objs[hy][1] == 1    # one Java reference, not two
