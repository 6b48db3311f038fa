"""The autograd graph keeps no tensor data: an intermediate's memory goes once the units that saved it for their
backward let go (core/autograd.py Ref), and units keep only what their backward reads (activations whose
derivative is a function of their output keep only the output: ops.grad_from_output). CPU engine; the same
primitives on the GPU in tests/test_cuda_units.py's parity runs."""
import gc
import weakref

import numpy as np
import pytest

from alpha_py import F, alpha, nn
from alpha_py.ops import ACTIVATIONS, grad_from_output


class Fork(nn.Module):
    """a = fc1(x), b = fc2(x), y = add_<act>(a, b) (or a plain add): a and b are kept by no backward."""

    def __init__(self, act=None):
        super().__init__()
        self.fc1, self.fc2, self.act = nn.fullconnect(4, 6), nn.fullconnect(4, 6), act
        self.seen = []

    def __forward__(self, x):
        a, b = self.fc1(x)[0], self.fc2(x)[0]
        self.seen = [weakref.ref(a.data), weakref.ref(b.data)]
        return getattr(F, f"add_{self.act}")(a, b) if self.act else F.add(a, b)


def _run(act, seed=3):
    eg = alpha.engine.cpu_float32().set_seed(seed)
    net = Fork(act)
    net.init(eg)
    x = eg.tensor(np.random.default_rng(seed).standard_normal((5, 4)).astype(np.float32))
    y = net.forward(x)[0]
    gc.collect()
    alive = [r() is not None for r in net.seen]
    net.backward(eg.tensor(np.ones((5, 6), np.float32)))
    grads = [p.grad_data.copy() for p in net.params()]
    return alive, y.numpy(), grads


@pytest.mark.parametrize("act", [None, "relu", "leakyRelu", "sigmoid", "tanh", "relu6"])
def test_an_intermediate_no_backward_reads_is_freed_after_forward(act):
    alive, y, grads = _run(act)
    assert alive == [False, False], "the graph or the units kept the addends' data"
    assert np.isfinite(y).all() and all(np.isfinite(g).all() for g in grads)


@pytest.mark.parametrize("act", ["gelu", "elu", "softplus", "hard_sigmoid"])
def test_an_activation_that_needs_its_input_keeps_it(act):
    alive, _, _ = _run(act)
    assert alive == [True, True]


def test_grad_from_output_names_the_activations_whose_derivative_reads_only_y():
    assert {n for n in ACTIVATIONS if grad_from_output(n)} == {"relu", "relu6", "leakyRelu", "sigmoid", "tanh"}
    assert not grad_from_output("leakyRelu", -0.5) and not grad_from_output("nope")


@pytest.mark.parametrize("act", ["relu", "relu6", "leakyRelu", "sigmoid", "tanh"])
@pytest.mark.parametrize("engine", ["cpu_float32", "cpu_float64"])
def test_the_derivative_from_y_equals_the_one_from_x_bit_for_bit(act, engine):
    eg = getattr(alpha.engine, engine)()
    bk, t = eg.backend, np.float64 if engine.endswith("64") else np.float32
    rng = np.random.default_rng(0)
    a = (rng.standard_normal(4000) * 4).astype(t)
    a[:40] = [0.0, -0.0, 6.0, -6.0, 1e-45, -1e-45, np.nan, 3.0, 5.999999, 6.000001] * 4
    b = np.where(rng.random(4000) < 0.1, -a, 0).astype(t)          # some exact zeros of a + b
    gy = rng.standard_normal(4000).astype(t)
    p1 = 0.2 if act == "leakyRelu" else 0.0
    y = bk.add_act(act, a, b, p1)
    want = bk.add_act_bwd(act, gy, a, b, y, p1)
    got = bk.act_bwd(act, gy, y, y, p1)
    np.testing.assert_array_equal(np.asarray(got).view(np.uint8), np.asarray(want).view(np.uint8))


