"""bf16 training stores a convolution's output as its bf16 bits (the wgmma forward writes them; StoredBits in
backend/cuda_bf16_twin.py): BatchNorm reads and keeps those bits as they are, anything else reads their widening, and
a training step computes the same bits as with the fp32 output; a fan-in's two gradients are added inside the sign
backward with the same bits. Skipped without a GPU (and off Hopper: the wgmma kernels)."""
import numpy as np
import pytest

from alpha_py import F, alpha, nn
from alpha_py.core.tensor import LazyData, settle_lazy
from alpha_py.errors import ArgumentError
from cuda_parity import keep_allocator, require_gpu, round_bf16  # noqa: F401 (keep_allocator: autouse)
from test_cuda_bf16_twin import Blocks

pytestmark = pytest.mark.gpu
_EG = {}


def engine(seed=0):
    require_gpu()
    if "bf16" not in _EG:
        _EG["bf16"] = alpha.engine.cuda_float32(0, precision="bf16", auto_graph=False, conv_autotune=False)
    eg = _EG["bf16"].set_seed(seed)
    if not eg.backend.wgmma_ok():
        pytest.skip("bf16 convolution outputs are stored as bits on the wgmma kernels (compute capability 9.0)")
    return eg


def _x(shape, seed=1):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _fp32_output(eg, conv, x):
    eg.backend.bf16_conv_bits = False
    try:
        return conv.forward(x)[0].numpy()
    finally:
        del eg.backend.bf16_conv_bits


