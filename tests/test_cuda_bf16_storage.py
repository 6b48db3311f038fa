"""What bf16 training keeps for backward (GPU): BatchNorm keeps its input's bf16 bits (statistics and output are
those of the rounded input), a training Conv3D keeps only its input's bf16 cast, and no unit of a residual block
keeps an fp32 copy of an activation; skipped without a GPU."""
import weakref

import numpy as np
import pytest

from alpha_py import F, alpha, nn
from alpha_py.errors import ArgumentError
from cuda_parity import keep_allocator, require_gpu, round_bf16  # noqa: F401 (keep_allocator: autouse)

pytestmark = pytest.mark.gpu
_EG = {}


def engine(precision, seed=0):
    require_gpu()
    if precision not in _EG:
        # op by op; untimed algorithm choice: the wgmma kernels where offered (a timed one may pick mma.sync,
        # after which a conv keeps x itself)
        _EG[precision] = alpha.engine.cuda_float32(0, precision=precision, auto_graph=False, conv_autotune=False)
    return _EG[precision].set_seed(seed)


def _bits(a):
    return np.ascontiguousarray(a).view(np.uint8)


@pytest.mark.parametrize("act", [None, "relu", "leakyRelu", "gelu"])
@pytest.mark.parametrize("shape", [(1, 3), (7, 5), (3, 9, 9, 24), (64, 8, 8, 64)])
def test_batchnorm_keeps_bf16_bits_and_equals_it_on_the_rounded_input(act, shape):
    bg = engine("bf16").backend
    rng = np.random.default_rng(len(shape) + shape[-1])
    c = shape[-1]
    x = (rng.standard_normal(shape) * 3 + 1).astype(np.float32)
    xr = round_bf16(x)
    g, b = (bg.from_host(rng.standard_normal(c).astype(np.float32)) for _ in range(2))
    keep = []
    got = bg.bn_act_fwd(act, bg.from_host(x), g, b, 1e-5, p1=0.1, keep=keep)
    want = bg.bn_act_fwd(act, bg.from_host(xr), g, b, 1e-5, p1=0.1)
    for a, e in zip(got, want):                                  # y, mean, var, inv: bit for bit
        np.testing.assert_array_equal(_bits(bg.to_host(a)), _bits(bg.to_host(e)))
    (xb,) = keep
    assert xb.dtype == np.uint16 and xb.shape == (x.size // c, c)
    np.testing.assert_array_equal(bg.to_host(xb).reshape(-1), (xr.view(np.uint32) >> 16).reshape(-1))
    gy = bg.from_host(rng.standard_normal(shape).astype(np.float32))
    gk = bg.bn_act_bwd(act, gy, xb, got[1], got[3], g, b, True, 0.1)
    gr = bg.bn_act_bwd(act, gy, bg.from_host(xr), want[1], want[3], g, b, True, 0.1)
    for a, e in zip(gk, gr):
        np.testing.assert_array_equal(_bits(bg.to_host(a)), _bits(bg.to_host(e)))
    assert gk[0].shape == shape


def test_bn_act_bwd_refuses_bits_of_another_shape():
    bg = engine("bf16").backend
    gy = bg.from_host(np.ones((4, 6), np.float32))
    one = bg.from_host(np.ones(6, np.float32))
    with pytest.raises(ArgumentError, match="bn_act_bwd: x uint16 .* kept bf16 bits for gradient"):
        import cupy
        bg.bn_act_bwd("relu", gy, cupy.zeros((4, 5), cupy.uint16), one, one, one, one)


class Block(nn.Module):
    """conv-BN-leakyRelu-conv-BN + identity, add_leakyRelu (ResNet's basic block); `seen` holds weak references
    to the data of the four intermediates."""

    def __init__(self, c):
        super().__init__()
        self.conv1, self.bn1 = nn.conv3D(False, c, c, 3, 1, 1), nn.batchNorm_leakyRelu(c)
        self.conv2, self.bn2 = nn.conv3D(False, c, c, 3, 1, 1), nn.batchNorm(c)
        self.seen = []

    def __forward__(self, x):
        z1 = self.conv1(x)[0]
        y1 = self.bn1(z1)[0]
        z2 = self.conv2(y1)[0]
        b2 = self.bn2(z2)[0]
        self.seen = [weakref.ref(t.data) for t in (z1, y1, z2, b2)]
        return F.add_leakyRelu(b2, x)


def _block_run(precision, x, gy):
    eg = engine(precision, 7)
    net = Block(16)
    net.init(eg)
    y = net.forward(eg.tensor(x))[0]
    alive = [r() is not None for r in net.seen]
    net.backward(eg.tensor(gy))
    grads = [eg.backend.to_host(p.grad_data) for p in net.params() if p.grad_data is not None]
    out = y.numpy()
    net.gc()
    return alive, out, grads


def test_a_residual_block_keeps_no_fp32_activation_in_bf16():
    """fp32 keeps conv outputs (for BN) and BN-act's output (for conv2's weight gradient); bf16 keeps only bf16
    bits of them, so every fp32 intermediate is freed after forward; both train to the same gradients within
    bf16's rounding."""
    eg = engine("bf16")
    if not eg.backend.wgmma_ok():
        pytest.skip("a training conv keeps only the cast on the wgmma kernels (compute capability 9.0)")
    rng = np.random.default_rng(3)
    x = rng.standard_normal((8, 8, 8, 16)).astype(np.float32)
    gy = rng.standard_normal((8, 8, 8, 16)).astype(np.float32)
    alive32, y32, g32 = _block_run("fp32", x, gy)
    alive16, y16, g16 = _block_run("bf16", x, gy)
    assert alive32 == [True, True, True, False]            # BN keeps z1, z2; conv2 keeps y1; add_act keeps only y
    assert alive16 == [False, False, False, False]
    assert np.linalg.norm(y16 - y32) / np.linalg.norm(y32) < 2e-2
    assert len(g16) == len(g32) and len(g32) == 6
    for a, e in zip(g16, g32):
        assert np.linalg.norm(a - e) / np.linalg.norm(e) < 5e-2
