"""bf16 twins (GPU): the bf16 bits of an activation made once by the unit that produced it — add_<act> writes them
beside y, BatchNorm(+act) registers a Recast that rebuilds them from its kept input bits — and shared by the
convolutions reading it and by relu / leakyRelu's backward; with and without them a training step computes the same
bits, and keeps less. Skipped without a GPU."""
import weakref

import numpy as np
import pytest

from alpha_py import F, alpha, nn
from alpha_py.errors import ArgumentError
from cuda_parity import keep_allocator, require_gpu, round_bf16  # noqa: F401 (keep_allocator: autouse)

pytestmark = pytest.mark.gpu
_EG = {}


def engine(precision="bf16", seed=0):
    require_gpu()
    if precision not in _EG:
        _EG[precision] = alpha.engine.cuda_float32(0, precision=precision, auto_graph=False, conv_autotune=False)
    return _EG[precision].set_seed(seed)


def _rne_bits(x):
    return (round_bf16(x).view(np.uint32) >> 16).astype(np.uint16)


@pytest.mark.parametrize("act,p1", [("relu", 0.0), ("leakyRelu", 0.1), ("leakyRelu", 0.0)])
def test_add_act_twin_writes_y_and_its_bits_and_the_sign_gives_the_derivative(act, p1):
    b = engine().backend
    rng = np.random.default_rng(5)
    a = rng.standard_normal((4, 5, 16)).astype(np.float32)
    c = rng.standard_normal((4, 5, 16)).astype(np.float32)
    special = np.array([0.0, -0.0, 1e-45, -1e-45, 3e-39, 1e-40, np.inf, -np.inf, np.nan, 5.0, -5.0, 2.0 ** -133,
                        2.0 ** -134, -(2.0 ** -134), 1.0, -1.0], np.float32)
    a[0, 0], c[0, 0] = special, 0.0
    ga, gc = b.from_host(a), b.from_host(c)
    y, yb = b.add_act_twin(act, ga, gc, p1)
    want = b.to_host(b.add_act(act, ga, gc, p1))
    np.testing.assert_array_equal(b.to_host(y).view(np.uint32), want.view(np.uint32))
    bits, rne = b.to_host(yb), _rne_bits(np.where(np.isnan(want), 0.0, want).astype(np.float32))
    finite = ~np.isnan(want)
    tiny_pos = finite & (want > 0) & (rne == 0)            # fp32 subnormals below 2^-134 round to +0 ...
    assert (bits[tiny_pos] == 1).all()                     # ... and become the smallest subnormal instead
    np.testing.assert_array_equal(bits[finite & ~tiny_pos], rne[finite & ~tiny_pos])
    pos = finite & (want > 0)
    assert pos.sum() >= 5 and ((bits[pos].astype(np.int64) - 1) < 0x7F80).all()    # every y > 0: positive bits
    assert ((bits[~finite] & 0x7F80) == 0x7F80).all() and ((bits[~finite] & 0x7F) != 0).all()     # NaN stays NaN
    gy = rng.standard_normal(a.shape).astype(np.float32)
    got = b.to_host(b.act_bwd_sign(b.from_host(gy), yb, p1))
    ref = b.to_host(b.act_bwd(act, b.from_host(gy), b.from_host(want), b.from_host(want), p1))
    np.testing.assert_array_equal(got, ref)


def test_act_bwd_sign_refuses_bits_of_another_shape():
    b = engine().backend
    import cupy
    with pytest.raises(ArgumentError, match="act_bwd_sign: bits uint16 .4, 8. are not"):
        b.act_bwd_sign(b.from_host(np.ones((4, 16), np.float32)), cupy.zeros((4, 8), cupy.uint16), 0.0)
    with pytest.raises(ArgumentError, match="add_act_twin: addends"):
        b.add_act_twin("relu", b.from_host(np.ones((2, 8), np.float32)), b.from_host(np.ones((1, 8), np.float32)))