@pytest.mark.parametrize("stride,ic", [(1, 16), (2, 3)])
def test_a_training_convolution_stores_its_output_as_bf16_bits(stride, ic):
    eg = engine()
    conv = nn.conv3D(False, ic, 16, 3, stride, 1).init(eg)
    x = eg.tensor(_x((3, 7, 9, ic)))
    y = conv.forward(x)[0]
    assert type(y._lazy) is LazyData and y._data is None
    bits = eg.backend.stored_bits(y._lazy)
    assert bits.dtype == np.uint16 and y.shape == tuple(bits.shape) == (3, 6 // stride + 1, 8 // stride + 1, 16)
    want = round_bf16(_fp32_output(eg, conv, x))                   # the fp32 output rounded to nearest even
    np.testing.assert_array_equal(y.numpy().view(np.uint32), want.view(np.uint32))
    assert y._lazy is None and eg.backend.twin_of(y.data)[0] is bits     # widened once, the bits its twin


@pytest.mark.parametrize("case", ["bias", "channels", "eval", "switch"])
def test_outputs_stay_fp32_where_bits_do_not_apply(case):
    eg = engine()
    conv = nn.conv3D(case == "bias", 16, 12 if case == "channels" else 16, 3, 1, 1).init(eg)
    if case == "eval":
        conv.eval()
    if case == "switch":
        eg.backend.bf16_conv_bits = False
    try:
        y = conv.forward(eg.tensor(_x((2, 5, 5, 16))))[0]
    finally:
        eg.backend.__dict__.pop("bf16_conv_bits", None)
    assert y._lazy is None and y._data.dtype == np.float32


def test_batchnorm_keeps_the_convolutions_bits_and_never_widens_them():
    eg = engine(3)
    conv, bn = nn.conv3D(False, 16, 16, 3, 1, 1).init(eg), nn.batchNorm_relu(16).init(eg)
    x = eg.tensor(_x((4, 6, 6, 16)))
    z = conv.forward(x)[0]
    bits = eg.backend.stored_bits(z._lazy)
    y = bn.forward(z)[0]
    kept = y.node.ctx[0]
    assert kept.data.ptr == bits.data.ptr                  # BN's kept input bits are the convolution's output
    settle_lazy()                                          # stored bits depend on nothing that changes: left alone
    assert z._data is None
    y.numpy()
    assert z._data is None


def test_a_non_batchnorm_reader_gets_the_widened_bits():
    eg = engine(5)
    conv = nn.conv3D(False, 16, 16, 3, 1, 1).init(eg)
    x = eg.tensor(_x((2, 6, 6, 16)))
    z = conv.forward(x)[0]
    r = nn.relu().init(eg).forward(z)[0].numpy()
    want = np.maximum(round_bf16(_fp32_output(eg, conv, x)), 0)
    np.testing.assert_array_equal(r.view(np.uint32), want.view(np.uint32))


def _train_blocks(eg, switch, value, steps):
    """Blocks trained `steps` Adam steps with the backend attribute `switch` set to `value` -> every output,
    gradient and final parameter."""
    setattr(eg.backend, switch, value)
    try:
        rng = np.random.default_rng(2)
        x = eg.tensor(rng.standard_normal((6, 9, 9, 16)).astype(np.float32))
        gy = eg.tensor(rng.standard_normal((6, 5, 5, 32)).astype(np.float32))
        net = Blocks().init(eg)
        opt = alpha.optim.Adam(net.params(), 1e-2)
        outs = []
        for _ in range(steps):
            outs.append(net.forward(x)[0].numpy())
            net.backward(gy)
            outs += [eg.backend.to_host(p.grad_data) for p in net.params() if p.grad_data is not None]
            opt.update().clear_grads()
            net.gc()
        return outs + [p.numpy() for p in net.params()]
    finally:
        delattr(eg.backend, switch)


def _same_bits(on, off):
    assert len(on) == len(off) > 15
    for a, e in zip(on, off):
        np.testing.assert_array_equal(np.asarray(a).view(np.uint8), np.asarray(e).view(np.uint8))


def test_two_training_steps_compute_the_same_bits_with_stored_convolution_outputs():
    on = _train_blocks(engine(11), "bf16_conv_bits", True, 2)
    _same_bits(on, _train_blocks(engine(11), "bf16_conv_bits", False, 2))


@pytest.mark.parametrize("precision", ["bf16", "tf32", "fp32"])
def test_a_fan_in_summed_inside_the_activation_backward_gives_the_same_bits(precision):
    """The first block's output feeds the second block's two paths: their gradients reach add_leakyRelu's backward
    (from the sign bits in bf16, from y otherwise) unsummed (core/autograd.py GradSum) and are added in its kernel,
    bit for bit the separate sum."""
    eg = engine(7)
    if precision != "bf16":
        if precision not in _EG:
            _EG[precision] = alpha.engine.cuda_float32(0, precision=precision, auto_graph=False, conv_autotune=False)
        eg = _EG[precision]
    on = _train_blocks(eg.set_seed(7), "grad_sums", True, 1)
    _same_bits(on, _train_blocks(eg.set_seed(7), "grad_sums", False, 1))


def test_gradients_handed_back_as_bits_give_the_same_bits():
    """BatchNorm hands a convolution its output gradient as bf16 bits only (core/autograd.py GradBits): every
    convolution's backward reads uint16 gY, nothing is widened, and two Adam steps compute the same bits as with
    fp32 gradients cast by the convolution."""
    eg = engine(13)
    b = eg.backend
    seen, widened = [], []
    plain_filter, plain_widen = b.conv_bwd_filter, b.widen_bits
    b.conv_bwd_filter = lambda x, gy, *a, **k: seen.append(gy.dtype) or plain_filter(x, gy, *a, **k)
    b.widen_bits = lambda bits: widened.append(bits.shape) or plain_widen(bits)
    try:
        on = _train_blocks(eg, "bf16_grad_bits", True, 2)
    finally:
        del b.conv_bwd_filter, b.widen_bits
    assert seen and all(d == np.uint16 for d in seen) and not widened
    _same_bits(on, _train_blocks(engine(13), "bf16_grad_bits", False, 2))


class ReadTwice(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv, self.bn, self.act = nn.conv3D(False, 16, 16, 3, 1, 1), nn.batchNorm(16), nn.relu()

    def __forward__(self, x):
        z = self.conv(x)[0]
        return F.add(self.bn(z)[0], self.act(z)[0])


def test_a_convolution_read_twice_gets_its_gradients_summed_in_fp32():
    """A convolution's output read by a BatchNorm (its gradient handed back as bf16 bits) and by a relu (fp32): the
    two are summed in fp32 by add_grads, which reads the bits as their exact widening (nothing widened apart) —
    bf16-close to the sum of fp32 gradients (BatchNorm's part is rounded to bf16 before the sum instead of after)."""
    def run(on):
        eg = engine(3)
        b = eg.backend
        b.bf16_grad_bits, seen, plain = on, [], b.add_grads
        b.add_grads = lambda a, c, out=None: seen.append(sorted(str(v.dtype) for v in (a, c))) or plain(a, c, out)
        b.widen_bits = lambda bits: seen.append("widened")
        try:
            net = ReadTwice().init(eg)
            net.forward(eg.tensor(_x((2, 6, 6, 16))))
            gx = net.backward(eg.tensor(_x((2, 6, 6, 16), 4)))[0].numpy()
            return [gx, b.to_host(net.conv.weight().grad_data)], seen
        finally:
            del b.bf16_grad_bits, b.add_grads, b.widen_bits
    (on, summed), (off, none) = run(True), run(False)
    assert summed == [["float32", "uint16"]] and none == []
    for a, e in zip(on, off):
        np.testing.assert_allclose(a, e, rtol=0, atol=2.0 ** -6 * float(np.abs(e).max()))


def test_gy_bits_are_refused_where_the_wgmma_kernels_cannot_read_them():
    import cupy
    b = engine().backend
    gy = cupy.zeros((2, 4, 4, 12), np.uint16)                       # (from_host would make floats of them)
    x = b.from_host(_x((2, 4, 4, 8)))
    with pytest.raises(ArgumentError, match="bf16 bits"):
        b.conv_bwd_filter(x, gy, (12, 3, 3, 8), (1, 1), (1, 1))
    with pytest.raises(ArgumentError, match="bf16 bits"):
        b.conv_bwd_data(gy, b.from_host(_x((12, 3, 3, 8))), (2, 4, 4, 8), (1, 1), (1, 1))


def test_a_1d_convolution_trains_in_bf16_with_fp32_outputs():
    """conv2D (a 1D convolution run as the 2D unit) reshapes its output: never stored as bits."""
    eg = engine(9)
    conv = nn.conv2D(False, 16, 16, 3, 1, 1).init(eg)
    y = conv.forward(eg.tensor(_x((2, 10, 16))))[0]
    gx = conv.backward(eg.tensor(_x((2, 10, 16), 5)))[0].numpy()
    assert y.numpy().shape == gx.shape == (2, 10, 16) and np.isfinite(gx).all()