def test_a_child_unit_backs_up_after_the_net_forward_with_its_input_data_gone():
    """Units keep Refs of their last inputs/outputs: a child's own backward still works (Dragon-Alpha's meaning)
    when the data of its input is held by nobody."""
    eg = alpha.engine.cpu_float32().set_seed(1)
    net = nn.sequence(nn.fullconnect(4, 6), nn.relu(), nn.fullconnect(6, 3))
    net.init(eg)
    x = eg.tensor(np.random.default_rng(1).standard_normal((5, 4)).astype(np.float32))
    net.forward(x)
    gx = net[2].backward(eg.tensor(np.ones((5, 3), np.float32)))[0]
    w = net[2]._params["weight"].numpy()                                   # [in, out]
    np.testing.assert_allclose(gx.numpy(), np.ones((5, 3), np.float32) @ w.T, rtol=1e-6)


def test_the_graph_holds_no_tensor_and_deleting_one_still_cuts_it():
    eg = alpha.engine.cpu_float32().set_seed(2)
    fc1, fc2 = nn.fullconnect(4, 4), nn.fullconnect(4, 4)
    fc1.init(eg), fc2.init(eg)
    x = eg.tensor(np.ones((2, 4), np.float32)).need_grad(True)
    h = fc1(x)[0]
    y = fc2(h)[0]
    assert all(r.tensor() is h for r in y.node.inputs)
    ref = weakref.ref(h)
    del h
    gc.collect()
    assert ref() is None and y.node.inputs[0].node is not None          # the producer is still recorded
    x2 = eg.tensor(np.ones((2, 4), np.float32)).need_grad(True)
    h2 = fc1(x2)[0]
    y2 = fc2(h2)[0]
    h2.delete()                                                          # delete() cuts the graph as before
    assert y2.node.inputs[0].node is None


class Twice(nn.Module):
    """h = fc0(x) feeds fc1 and fc2 (two fresh gradients reach h), or F.add(h, h) (one array reaches h twice)."""

    def __init__(self, same):
        super().__init__()
        self.fc0, self.fc1, self.fc2, self.same = (nn.fullconnect(4, 4), nn.fullconnect(4, 4),
                                                   nn.fullconnect(4, 4), same)

    def __forward__(self, x):
        h = self.fc0(x)[0]
        return F.add(h, h) if self.same else F.add(self.fc1(h)[0], self.fc2(h)[0])


@pytest.mark.parametrize("sums", [False, True])
@pytest.mark.parametrize("same", [False, True])
def test_fan_in_gradients_are_summed_in_place_only_when_nothing_else_holds_them(same, sums):
    """Two fresh gradients reaching one tensor are summed into the first (no third array); one array delivered
    twice (add's backward gives its gradient to both inputs) is summed into a new one and left as it was. The same
    when the backend lets the sum wait for its reader (grad_sums: a GradSum, summed before a unit that does not take
    it)."""
    eg = alpha.engine.cpu_float32().set_seed(1)
    net = Twice(same).init(eg)
    b = eg.backend
    b.grad_sums = sums
    calls = []
    plain_into = b.add_into
    b.add_into = lambda a, g: calls.append(a.shape) or plain_into(a, g)
    try:
        x = eg.tensor(np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32))
        net.forward(x)
        gy = np.random.default_rng(1).standard_normal((3, 4)).astype(np.float32)
        gy_dev = b.from_host(gy)
        net.backward(eg.tensor(gy_dev))
        w1, w2 = (u._params["weight"].numpy() for u in (net.fc1, net.fc2))       # [in, out]
        gh = 2.0 * gy if same else gy @ w1.T + gy @ w2.T          # what reaches h; fc0's bias gradient sums it
        np.testing.assert_allclose(net.fc0._params["bias"].grad().numpy(), gh.sum(0), rtol=1e-5, atol=1e-6)
        np.testing.assert_array_equal(b.to_host(gy_dev), gy)          # the incoming gradient is untouched
        assert calls == ([] if same else [(3, 4)])
    finally:
        del b.add_into, b.grad_sums
        net.gc()


