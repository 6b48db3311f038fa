"""The dispatcher's carried batches (no JVM needed): a Java Module forward's calls riding on the thread's
next request (op | WITH_BATCH, alpha.bridge.Batch left open): they run before the frees and the request,
whose arguments may be their outputs; the reply holds both; a failing batch call or request is reported
with Python's message, the batch's outputs still returned when only the request failed."""
import numpy as np

from alpha_py import alpha, nn
from alpha_py.bridge import codec
from alpha_py.bridge.dispatch import Dispatcher


def setup():
    d = Dispatcher()
    eg = alpha.engine.cpu_float32()
    x = eg.tensor([-1.0, 2.0, -3.0, 4.0], 1, 4)
    return d, eg, x, d.registry.put(x), d.registry.put(nn.relu().init(eg, "r"))


def test_request_carries_the_batch_and_uses_its_outputs():
    """relu.forward(x) queued, then F.tanh of its output as the request itself (PENDING 0 0), with x freed
    by the same request: the batch runs first, then the free, then the request."""
    d, eg, x, hx, hr = setup()
    frame = (codec.OP_NEW | codec.WITH_BATCH, 0, 1, hx,
             1, codec.OP_CALL, hr, 1, 1, codec.HANDLE, hx,
             1, codec.PENDING, 0, 0)
    ok, (ints, strs) = d.handle("F.tanh", frame, [None, "forward"])
    assert ok and ints[:4] == [codec.LIST, 2, codec.LIST, 1], ints
    decoded, pos = _read(ints, 2)                  # the batch: one call, one output
    relu_id = decoded[0][0]
    np.testing.assert_allclose(d.registry.get(relu_id).value().reshape(-1), [0.0, 2.0, 0.0, 4.0])
    value, end = _read(ints, pos)
    assert end == len(ints)
    tanh = d.registry.get(value[0])
    np.testing.assert_allclose(tanh.value().reshape(-1), np.tanh([0.0, 2.0, 0.0, 4.0]), rtol=1e-6)
    assert hx not in d.registry._objs, "x was freed after the batch that used it"


def test_request_failing_after_its_batch_returns_the_batch_and_the_error():
    d, eg, x, hx, hr = setup()
    frame = (codec.OP_CALL | codec.WITH_BATCH, hr, 0,
             1, codec.OP_CALL, hr, 1, 1, codec.HANDLE, hx,
             0)
    ok, (ints, strs) = d.handle("no_such_method", frame, [None, "forward"])
    assert ok, (ints, strs)
    decoded, pos = _read(ints, 2)
    assert d.registry.get(decoded[0][0]).value().reshape(-1).tolist() == [0.0, 2.0, 0.0, 4.0]
    assert ints[pos] == codec.ERROR and pos + 3 == len(ints)
    assert strs[ints[pos + 1]] == "AttributeError" and "no_such_method" in strs[ints[pos + 2]], strs


def test_failing_batch_call_is_reported_by_the_carrying_request_naming_both():
    d, eg, x, hx, hr = setup()
    bad = eg.ones(2, 3)
    hb = d.registry.put(bad)
    fc = d.registry.put(nn.fullconnect(True, 4, 2).init(eg, "fc"))
    frame = (codec.OP_CALL | codec.WITH_BATCH, hr, 0,
             2, codec.OP_CALL, hr, 1, 1, codec.HANDLE, hx,
             codec.OP_CALL, fc, 1, 1, codec.HANDLE, hb,
             1, codec.PENDING, 0, 0)
    ok, (etype, msg) = d.handle("forward", frame, [None, "forward"])
    assert not ok and "'fc'" in msg and "sent with the thread's next request, forward" in msg, msg
    assert "alpha.bridge.lazy=false" in msg


def test_batch_alone_runs_before_the_frees():
    """A batch sent on its own (OP_BATCH) whose input Java closed after queueing it: the batch runs first."""
    d, eg, x, hx, hr = setup()
    frame = (codec.OP_BATCH, 0, 1, hx, 1, codec.OP_CALL, hr, 0, 1, codec.HANDLE, hx)
    ok, (ints, _) = d.handle("batch", frame, ["forward"])
    assert ok and d.registry.get(ints[-2]).value().reshape(-1).tolist() == [0.0, 2.0, 0.0, 4.0]
    assert hx not in d.registry._objs


def _read(ints, pos):
    """A reply value as Codec.java decodes it, handles as ids (TYPEDEFs skipped) -> (value, next pos)."""
    tag = ints[pos]
    if tag == codec.TYPEDEF:
        return _read(ints, pos + 4)
    if tag == codec.HANDLE:
        return ints[pos + 1], pos + 3
    if tag == codec.LIST:
        out, pos, n = [], pos + 2, ints[pos + 1]
        for _ in range(n):
            v, pos = _read(ints, pos)
            out.append(v)
        return out, pos
    if tag == codec.NULL:
        return None, pos + 1
    raise AssertionError(f"unexpected tag {tag} at {pos}")
