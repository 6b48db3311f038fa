"""The streaming kernels' 8-elements-per-thread bodies (kernels/vec8.cuh: batchNorm apply/backward, the bf16 twins'
add+activation and sign backward, the fp32 activations, the fan-in add) give the same bits as their scalar bodies,
which run on inputs that are not 16-byte aligned, and as any grid size; batchNorm's column sums with 8 channels per
thread agree with one channel per thread and with float64. Skipped without a GPU."""
import numpy as np
import pytest

from alpha_py import alpha
from cuda_parity import keep_allocator, require_gpu  # noqa: F401 (keep_allocator: autouse)

pytestmark = pytest.mark.gpu
cupy = pytest.importorskip("cupy")
_EG = {}
SHAPES = [(3, 5, 7, 24), (2, 9, 40), (2, 3, 5, 12), (7, 16)]


def backend():
    require_gpu()
    if "bf16" not in _EG:
        _EG["bf16"] = alpha.engine.cuda_float32(0, precision="bf16", auto_graph=False, conv_autotune=False)
    return _EG["bf16"].backend


def shifted(a):
    """a's values in a C-contiguous view one element past a 16-byte boundary (so the kernels take their scalar body)."""
    buf = cupy.empty(a.size + 8, dtype=a.dtype)
    v = buf[1:1 + a.size].reshape(a.shape)
    v[...] = a
    assert v.data.ptr % 16 != 0 and v.flags.c_contiguous
    return v


def same_bits(a, b):
    a, b = cupy.asnumpy(a), cupy.asnumpy(b)
    assert a.shape == b.shape and a.dtype == b.dtype
    assert np.array_equal(a.view(np.uint8), b.view(np.uint8))


def data(shape, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape).astype(np.float32) * 3
    x.reshape(-1)[:4] = [0.0, -0.0, 1e-40, -2.5]
    return cupy.asarray(x)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("act", ["relu", "gelu", None])
@pytest.mark.parametrize("bf16", [False, True])
def test_batchnorm_forward_and_backward_bodies_agree(shape, act, bf16):
    b = backend()
    c = shape[-1]
    x, gy = data(shape), data(shape, 1)
    gamma, beta = data((c,), 2), data((c,), 3)
    outs = []
    b.bn_partial_vec = False          # the column sums one channel per thread on both (their 8-wide form: below)
    for xs, gys in ((x, gy), (shifted(x), shifted(gy))):
        keep = [] if bf16 else None
        y, mean, var, inv = b.bn_act_fwd(act, xs, gamma, beta, 1e-5, keep=keep)
        xk = keep[0] if bf16 else xs
        gx, dg, db = b.bn_act_bwd(act, gys, xk, mean, inv, gamma, beta)
        gx0, _, _ = b.bn_act_bwd(act, gys, xk, mean, inv, None, None, batch_stats=False)
        outs.append([y, mean, var, inv, gx, dg, db, gx0] + ([keep[0]] if bf16 else []))
    b.bn_partial_vec = True
    for u, v in zip(*outs):
        same_bits(u, v)


@pytest.mark.parametrize("shape", SHAPES[:3])
@pytest.mark.parametrize("act", ["relu", None])
def test_recast_and_add_act_twin_bodies_agree(shape, act):
    b = backend()
    c = shape[-1]
    x, a = data(shape), data(shape, 1)
    gamma, beta = data((c,), 2), data((c,), 3)
    keep = []
    _, mean, _, inv = b.bn_act_fwd(act, x, gamma, beta, 1e-5, keep=keep)
    outs = []
    for xb, av in ((keep[0], a), (shifted(keep[0]), shifted(a))):
        lazy = b.bn_lazy(shape, act, xb, mean, inv, gamma, beta)
        bits, y32 = lazy.source.bits(), lazy.source.fp32()
        plain = b.bn_lazy(shape, None, xb, mean, inv, gamma, beta)
        y, yb = b.add_act_twin("relu", av, plain)
        y2, yb2 = b.add_act_twin("leakyRelu", av, av, 0.1)
        outs.append([bits, y32, y, yb, y2, yb2, b.act_bwd_sign(av, yb, 0.0), b.act_bwd_sign(av, yb2, 0.1)])
    for u, v in zip(*outs):
        same_bits(u, v)