def test_a_unit_that_takes_grad_sums_gets_both_gradients_in_delivery_order():
    """fc0 declares it takes GradSums: it receives fc1's and fc2's gradients of h unsummed (a: the first delivered,
    owned: it may be written), and what it returns flows on as usual."""
    from alpha_py.core.autograd import GradSum
    eg = alpha.engine.cpu_float32().set_seed(1)
    net = Twice(False).init(eg)
    eg.backend.grad_sums = True
    seen, fc0 = [], net.fc0
    plain_bwd = fc0._bwd

    def bwd(eg_, ctx, gys, needs):
        g = gys[0]
        seen.append((type(g), g.owned, eg_.backend.to_host(g.a), eg_.backend.to_host(g.b)))
        return plain_bwd(eg_, ctx, (eg_.backend.add(g.a, g.b),), needs)
    fc0.takes_grad_sums, fc0._bwd = (lambda ctx: True), bwd
    try:
        x = eg.tensor(np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32))
        net.forward(x)
        gy = np.random.default_rng(1).standard_normal((3, 4)).astype(np.float32)
        net.backward(eg.tensor(gy))
        w1, w2 = (u._params["weight"].numpy() for u in (net.fc1, net.fc2))
        (kind, owned, a, b_), = seen
        assert kind is GradSum and owned
        p1, p2 = gy @ w1.T, gy @ w2.T                   # fc1's and fc2's gradients of h, in either order
        close = lambda u, v: np.allclose(u, v, rtol=1e-5, atol=1e-6)     # noqa: E731
        assert (close(a, p1) and close(b_, p2)) or (close(a, p2) and close(b_, p1))
        np.testing.assert_allclose(fc0._params["bias"].grad().numpy(), (gy @ w1.T + gy @ w2.T).sum(0), rtol=1e-5,
                                   atol=1e-6)
    finally:
        del eg.backend.grad_sums
        net.gc()


def _bits(a):
    return (np.ascontiguousarray(a, np.float32).view(np.uint32) >> 16).astype(np.uint16)    # bf16 bits, truncated


def _widen(bits):
    return (np.asarray(bits).astype(np.uint32) << 16).view(np.float32)


def _twice_step(eg, net):
    """Forward and backward of Twice(False) on fixed x, gy -> (gX, fc0's weight, h's expected gradient: fc1's part
    rounded to its bf16 bits (fc1 hands it back as a GradBits), fc2's as it is)."""
    x = eg.tensor(np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32))
    net.forward(x)
    gy = np.random.default_rng(1).standard_normal((3, 4)).astype(np.float32)
    gx = net.backward(eg.tensor(gy))[0].numpy()
    w0, w1, w2 = (u._params["weight"].numpy() for u in (net.fc0, net.fc1, net.fc2))
    return gx, w0, _widen(_bits(gy @ w1.T)) + gy @ w2.T