@pytest.mark.parametrize("act", [None, "relu", "leakyRelu", "gelu"])
@pytest.mark.parametrize("shape", [(1, 8), (3, 5, 7, 16), (64, 8, 8, 64)])
def test_batchnorm_twin_rebuilds_the_cast_of_its_output_bit_for_bit(act, shape):
    b = engine().backend
    rng = np.random.default_rng(shape[-1])
    c = shape[-1]
    x = b.from_host((rng.standard_normal(shape) * 2 + 0.5).astype(np.float32))
    g, be = (b.from_host(rng.standard_normal(c).astype(np.float32)) for _ in range(2))
    keep = []
    y, mean, _, inv = b.bn_act_fwd(act, x, g, be, 1e-5, p1=0.1, keep=keep)
    y = y.reshape(shape)
    b.bn_twin(y, act, keep[0], mean, inv, g, be, 0.1)
    now, kept = b.twin_of(y)
    want = b.to_host(b.to_bf16(y))
    np.testing.assert_array_equal(b.to_host(now), want)
    assert now.shape == shape and type(kept).__name__ == "Recast"
    np.testing.assert_array_equal(b.to_host(b.twin_bits(kept)), want)           # rebuilt again: the same bits
    assert b.twin_of(y)[0] is not now                                           # built per call, not held


def test_twins_need_8_channels_bf16_and_the_same_array():
    b = engine().backend
    import cupy
    y = cupy.ones((4, 12), cupy.float32)
    assert not b.set_twin(y, cupy.zeros((4, 12), cupy.uint16))                 # 12 channels: no 16-byte chunks
    y = cupy.ones((4, 16), cupy.float32)
    assert b.set_twin(y, cupy.zeros((4, 16), cupy.uint16))
    assert b.twin_of(y.reshape(4, 16)) is None                                 # another array object (a view)
    assert b.twin_of(y)[0].shape == (4, 16)
    b.copy_into(y, cupy.zeros_like(y))                                          # written in place: forgotten
    assert b.twin_of(y) is None
    assert b.set_twin(y, cupy.zeros((4, 16), cupy.uint16))
    n = len(b._twins)
    del y
    assert len(b._twins) == n - 1                                               # gone with the array
    b32 = engine("fp32").backend
    assert not b32.set_twin(cupy.ones((4, 16), cupy.float32), cupy.zeros((4, 16), cupy.uint16))


class Blocks(nn.Module):
    """Two basic blocks (identity, then stride 2 with a 1x1 conv shortcut reading the same input) of width 16/32;
    `seen`: weak references to the first block's fp32 output and BN1's output."""

    def __init__(self):
        super().__init__()
        self.a1, self.a2 = nn.conv3D(False, 16, 16, 3, 1, 1), nn.conv3D(False, 16, 16, 3, 1, 1)
        self.abn1, self.abn2 = nn.batchNorm_leakyRelu(16), nn.batchNorm(16)
        self.b1, self.b2 = nn.conv3D(False, 16, 32, 3, 2, 1), nn.conv3D(False, 32, 32, 3, 1, 1)
        self.bbn1, self.bbn2 = nn.batchNorm_relu(32), nn.batchNorm(32)
        self.sc, self.scbn = nn.conv3D(False, 16, 32, 1, 2, 0), nn.batchNorm(32)
        self.seen = []

    def __forward__(self, x):
        y1 = self.abn1(self.a1(x)[0])[0]
        out1 = F.add_leakyRelu(self.abn2(self.a2(y1)[0])[0], x)[0]
        res = self.bbn2(self.b2(self.bbn1(self.b1(out1)[0])[0])[0])[0]
        self.seen = [weakref.ref(out1.data), weakref.ref(y1.data)]
        return F.add_relu(res, self.scbn(self.sc(out1)[0])[0])


def lazy_engine(seed):
    """The bf16 engine where BatchNorm outputs can stay lazy (the wgmma kernels), else skip."""
    eg = engine("bf16", seed)
    if not eg.backend.wgmma_ok():
        pytest.skip("lazy BatchNorm outputs need the wgmma kernels (compute capability 9.0)")
    return eg


def _run(twins):
    eg = engine("bf16", 11)
    eg.backend.bf16_twins = twins
    eg.backend.bf16_residual_bits = False       # (the block outputs in fp32, as with twins off)
    eg.backend.bf16_dgrad_bits = False          # (input gradients in fp32, as with twins off: test_cuda_dgrad_bits)
    try:
        rng = np.random.default_rng(2)
        x = eg.tensor(rng.standard_normal((6, 9, 9, 16)).astype(np.float32))
        gy = eg.tensor(rng.standard_normal((6, 5, 5, 32)).astype(np.float32))
        net = Blocks()
        net.init(eg)
        y = net.forward(x)[0]
        alive = [r() is not None for r in net.seen]
        net.backward(gy)
        grads = [eg.backend.to_host(p.grad_data) for p in net.params() if p.grad_data is not None]
        out = y.numpy()
        net.gc()
        return alive, out, grads
    finally:
        del eg.backend.bf16_twins, eg.backend.bf16_residual_bits, eg.backend.bf16_dgrad_bits