def _bn_twin_outputs(b, x, gy, a, gamma, beta, act):
    """bn_act_fwd (keeping x's bits), bn_act_bwd with and without batch statistics, the Recast's bits and fp32 output
    and add_act_twin over a lazy plain-BatchNorm addend."""
    keep = []
    y, mean, var, inv = b.bn_act_fwd(act, x, gamma, beta, 1e-5, keep=keep)
    gx, dg, db = b.bn_act_bwd(act, gy, keep[0], mean, inv, gamma, beta)
    gx0, _, _ = b.bn_act_bwd(act, gy, keep[0], mean, inv, None, None, batch_stats=False)
    lazy = b.bn_lazy(x.shape, act, keep[0], mean, inv, gamma, beta)
    plain = b.bn_lazy(x.shape, None, keep[0], mean, inv, gamma, beta)
    ya, yab = b.add_act_twin("leakyRelu", a, plain, 0.1)
    return [y, mean, inv, keep[0], gx, dg, db, gx0, lazy.source.bits(), lazy.source.fp32(), ya, yab]


@pytest.mark.parametrize("shape", [(3, 5, 7, 24), (2, 9, 40), (300, 16)])
@pytest.mark.parametrize("act", ["leakyRelu", None])
def test_row_walk_group_loop_and_scalar_bodies_agree(shape, act, monkeypatch):
    """batchNorm apply / backward (forward output, Recast, add_act_twin over a lazy addend): the row walk that keeps a
    thread's 8 channels' values in registers (blocks of 256 threads), the per-group loop (blocks of 2 threads: C/8 > 2
    for C = 24, 40) and the scalar body (unaligned inputs) give the same bits."""
    b = backend()
    c = shape[-1]
    x, gy, a = data(shape), data(shape, 1), data(shape, 2)
    gamma, beta = data((c,), 3), data((c,), 4)
    monkeypatch.setattr(b, "bn_partial_vec", False)     # the same column sums on aligned and unaligned inputs
    rows = _bn_twin_outputs(b, x, gy, a, gamma, beta, act)
    scalar = _bn_twin_outputs(b, shifted(x), shifted(gy), shifted(a), gamma, beta, act)
    kernel, walkers = b.kernel, ("bn_apply<", "bn_bwd_apply<")

    def narrow(family, name, smem=0):
        k = kernel(family, name, smem)
        return (lambda grid, block, args: k(grid, (2,), args)) if name.startswith(walkers) else k
    monkeypatch.setattr(b, "kernel", narrow)
    loop = _bn_twin_outputs(b, x, gy, a, gamma, beta, act)
    for r, s, g in zip(rows, scalar, loop):
        same_bits(r, s)
        same_bits(r, g)


@pytest.mark.parametrize("shape", [(3, 5, 7, 24), (13,), (4, 10)])
@pytest.mark.parametrize("act", ["relu", "leakyRelu", "gelu", "tanh"])
def test_elementwise_bodies_agree(shape, act):
    b = backend()
    x, y0, gy = data(shape), data(shape, 1), data(shape, 2)
    outs = []
    for xs, ys, gs in ((x, y0, gy), (shifted(x), shifted(y0), shifted(gy))):
        y = b.act_fwd(act, xs, 0.1)
        s = b.add_act(act, xs, ys, 0.1)
        acc = xs.copy()
        b.add_into(acc, gs)
        outs.append([y, b.act_bwd(act, gs, xs, y, 0.1), s, b.add_act_bwd(act, gs, xs, ys, s, 0.1), acc])
    for u, v in zip(*outs):
        same_bits(u, v)
    same_bits(outs[0][4], x + gy)


@pytest.mark.parametrize("grid", [1, 3])
def test_a_small_grid_steps_the_channel_across_grid_strides(grid):
    """n/8 groups over few threads: each thread's channel advances by (grid stride) % C between its groups."""
    b = backend()
    m, c = 97, 40
    x, gy = data((m, c)), data((m, c), 1)
    gamma, beta = data((c,), 2), data((c,), 3)
    y, mean, _, inv = b.bn_act_fwd("relu", x, gamma, beta, 1e-5)
    out = cupy.empty_like(x)
    b.kernel("batchnorm", "bn_apply<ACT_RELU>")((grid,), (256,), (
        x, mean, inv, gamma, beta, out, np.int64(m), np.int32(c), np.float32(0), np.float32(0), np.int32(0),
        np.uint64(0), np.uint64(0)))
    same_bits(out, y)
    acc, want = x.copy(), x + gy
    b.kernel("elementwise", "add_into")((grid,), (256,), (acc, gy, np.int64(acc.size)))
    same_bits(acc, want)