@pytest.mark.parametrize("takes", [False, True])
def test_a_gradient_given_as_bits_is_widened_for_a_unit_a_sum_or_a_target_that_does_not_take_it(takes):
    """fc1 hands h its gradient as a GradBits: fc0 gets the bits when it takes them, else their widening (the
    backend's widen_bits); summed with fc2's gradient it is widened first; an input's gradient comes back widened."""
    from alpha_py.core.autograd import GradBits
    eg = alpha.engine.cpu_float32().set_seed(1)
    net = Twice(False).init(eg)
    b, got = eg.backend, []
    b.widen_bits = _widen
    plain1, plain0 = net.fc1._bwd, net.fc0._bwd

    def bwd1(eg_, ctx, gys, needs):
        (g,) = plain1(eg_, ctx, gys, needs)
        return (GradBits(_bits(g)),)

    def bwd0(eg_, ctx, gys, needs):
        got.append(type(gys[0]))
        return plain0(eg_, ctx, (_plain_of(gys[0]),), needs)
    _plain_of = (lambda g: _widen(g.bits) if type(g) is GradBits else g)     # noqa: E731
    net.fc1._bwd, net.fc0._bwd = bwd1, bwd0
    net.fc0.takes_grad_bits = lambda ctx: takes
    try:
        gx, w0, gh = _twice_step(eg, net)
        assert got == [np.ndarray]                           # a sum: widened whatever fc0 takes
        np.testing.assert_allclose(net.fc0._params["bias"].grad().numpy(), gh.sum(0), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(gx, gh @ w0.T, rtol=1e-5, atol=1e-6)
    finally:
        del b.widen_bits
        net.gc()


@pytest.mark.parametrize("bits_ok", [False, True])
def test_a_fan_in_with_a_gradient_as_bits_reaches_a_unit_taking_both_unsummed(bits_ok):
    """With grad_sums_bits, fc1's GradBits and fc2's fp32 gradient of h stay one GradSum: fc0, taking sums and bits,
    gets them unsummed and unwidened; taking sums but not bits, it gets their fp32 sum (the bits widened). Either
    way the numbers are those of the widened bits plus fc2's gradient."""
    from alpha_py.core.autograd import GradBits, GradSum
    eg = alpha.engine.cpu_float32().set_seed(1)
    net = Twice(False).init(eg)
    b, got = eg.backend, []
    b.widen_bits, b.grad_sums, b.grad_sums_bits = _widen, True, True
    plain1, plain0 = net.fc1._bwd, net.fc0._bwd
    net.fc1._bwd = lambda eg_, ctx, gys, needs: tuple(GradBits(_bits(g)) for g in plain1(eg_, ctx, gys, needs))
    _plain_of = (lambda g: _widen(g.bits) if type(g) is GradBits else g)     # noqa: E731

    def bwd0(eg_, ctx, gys, needs):
        g = gys[0]
        if type(g) is GradSum:
            got.append(sorted(type(v).__name__ for v in (g.a, g.b)))
            g = _plain_of(g.a) + _plain_of(g.b)
        else:
            got.append(type(g).__name__)
        return plain0(eg_, ctx, (g,), needs)
    net.fc0._bwd = bwd0
    net.fc0.takes_grad_sums, net.fc0.takes_grad_bits = (lambda ctx: True), (lambda ctx: bits_ok)
    try:
        gx, w0, gh = _twice_step(eg, net)
        assert got == ([["GradBits", "ndarray"]] if bits_ok else ["ndarray"])
        np.testing.assert_allclose(net.fc0._params["bias"].grad().numpy(), gh.sum(0), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(gx, gh @ w0.T, rtol=1e-5, atol=1e-6)
    finally:
        del b.widen_bits, b.grad_sums, b.grad_sums_bits
        net.gc()


class Chain(nn.Module):
    def __init__(self, fc0, fc1):
        super().__init__()
        self.fc0, self.fc1 = fc0, fc1

    def __forward__(self, x):
        return self.fc1(self.fc0(x)[0])


def test_a_single_gradient_as_bits_reaches_the_unit_that_takes_it_and_a_target_gets_it_widened():
    from alpha_py.core.autograd import GradBits
    eg = alpha.engine.cpu_float32().set_seed(1)
    fc0, fc1 = nn.fullconnect(4, 4).init(eg), nn.fullconnect(4, 4).init(eg)
    eg.backend.widen_bits = _widen
    seen = []
    plain1, plain0 = fc1._bwd, fc0._bwd
    fc1._bwd = lambda eg_, ctx, gys, needs: tuple(GradBits(_bits(g)) for g in plain1(eg_, ctx, gys, needs))

    def bwd0(eg_, ctx, gys, needs):
        seen.append(type(gys[0]))
        return plain0(eg_, ctx, (_widen(gys[0].bits),), needs)
    fc0._bwd, fc0.takes_grad_bits = bwd0, (lambda ctx: True)
    try:
        x = eg.tensor(np.ones((2, 4), np.float32))
        h = fc0.forward(x)[0]
        fc1.forward(h)
        gy = np.random.default_rng(1).standard_normal((2, 4)).astype(np.float32)
        gh = fc1.backward(eg.tensor(gy))[0]             # h is this backward's target: widened
        assert seen == [] and gh.numpy().dtype == np.float32
        np.testing.assert_array_equal(gh.numpy(), _widen(_bits(gy @ fc1._params["weight"].numpy().T)))
        net = Chain(fc0, fc1).init(eg)
        net.forward(x)
        net.backward(eg.tensor(gy))                     # through h: fc0 takes the bits as they are
        assert seen == [GradBits]
    finally:
        del eg.backend.widen_bits


class _Source:
    """A LazyData source that counts how often it computed its array."""

    def __init__(self, value):
        self.value, self.calls = value, 0

    def fp32(self):
        self.calls += 1
        return self.value.copy()


def test_lazy_data_is_computed_once_when_read_and_not_for_shape_dtype_delete_or_grads():
    from alpha_py.core.tensor import LazyData, settle_lazy
    eg = alpha.engine.cpu_float32()
    v = np.arange(6, dtype=np.float32).reshape(2, 3)
    src = _Source(v)
    t = LazyData(src, v.shape, v.dtype).wrap(eg, None, 0)
    assert t.shape == (2, 3) and t.dataType() == "float32" and t.grad() is None and not t.is_deleted()
    t.zero_grad()
    assert src.calls == 0 and "deleted" not in repr(t)
    np.testing.assert_array_equal(t.numpy(), v)
    np.testing.assert_array_equal(t.data, v)
    assert src.calls == 1 and t._lazy is None
    gone = LazyData(_Source(v), v.shape, v.dtype).wrap(eg, None, 0)
    gone.delete()
    assert gone.is_deleted() and gone._lazy is None and repr(gone) == "Tensor(deleted)"
    held = [LazyData(_Source(v * k), v.shape, v.dtype).wrap(eg, None, 0) for k in (2, 3)]
    settle_lazy()                                  # what an optimizer step or a state load calls first
    assert all(h._data is not None and h._lazy is None for h in held)
    np.testing.assert_array_equal(held[1].numpy(), v * 3)


class _MakesLazy(nn.Unit):
    """Identity whose output is LazyData (what a bf16 BatchNorm on Hopper returns), computed from its input."""

    def _fwd(self, eg, x):
        from alpha_py.core.tensor import LazyData
        self.src = _Source(x * 2)
        return (LazyData(self.src, x.shape, x.dtype),), None

    def _bwd(self, eg, ctx, gys, needs):
        return (eg.backend.mul(gys[0], 2.0),)


class _ReadsLazy(nn.Unit):
    """Records what its _fwd received: the LazyData itself when reads_lazy, else the computed array."""

    def __init__(self, reads_lazy):
        super().__init__()
        self.reads_lazy, self.got = reads_lazy, None

    def _reads_lazy(self, eg):
        return self.reads_lazy

    def _fwd(self, eg, x):
        self.got = x
        return (x.source.fp32() if hasattr(x, "source") else x,), None

    def _bwd(self, eg, ctx, gys, needs):
        return (gys[0],)


@pytest.mark.parametrize("reads_lazy", [False, True])
def test_a_lazy_output_reaches_a_unit_that_reads_it_as_is_and_is_computed_for_the_others(reads_lazy):
    eg = alpha.engine.cpu_float32()
    make, read = _MakesLazy().init(eg), _ReadsLazy(reads_lazy).init(eg)
    x = eg.tensor(np.ones((2, 3), np.float32)).need_grad(True)
    y = make.forward(x)[0]
    assert y._data is None and y.shape == (2, 3) and make.src.calls == 0
    z = read.forward(y)[0]
    assert (type(read.got).__name__ == "LazyData") == reads_lazy
    assert (y._data is None) == reads_lazy and make.src.calls == 1
    np.testing.assert_array_equal(z.numpy(), np.full((2, 3), 2.0, np.float32))
    read.backward(eg.tensor(np.ones((2, 3), np.float32)))      # a lazy tensor's gradient flows like any other


def test_a_unit_that_computes_a_lazy_input_itself_leaves_the_result_with_its_tensor():
    """LazyData.value() (a unit that reads LazyData but cannot take its source): the fp32 data is computed once and
    kept by the tensor, so the tensor's own read and a second such reader do not compute it again."""
    eg = alpha.engine.cpu_float32()
    make = _MakesLazy().init(eg)
    y = make.forward(eg.tensor(np.ones((2, 3), np.float32)))[0]
    lz = y._lazy
    first = lz.value()
    assert make.src.calls == 1 and y._data is first and y._lazy is None
    assert lz.value() is first and make.src.calls == 1
    np.testing.assert_array_equal(y.numpy(), np.full((2, 3), 2.0, np.float32))
    assert make.src.calls == 1