def test_two_residual_blocks_compute_the_same_bits_with_twins_and_keep_no_fp32_block_output():
    if not engine().backend.wgmma_ok():
        pytest.skip("the convolutions read a twin's bits on the wgmma kernels (compute capability 9.0)")
    alive0, y0, g0 = _run(False)
    alive1, y1, g1 = _run(True)
    assert alive0 == [True, False]          # add_leakyRelu keeps its fp32 output; BN1's output goes after conv2
    assert alive1 == [False, False]         # with twins it keeps the output's bf16 bits instead
    np.testing.assert_array_equal(y1.view(np.uint32), y0.view(np.uint32))
    assert len(g1) == len(g0) == 15
    for a, e in zip(g1, g0):
        np.testing.assert_array_equal(a.view(np.uint32), e.view(np.uint32))


def test_a_batchnorm_output_is_computed_only_when_read():
    """On Hopper a bf16 training BatchNorm output stays unwritten (LazyData) while only convolutions read it; read,
    it is bit for bit the fp32 output BatchNorm writes with twins off."""
    eg = lazy_engine(4)
    b = eg.backend
    bn, conv = nn.batchNorm_leakyRelu(16).init(eg), nn.conv3D(False, 16, 16, 3, 1, 1).init(eg)
    x = eg.tensor(np.random.default_rng(1).standard_normal((4, 6, 6, 16)).astype(np.float32))
    y = bn.forward(x)[0]
    assert y._data is None and y.shape == (4, 6, 6, 16) and y.dataType() == "float32" and not y.is_deleted()
    z = conv.forward(y)[0]
    assert y._data is None                                  # the convolution read the Recast's bits
    b.bf16_twins = False
    try:
        y0 = bn.forward(x)[0]
        z0 = conv.forward(y0)[0]
    finally:
        del b.bf16_twins
    assert y0._data is not None
    np.testing.assert_array_equal(y.numpy().view(np.uint32), y0.numpy().view(np.uint32))   # computed now
    want = z0.numpy() if z._data is not None else round_bf16(z0.numpy())    # z stored as bits (test_cuda_conv_bits)
    np.testing.assert_array_equal(z.numpy().view(np.uint32), want.view(np.uint32))
    assert b.twin_of(y.data)[1] is not None                # the computed data keeps its twin


@pytest.mark.parametrize("first_act", [None, "leakyRelu"])
def test_add_act_reads_a_lazy_batchnorm_addend_from_its_bits(first_act):
    """add_act_twin on lazy BatchNorm outputs (a plain one read from its bits in the add's kernel, one with an
    activation computed first) equals add_act on the fp32 outputs, bit for bit."""
    b = engine().backend
    if not b.wgmma_ok():
        pytest.skip("lazy BatchNorm outputs need the wgmma kernels (compute capability 9.0)")
    rng = np.random.default_rng(8)
    shape, c = (3, 5, 5, 24), 24
    lazies = []
    for act in (first_act, None):
        x = b.from_host((rng.standard_normal(shape) * 2).astype(np.float32))
        g, be = (b.from_host(rng.standard_normal(c).astype(np.float32)) for _ in range(2))
        keep = []
        _, mean, _, inv = b.bn_act_fwd(act, x, g, be, 1e-5, p1=0.1, keep=keep, write_y=False)
        lazies.append(b.bn_lazy(shape, act, keep[0], mean, inv, g, be, 0.1))
    dense = [lz.source.fp32() for lz in lazies]
    for a1, a2 in ((lazies[0], lazies[1]), (dense[0], lazies[1]), (lazies[1], dense[0])):
        y, yb = b.add_act_twin("leakyRelu", a1, a2, 0.2)
        want = b.add_act("leakyRelu", dense[0] if a1 is not lazies[1] else dense[1],
                         dense[1] if a2 is lazies[1] else dense[0], 0.2)
        np.testing.assert_array_equal(b.to_host(y).view(np.uint32), b.to_host(want).view(np.uint32))


