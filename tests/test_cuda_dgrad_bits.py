"""A bf16 training convolution's input gradient handed back as bf16 bits (GPU): the gX bits equal the fp32 gX rounded
to nearest even, BatchNorm's and act_bwd_sign's backward read gradient bits exactly as their widening, and blocks
train with the bits bf16-close to fp32 gradients, nothing widened (test_cuda_bf16_twin.Blocks); skipped without a
GPU."""
import numpy as np
import pytest

from alpha_py import F, alpha, nn
from alpha_py.errors import ArgumentError
from cuda_parity import keep_allocator, round_bf16  # noqa: F401 (keep_allocator: autouse)
from test_cuda_bf16_storage import engine as _engine

pytestmark = pytest.mark.gpu


def engine(seed=0):
    """The bf16 engine, op by op, untimed algorithm choice (skips without a GPU)."""
    return _engine("bf16", seed)


def _bits_of(a):
    return (np.ascontiguousarray(round_bf16(a), np.float32).view(np.uint32) >> 16).astype(np.uint16)


def _widen(bits):
    return (np.asarray(bits).astype(np.uint32) << 16).view(np.float32)


def _same(a, e):
    np.testing.assert_array_equal(np.ascontiguousarray(a).view(np.uint8), np.ascontiguousarray(e).view(np.uint8))


@pytest.mark.parametrize("vec", [True, False])
@pytest.mark.parametrize("act", [None, "relu", "leakyRelu", "gelu"])
@pytest.mark.parametrize("shape", [(3, 5, 5, 16), (7, 12), (1, 3, 3, 8)])
def test_batchnorm_backward_reads_gradient_bits_as_their_widening(act, shape, vec):
    b = engine().backend
    rng = np.random.default_rng(shape[-1] + len(shape))
    c = shape[-1]
    x = (rng.standard_normal(shape) * 2 + 0.5).astype(np.float32)
    g, be = (b.from_host(rng.standard_normal(c).astype(np.float32)) for _ in range(2))
    keep = []
    _, mean, _, inv = b.bn_act_fwd(act, b.from_host(x), g, be, 1e-5, p1=0.1, keep=keep)
    gbits = _bits_of(rng.standard_normal(shape).astype(np.float32))
    b.bn_partial_vec = vec
    try:
        for xb in (keep[0], b.from_host(round_bf16(x).reshape(-1, c))):          # x as bits (xmode 2) and fp32
            for gx_bits in (False, True):
                got = b.bn_act_bwd(act, b.from_host(gbits, np.uint16), xb, mean, inv, g, be, True, 0.1,
                                   gx_bits=gx_bits)
                want = b.bn_act_bwd(act, b.from_host(_widen(gbits)), xb, mean, inv, g, be, True, 0.1,
                                    gx_bits=gx_bits)
                assert got[0].dtype == (np.uint16 if gx_bits else np.float32)
                for a, e in zip(got, want):
                    _same(b.to_host(a), b.to_host(e))
    finally:
        del b.bn_partial_vec


@pytest.mark.parametrize("n", [(4, 6, 6, 16), (3, 5)])
def test_add_grads_reads_either_gradient_as_bits(n):
    b = engine().backend
    rng = np.random.default_rng(9)
    g1, g2 = (_bits_of(rng.standard_normal(n).astype(np.float32)) for _ in range(2))
    want = _widen(g1) + _widen(g2)
    for k1 in (False, True):
        for k2 in (False, True):
            a1 = b.from_host(g1, np.uint16) if k1 else b.from_host(_widen(g1))
            a2 = b.from_host(g2, np.uint16) if k2 else b.from_host(_widen(g2))
            _same(b.to_host(b.add_grads(a1, a2)), want)
            if not k1:
                assert b.add_grads(a1, a2, a1) is a1
                _same(b.to_host(a1), want)
    with pytest.raises(ArgumentError, match="add_grads: gradients"):
        b.add_grads(b.from_host(g1, np.uint16), b.from_host(np.zeros((2, 2), np.float32)))


@pytest.mark.parametrize("slope", [0.0, 0.1])
@pytest.mark.parametrize("n", [(4, 6, 6, 16), (3, 5)])
def test_act_bwd_sign_reads_either_gradient_as_bits(slope, n):
    b = engine().backend
    rng = np.random.default_rng(3)
    y = rng.standard_normal(n).astype(np.float32)
    yb = b.from_host(_bits_of(y), np.uint16)
    g1, g2 = (_bits_of(rng.standard_normal(n).astype(np.float32)) for _ in range(2))
    want = b.to_host(b.act_bwd_sign(b.from_host(_widen(g1)), yb, slope, b.from_host(_widen(g2))))
    for k1 in (False, True):
        for k2 in (False, True):
            a1 = b.from_host(g1, np.uint16) if k1 else b.from_host(_widen(g1))
            a2 = b.from_host(g2, np.uint16) if k2 else b.from_host(_widen(g2))
            _same(b.to_host(b.act_bwd_sign(a1, yb, slope, a2)), want)
    alone = b.to_host(b.act_bwd_sign(b.from_host(g1, np.uint16), yb, slope))
    _same(alone, b.to_host(b.act_bwd_sign(b.from_host(_widen(g1)), yb, slope)))
    bits = b.act_bwd_sign(b.from_host(g1, np.uint16), yb, slope, b.from_host(g2, np.uint16), gx_bits=True)
    assert bits.dtype == np.uint16
    np.testing.assert_array_equal(b.to_host(bits), _bits_of(want))          # gx's bits: the fp32 gx rounded
    with pytest.raises(ArgumentError, match="act_bwd_sign: out"):
        b.act_bwd_sign(b.from_host(g1, np.uint16), yb, slope, out=b.from_host(g1, np.uint16))
    with pytest.raises(ArgumentError, match="gx_bits writes a new array"):
        b.act_bwd_sign(b.from_host(_widen(g1)), yb, slope, out=b.from_host(_widen(g1)), gx_bits=True)