@pytest.mark.parametrize("m,c", [(20000, 64), (9001, 24)])
def test_batchnorm_statistics_of_many_rows_match_float64(m, c):
    b = backend()
    rng = np.random.default_rng(4)
    x = (rng.standard_normal((m, c)) * 2 + 5).astype(np.float32)
    gy = rng.standard_normal((m, c)).astype(np.float32)
    y, mean, var, inv = b.bn_act_fwd(None, cupy.asarray(x), None, None, 1e-5)
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(cupy.asnumpy(mean), x64.mean(0), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(cupy.asnumpy(var), x64.var(0), rtol=1e-5)
    _, dg, db = b.bn_act_bwd(None, cupy.asarray(gy), cupy.asarray(x), mean, inv, cupy.ones(c, np.float32),
                             cupy.zeros(c, np.float32))
    xhat = (x64 - x64.mean(0)) / np.sqrt(x64.var(0) + 1e-5)
    np.testing.assert_allclose(cupy.asnumpy(db), gy.astype(np.float64).sum(0), rtol=1e-5, atol=1e-3)
    np.testing.assert_allclose(cupy.asnumpy(dg), (gy * xhat).sum(0), rtol=1e-4, atol=1e-3)


def _sums(b, vec, mode, act, x2, gy2, mean, inv, gamma, beta, xmode):
    """The finished column sums of _bn_partial (8 channels per thread or one) as float64 host arrays."""
    b.bn_partial_vec = vec
    try:
        part1, part2, s = b._bn_partial(mode, act, x2, gy2, mean, inv, gamma, beta, 0.1, 0.0, xmode)
    finally:
        b.bn_partial_vec = True
    return [cupy.asnumpy(p).astype(np.float64).sum(0) for p in (part1, part2)]


@pytest.mark.parametrize("m,c", [(1, 8), (37, 24), (5000, 64), (3001, 264), (700, 520)])
@pytest.mark.parametrize("xmode", [0, 1, 2])
def test_batchnorm_column_sums_8_wide_agree_with_one_wide_and_float64(m, c, xmode):
    """bn_partial8 (8 channels per thread; C = 264, 520: a second block column only partly used) against bn_partial,
    statistics (mode 3) and backward sums (mode 2, with and without an activation), x as fp32, rounded or bits."""
    b = backend()
    rng = np.random.default_rng(m + c)
    x = (rng.standard_normal((m, c)) * 2 + 3).astype(np.float32)
    gy = rng.standard_normal((m, c)).astype(np.float32)
    xd = cupy.asarray(x)
    if xmode == 2:
        keep = []
        b.bn_act_fwd(None, xd, None, None, 1e-5, keep=keep, write_y=False)
        xd = keep[0]
        x = (cupy.asnumpy(xd).astype(np.uint32) << 16).view(np.float32)
    elif xmode == 1:
        x = (((x.view(np.uint32) + 0x7FFF + ((x.view(np.uint32) >> 16) & 1)) >> 16) << 16).view(np.float32)
    x64, g64 = x.astype(np.float64), gy.astype(np.float64)
    mean, inv = cupy.asarray(x.mean(0)), cupy.asarray((1 / np.sqrt(x64.var(0) + 1e-5)).astype(np.float32))
    gamma, beta = cupy.asarray(rng.standard_normal(c).astype(np.float32)), cupy.asarray(rng.random(c, np.float32))
    ident = "ACT_IDENTITY"
    wide = _sums(b, True, 3, ident, xd, None, None, None, None, None, xmode)
    one = _sums(b, False, 3, ident, xd, None, None, None, None, None, xmode)
    d = x64 - x64[0]
    for got, ref, want in zip(wide, one, (d.sum(0), (d * d).sum(0))):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-3)
        np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-3)
    gd = cupy.asarray(gy)
    for act in (ident, "ACT_LEAKY_RELU"):
        wide = _sums(b, True, 2, act, xd, gd, mean, inv, gamma, beta, xmode)
        one = _sums(b, False, 2, act, xd, gd, mean, inv, gamma, beta, xmode)
        dm = x64 - x.mean(0).astype(np.float64)
        g = g64
        if act != ident:
            z = dm * cupy.asnumpy(inv) * cupy.asnumpy(gamma) + cupy.asnumpy(beta)
            g = g64 * np.where(z > 0, 1.0, 0.1)
        for got, ref, want in zip(wide, one, (g.sum(0), (g * dm).sum(0))):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=2e-3)
            np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-3)