def test_a_lazy_output_read_after_an_optimizer_step_has_the_forward_values():
    """The optimizer computes the lazy outputs still held before it moves gamma and beta (core/tensor.py
    settle_lazy), so reading one afterwards gives what the forward produced."""
    eg = lazy_engine(6)
    b = eg.backend
    bn = nn.batchNorm_leakyRelu(16).init(eg)
    x = eg.tensor(np.random.default_rng(3).standard_normal((2, 4, 4, 16)).astype(np.float32))
    b.bf16_twins = False
    try:
        want = bn.forward(x)[0].numpy()
    finally:
        del b.bf16_twins
    y = bn.forward(x)[0]
    assert y._data is None
    bn.backward(eg.tensor(np.ones((2, 4, 4, 16), np.float32)))
    alpha.optim.SGD(bn.params(), 0.5).update()
    np.testing.assert_array_equal(y.numpy().view(np.uint32), want.view(np.uint32))


def test_the_weight_gradient_leaves_the_gradients_cast_for_the_data_gradient():
    """bf16 bwd-filter on wgmma leaves gY's straight bf16 cast (a twin of gY: the cast it reads untransposed, or
    written beside the transpose), which the bwd-data then reads instead of casting again; the bits are those of
    cast_bf16, and an in-place add drops them."""
    b = engine().backend
    if not b.wgmma_ok():
        pytest.skip("the wgmma weight gradient (compute capability 9.0)")
    rng = np.random.default_rng(9)
    x = b.from_host(rng.standard_normal((2, 6, 6, 16)).astype(np.float32))
    gy = b.from_host(rng.standard_normal((2, 6, 6, 24)).astype(np.float32))
    b.tc_bwd_filter(x, gy, (24, 3, 3, 16), (1, 1), (1, 1), 128, 64, True, True)
    tw = b.twin_of(gy)
    assert tw is not None and tw[0].dtype == np.uint16 and tw[0].shape == gy.shape
    b.bf16_twins = False
    try:
        want = b.to_host(b.to_bf16(gy))
    finally:
        del b.bf16_twins
    np.testing.assert_array_equal(b.to_host(tw[0]), want)
    assert b.to_bf16(gy) is tw[0]
    b.add_into(gy, gy)
    assert b.twin_of(gy) is None


def test_conv_fwd_refuses_bits_that_are_not_xs():
    b = engine().backend
    if not b.wgmma_ok():
        pytest.skip("conv_fwd(x_bf16=) runs on the wgmma kernels (compute capability 9.0)")
    import cupy
    x = b.from_host(np.ones((2, 5, 5, 16), np.float32))
    w = b.from_host(np.ones((8, 3, 3, 16), np.float32))
    for bad in (cupy.zeros((2, 5, 5, 8), cupy.uint16), cupy.zeros((2, 5, 5, 16), cupy.float32)):
        with pytest.raises(ArgumentError, match=r"conv_fwd: x_bf16 .* is not the bf16 bits of x \(2, 5, 5, 16\)"):
            b.conv_fwd(x, w, (1, 1), (1, 1), x_bf16=bad)


@pytest.mark.parametrize("reader", ["batchNorm", "add_relu"])
def test_a_lazy_output_computed_for_a_reader_stays_with_its_tensor(reader):
    """A BatchNorm reading a lazy BatchNorm output, or add_relu reading a lazy BatchNorm+act addend, computes its fp32
    once and the tensor keeps it (LazyData.value): the same values as with twins off, and no second computation."""
    eg = lazy_engine(12)
    b = eg.backend
    bn1 = nn.batchNorm_leakyRelu(16).init(eg)
    x = eg.tensor(np.random.default_rng(5).standard_normal((4, 5, 5, 16)).astype(np.float32))
    other = eg.tensor(np.random.default_rng(6).standard_normal((4, 5, 5, 16)).astype(np.float32))
    bn2 = nn.batchNorm(16).init(eg)

    def run():
        y1 = bn1.forward(x)[0]
        out = bn2.forward(y1)[0] if reader == "batchNorm" else F.add_relu(y1, other)[0]
        return y1, out.numpy()
    b.bf16_residual_bits = False                 # (add_relu's output in fp32, as with twins off)
    try:
        y1, got = run()
    finally:
        del b.bf16_residual_bits
    assert y1._data is not None and y1._lazy is None         # computed once, kept by its tensor
    b.bf16_twins = False
    try:
        want = run()[1]
    finally:
        del b.bf16_twins
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))