def _conv_case(seed, n, hw, ic, oc):
    rng = np.random.default_rng(seed)
    gy = rng.standard_normal((n, hw, hw, oc)).astype(np.float32)
    w = (rng.standard_normal((oc, 3, 3, ic)) * 0.2).astype(np.float32)
    return gy, w


@pytest.mark.parametrize("tma", [False, True])
@pytest.mark.parametrize("case", [(1, 8, 16, 64), (2, 16, 64, 64), (3, 8, 64, 128)])
def test_dgrad_bits_are_the_fp32_gradient_rounded(case, tma):
    """The same kernel and tile with gX written as bits and in fp32: the bits are the fp32 gX rounded to nearest
    even, element for element."""
    b = engine().backend
    n, hw, ic, oc = case
    gy, w = _conv_case(sum(case), n, hw, ic, oc)
    gyd, wd = b.from_host(gy), b.from_host(w)
    x_shape = (n, hw, hw, ic)
    if tma and not b.tma_fwd_ok((n, hw, hw, oc), (ic, 3, 3, oc), (hw, hw), (1, 1)):
        pytest.skip("the TMA kernels do not take this shape on this GPU")
    if not b.wgmma_ok():
        pytest.skip("gX as bits needs the wgmma kernels (compute capability 9.0)")
    for bm, bn in ((128, 64), (128, 128)) if not tma else ((128, 64), (256, 128)):
        f32 = b.tc_bwd_data(gyd, wd, x_shape, (1, 1), bm, bn, True, True, (1, 1), tma=tma)
        bits = b.tc_bwd_data(gyd, wd, x_shape, (1, 1), bm, bn, True, True, (1, 1), tma=tma, gx_bits=True)
        assert f32.dtype == np.float32 and bits.dtype == np.uint16 and bits.shape == x_shape
        np.testing.assert_array_equal(b.to_host(bits), _bits_of(b.to_host(f32)))


def test_conv_bwd_data_gives_bits_only_where_a_stride_1_kernel_writes_them():
    b = engine().backend
    if not b.wgmma_ok():
        pytest.skip("gX as bits needs the wgmma kernels (compute capability 9.0)")
    gy, w = _conv_case(5, 2, 8, 16, 32)
    got = b.conv_bwd_data(b.from_host(gy), b.from_host(w), (2, 8, 8, 16), (1, 1), (1, 1), gx_bits=True)
    ref = alpha.engine.cpu_float32().backend.conv_bwd_data(gy, w, (2, 8, 8, 16), (1, 1), (1, 1))
    assert got.dtype == np.uint16
    bound = 2.0 ** -7 * float(np.abs(ref).max()) + 2.0 ** -8 * 9 * 32 * float(np.abs(w).max() * np.abs(gy).max())
    np.testing.assert_allclose(_widen(b.to_host(got)), ref, rtol=0, atol=bound)
    gy2 = b.from_host(np.ones((2, 4, 4, 32), np.float32))              # stride 2: the phase kernels write fp32
    assert b.conv_bwd_data(gy2, b.from_host(w), (2, 8, 8, 16), (2, 2), (1, 1), gx_bits=True).dtype == np.float32


def _close(on, off, tol=2.0 ** -5):
    """Each array of `on` within tol x its fp32-gradient counterpart's largest magnitude (gradients rounded to bf16
    once more on their way back); the first (the forward output) bit for bit."""
    assert len(on) == len(off) > 10
    _same(on[0], off[0])
    for i, (a, e) in enumerate(zip(on, off)):
        a, e = np.asarray(a, np.float32), np.asarray(e, np.float32)
        np.testing.assert_allclose(a, e, rtol=0, atol=tol * float(np.abs(e).max()) + 1e-7, err_msg=f"array {i}")


def _one_step(eg, net, x_shape, y_shape, on):
    """Forward, backward of a fixed gradient with bf16_dgrad_bits = on -> [y, gX, every parameter gradient]."""
    b = eg.backend
    b.bf16_dgrad_bits = on
    try:
        rng = np.random.default_rng(4)
        x = eg.tensor(rng.standard_normal(x_shape).astype(np.float32))
        gy = eg.tensor(rng.standard_normal(y_shape).astype(np.float32))
        out = [net.forward(x)[0].numpy(), net.backward(gy)[0].numpy()]
        out += [b.to_host(p.grad_data) for p in net.params()]
        net.clear_grads()
        net.gc()
        return out
    finally:
        del b.bf16_dgrad_bits