@pytest.mark.parametrize("aligned", [True, False])
def test_a_residual_stored_as_its_bits_is_read_from_them(aligned):
    """add_act_twin(fp32=False) writes only the bits (those it writes beside y), as a LazyData reading as their exact
    widening; the next add taking it as an addend reads the bits (mode 3) and gives bit for bit what it gives on the
    widened fp32. Arrays one element off 16-byte alignment take the kernel's scalar body."""
    import cupy
    from alpha_py.core.tensor import LazyData
    b = engine().backend
    rng = np.random.default_rng(21)
    shape = (3, 5, 7, 16)

    def dev(x, dtype=np.float32):
        if aligned:
            return cupy.asarray(x, dtype)
        buf = cupy.zeros(x.size + 1, dtype)
        buf[1:] = cupy.asarray(x.ravel(), dtype)
        return buf[1:].reshape(x.shape)
    a, c, d = (dev(rng.standard_normal(shape)) for _ in range(3))
    y, yb = b.add_act_twin("relu", a, c)
    lz, lb = b.add_act_twin("relu", a, c, fp32=False)
    assert type(lz) is LazyData and b.stored_bits(lz) is lb and lz.shape == shape
    np.testing.assert_array_equal(b.to_host(lb), b.to_host(yb))
    bits = dev(b.to_host(lb), np.uint16)
    wide = (b.to_host(lb).astype(np.uint32) << 16).view(np.float32)
    np.testing.assert_array_equal(b.to_host(b.stored(bits).value()).view(np.uint32), wide.view(np.uint32))
    for act, p1 in (("relu", 0.0), ("leakyRelu", 0.1)):
        got, got_b = b.add_act_twin(act, d, b.stored(bits), p1)           # the addend read from its bits
        want, want_b = b.add_act_twin(act, d, dev(wide), p1)               # ... and from their fp32 widening
        np.testing.assert_array_equal(b.to_host(got).view(np.uint32), b.to_host(want).view(np.uint32))
        np.testing.assert_array_equal(b.to_host(got_b), b.to_host(want_b))


class ResChain(nn.Module):
    """Two identity residual blocks, x -> add_relu(bn(conv(x)), x) twice, of width 16; `out1`: the first's output."""

    def __init__(self):
        super().__init__()
        self.c1, self.c2 = nn.conv3D(False, 16, 16, 3, 1, 1), nn.conv3D(False, 16, 16, 3, 1, 1)
        self.bn1, self.bn2 = nn.batchNorm(16), nn.batchNorm(16)
        self.out1 = None

    def __forward__(self, x):
        self.out1 = F.add_relu(self.bn1(self.c1(x)[0])[0], x)[0]
        return F.add_relu(self.bn2(self.c2(self.out1)[0])[0], self.out1)


def _residual_chain(bits):
    """ResChain in bf16 training with the residual stored as bits or in fp32 -> (whether the first block's output
    was written in fp32 after forward and backward, y, the parameters' gradients)."""
    eg = lazy_engine(13)
    eg.backend.bf16_residual_bits = bits
    try:
        rng = np.random.default_rng(4)
        net = ResChain()
        net.init(eg)
        x = eg.tensor(rng.standard_normal((4, 6, 6, 16)).astype(np.float32))
        y = net.forward(x)[0]
        net.backward(eg.tensor(rng.standard_normal(y.shape).astype(np.float32)))
        written = net.out1._data is not None
        grads = [eg.backend.to_host(p.grad_data) for p in net.params() if p.grad_data is not None]
        out = y.numpy()
        net.out1 = None
        net.gc()
        return written, out, grads
    finally:
        del eg.backend.bf16_residual_bits


def test_residual_blocks_keep_the_stream_as_bits_and_train_as_with_it_in_fp32():
    """With the residual stored as bits, the first block's output is never written in fp32 (the second block's
    convolution and add read its bits); outputs and gradients agree with the fp32 stream to bf16's resolution."""
    w0, y0, g0 = _residual_chain(False)
    w1, y1, g1 = _residual_chain(True)
    assert w0 and not w1
    np.testing.assert_allclose(y1, y0, rtol=2 ** -7, atol=2 ** -7)
    assert len(g1) == len(g0) >= 4
    for a, e in zip(g1, g0):
        assert np.abs(a - e).max() <= 0.05 * np.abs(e).max() + 1e-6