def test_blocks_hand_input_gradients_back_as_bits_and_nothing_is_widened():
    """Two residual blocks (test_cuda_bf16_twin.Blocks): the stride-1 convolutions reading a lazy BatchNorm output hand
    gX back as bits (the stride-2 ones, and the first reading x, in fp32), BatchNorm reads them as they are (no
    widen_bits); outputs and gradients stay bf16-close to those of fp32 input gradients."""
    from test_cuda_bf16_twin import Blocks
    eg = engine(17)
    b = eg.backend
    net = Blocks().init(eg)
    kinds, widened = [], []
    plain_data, plain_widen = b.conv_bwd_data, b.widen_bits

    def record(gy, w, x_shape, stride, pad, gx_bits=False):
        gx = plain_data(gy, w, x_shape, stride, pad, gx_bits)
        kinds.append((tuple(stride), gx.dtype))
        return gx
    b.conv_bwd_data, b.widen_bits = record, (lambda bits: widened.append(bits.shape) or plain_widen(bits))
    try:
        on = _one_step(eg, net, (6, 9, 9, 16), (6, 5, 5, 32), True)
    finally:
        del b.conv_bwd_data, b.widen_bits
    assert not widened                         # a2 and b2 read lazy BatchNorm outputs: bits; a1 reads x: fp32
    assert kinds == [((1, 1), np.uint16), ((2, 2), np.float32), ((2, 2), np.float32), ((1, 1), np.uint16),
                     ((1, 1), np.float32)], kinds
    _close(on, _one_step(eg, net, (6, 9, 9, 16), (6, 5, 5, 32), False))

class IdentityBlocks(nn.Module):
    """A stem (conv, batchNorm_leakyRelu) and two identity blocks of width 16. Each add_leakyRelu's addends are made
    by units reading gradient bits, so its backward hands its gradient back as bits. The stem's output feeds the
    first block's stride-1 convolution and its add: its two gradients (bits from both) meet in a GradSum that
    BatchNorm, not taking sums, gets summed by add_grads. The first block's output (an add_leakyRelu stored as bits)
    likewise feeds the second block: that GradSum add_leakyRelu's backward reads unsummed."""

    def __init__(self):
        super().__init__()
        self.stem, self.sbn = nn.conv3D(False, 16, 16, 3, 1, 1), nn.batchNorm_leakyRelu(16)
        self.a1, self.a2 = nn.conv3D(False, 16, 16, 3, 1, 1), nn.conv3D(False, 16, 16, 3, 1, 1)
        self.abn1, self.abn2 = nn.batchNorm_leakyRelu(16), nn.batchNorm(16)
        self.b1, self.b2 = nn.conv3D(False, 16, 16, 3, 1, 1), nn.conv3D(False, 16, 16, 3, 1, 1)
        self.bbn1, self.bbn2 = nn.batchNorm_leakyRelu(16), nn.batchNorm(16)

    def __forward__(self, x):
        x = self.sbn(self.stem(x)[0])[0]
        out1 = F.add_leakyRelu(self.abn2(self.a2(self.abn1(self.a1(x)[0])[0])[0])[0], x)[0]
        return F.add_leakyRelu(self.bbn2(self.b2(self.bbn1(self.b1(out1)[0])[0])[0])[0], out1)


def test_a_fan_in_of_bits_and_fp32_gradients_is_summed_inside_the_activation_backward():
    eg = engine(19)
    b = eg.backend
    if not b.residual_bits_ok((4, 8, 8, 16)):
        pytest.skip("residual outputs stored as bits need the wgmma kernels (compute capability 9.0)")
    seen, summed, widened = [], [], []
    plain_sign, plain_add, plain_widen = b.act_bwd_sign, b.add_grads, b.widen_bits

    def sign(gy, yb, slope, gy2=None, out=None, gx_bits=False):
        seen.append(sorted(str(g.dtype) for g in (gy, gy2) if g is not None) + (["-> bits"] if gx_bits else []))
        return plain_sign(gy, yb, slope, gy2, out, gx_bits)

    def add(a, c, out=None):
        summed.append(sorted(str(g.dtype) for g in (a, c)))
        return plain_add(a, c, out)
    b.act_bwd_sign, b.add_grads = sign, add
    b.widen_bits = lambda bits: widened.append(bits.shape) or plain_widen(bits)
    net = IdentityBlocks().init(eg)
    try:
        on = _one_step(eg, net, (4, 8, 8, 16), (4, 8, 8, 16), True)
    finally:
        del b.act_bwd_sign, b.add_grads, b.widen_bits
    assert not widened
    assert seen == [["float32", "-> bits"], ["uint16", "uint16", "-> bits"]], seen
    assert summed == [["uint16", "uint16"]], summed
    _close(on, _one_step(eg, net, (4, 8, 8, 16), (4, 8, 8, 16), False))
