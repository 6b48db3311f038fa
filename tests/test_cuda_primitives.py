"""GPU parity of backend primitives against the CPU backend (fresh random inputs, sizes off the block
sizes), the random-number kernels, pinned transfers, uint8 image ops, the fused optimizer step for
every rule, and the memory pools' hard cap on the device. Skipped without CuPy or a GPU."""
import numpy as np
import pytest

from alpha_py import alpha, nn
from alpha_py.backend.base import ArrayBackend
from alpha_py.backend.optim_ops import state_names
from alpha_py.ops import ACTIVATIONS, OPTIM_RULES
from alpha_py.errors import MemoryCapError
from cuda_parity import check, cpu, gpu, host, require_gpu

pytestmark = pytest.mark.gpu
RNG = np.random.RandomState(11)


def both():
    return cpu().backend, gpu().backend


def dev(a):
    return gpu().backend.from_host(a, dtype=a.dtype)


def rand(*shape, scale=1.0):
    return (RNG.randn(*shape) * scale).astype(np.float32)


@pytest.mark.parametrize("name", list(ACTIVATIONS))
def test_act_and_add_act(name):
    bc, bg = both()
    x, y2, gy = rand(1000, 37, scale=4), rand(1000, 37), rand(1000, 37)
    yc, yg = bc.act_fwd(name, x, 0.1, 1.3), bg.act_fwd(name, dev(x), 0.1, 1.3)
    check(name, "act_fwd", yg, yc)
    check(name, "act_bwd", bg.act_bwd(name, dev(gy), dev(x), yg, 0.1, 1.3), bc.act_bwd(name, gy, x, yc, 0.1, 1.3))
    check(name, "add_act", bg.add_act(name, dev(x), dev(y2), 0.1, 1.3), bc.add_act(name, x, y2, 0.1, 1.3))
    ya = bc.add_act(name, x, y2, 0.1, 1.3)
    check(name, "add_act_bwd", bg.add_act_bwd(name, dev(gy), dev(x), dev(y2), dev(ya), 0.1, 1.3),
          bc.add_act_bwd(name, gy, x, y2, ya, 0.1, 1.3))


@pytest.mark.parametrize("shape", [(1, 10), (513, 10), (7, 1000), (3, 5, 33)])
def test_softmax_family(shape):
    bc, bg = both()
    x = rand(*shape, scale=5)
    lab = np.eye(shape[-1], dtype=np.float32)[RNG.randint(0, shape[-1], int(np.prod(shape[:-1])))].reshape(shape)
    check("softmax", str(shape), bg.softmax(dev(x)), bc.softmax(x))
    check("log_softmax", str(shape), bg.log_softmax(dev(x)), bc.log_softmax(x))
    lc, pc = bc.softmax_ce(x.reshape(-1, shape[-1]), lab.reshape(-1, shape[-1]))
    lg, pg = bg.softmax_ce(dev(x.reshape(-1, shape[-1])), dev(lab.reshape(-1, shape[-1])))
    check("softmax_ce", "loss", lg, lc)
    check("softmax_ce", "prob", pg, pc)
    soft = np.abs(rand(*shape)) * lab + 0.05                  # soft labels whose rows do not sum to 1
    for y in (lab, soft):                                     # the fused gradient: bit-equal to the unfused ops
        want = ArrayBackend.softmax_ce_grad(bg, dev(x), dev(y), 1.0 / shape[0])
        got = bg.softmax_ce_grad(dev(x), dev(y), 1.0 / shape[0])
        assert host(got).tobytes() == host(want).tobytes(), shape
        check("softmax_ce_grad", str(shape), got, bc.softmax_ce_grad(x, y, 1.0 / shape[0]))


@pytest.mark.parametrize("shape,axis", [((1000001,), None), ((4097, 67), 0), ((4097, 67), None),
                                        ((33, 7, 5), (0, 1)), ((33, 7, 5), -1), ((33, 7, 5), 1),
                                        ((129, 3), 1), ((5,), 0)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_sum_mean(shape, axis, keepdims):
    bc, bg = both()
    x = rand(*shape) + 0.5
    check("sum", f"{shape}{axis}", bg.sum(dev(x), axis, keepdims), bc.sum(x, axis, keepdims))
    check("mean", f"{shape}{axis}", bg.mean(dev(x), axis, keepdims), bc.mean(x, axis, keepdims))


def test_kahan_sum_beats_naive_float32():
    """1e6 copies of 0.1f plus one 1e4: a plain float32 running sum drifts, the compensated one
    lands within a few ulp of the float64 answer."""
    bg = gpu().backend
    x = np.full(1 << 20, 0.1, dtype=np.float32)
    exact = float(np.sum(x.astype(np.float64)))
    got = float(host(bg.sum(dev(x))))
    assert abs(got - exact) / exact < 1e-6, (got, exact)


@pytest.mark.parametrize("m,c", [(6, 3), (1025, 67), (32 * 16 * 16, 64)])
@pytest.mark.parametrize("act", [None, "relu", "leakyRelu", "gelu"])
def test_batchnorm_primitives(m, c, act):
    bc, bg = both()
    x, gy = rand(m, c) * 2 + 1, rand(m, c)
    g, be = rand(c) + 1, rand(c)
    rc = bc.bn_act_fwd(act, x, g, be, 1e-5, p1=0.1) if act else bc.bn_fwd(x, g, be, 1e-5)
    rg = bg.bn_act_fwd(act, dev(x), dev(g), dev(be), 1e-5, p1=0.1) if act else bg.bn_fwd(dev(x), dev(g), dev(be), 1e-5)
    for what, a, b in zip(("y", "mean", "var", "inv"), rg, rc):
        check(f"bn{act}", what, a, b)
    for batch_stats in (True, False):
        if act:
            oc = bc.bn_act_bwd(act, gy, x, rc[1], rc[3], g, be, batch_stats, p1=0.1)
            og = bg.bn_act_bwd(act, dev(gy), dev(x), rg[1], rg[3], dev(g), dev(be), batch_stats, p1=0.1)
        else:
            oc = bc.bn_bwd(gy, x, rc[1], rc[3], g, batch_stats)
            og = bg.bn_bwd(dev(gy), dev(x), rg[1], rg[3], dev(g), batch_stats)
        for what, a, b in zip(("gx", "g_gamma", "g_beta"), og, oc):
            check(f"bn{act}{batch_stats}", what, a, b)
    gx, gg, gb = bg.bn_bwd(dev(gy), dev(x), rg[1], rg[3], None)
    assert gg is None and gb is None
    check("bn_noaffine", "gx", gx, bc.bn_bwd(gy, x, rc[1], rc[3], None)[0])


@pytest.mark.parametrize("c, n", [(1000, 64), (3, 1), (2500, 7)])
def test_batchnorm_running_stats_in_place_bit_equal(c, n):
    # v1.2's bias-corrected update over 5 steps (exp_beta advanced on the device), C up to 2500 in one block
    bc, bg = both()
    rm, rv = rand(c), rand(c) ** 2
    eb = np.ones(2)
    dm, dv, de = dev(rm), dev(rv), dev(eb)
    ptr = dm.data.ptr
    for step in range(5):
        m, v = rand(c), rand(c) ** 2
        bg.bn_running(dm, dv, dev(m), dev(v), de, 0.8999999761581421, 0.99, n)
        bc.bn_running(rm, rv, m, v, eb, 0.8999999761581421, 0.99, n)
    assert dm.data.ptr == ptr                             # in place
    np.testing.assert_array_equal(host(dm), rm)
    np.testing.assert_array_equal(host(dv), rv)
    np.testing.assert_array_equal(host(de), eb)


CONV_SHAPES = [  # x shape, w (OC, FH, FW), stride, pad
    ((2, 9, 11, 3), (5, 3, 3), (1, 1), (1, 1)),
    ((1, 8, 8, 8), (12, 1, 1), (2, 2), (0, 0)),
    ((3, 17, 13, 20), (36, 3, 5), (2, 1), (1, 2)),
    ((4, 16, 16, 64), (64, 3, 3), (1, 1), (1, 1)),
    ((2, 12, 12, 128), (130, 3, 3), (2, 2), (1, 1)),
    ((5, 7, 7, 6), (10, 7, 7), (1, 1), (3, 3)),
]


@pytest.mark.parametrize("xs,ws,stride,pad", CONV_SHAPES, ids=[str(c[0]) + str(c[1]) for c in CONV_SHAPES])
def test_conv_primitives(xs, ws, stride, pad):
    bc, bg = both()
    x = rand(*xs)
    w = rand(ws[0], ws[1], ws[2], xs[3])
    yc = bc.conv_fwd(x, w, stride, pad)
    yg = bg.conv_fwd(dev(x), dev(w), stride, pad)
    check("conv_fwd", str(xs), yg, yc)
    gy = rand(*yc.shape)
    check("conv_bwd_data", str(xs), bg.conv_bwd_data(dev(gy), dev(w), xs, stride, pad),
          bc.conv_bwd_data(gy, w, xs, stride, pad))
    check("conv_bwd_filter", str(xs), bg.conv_bwd_filter(dev(x), dev(gy), w.shape, stride, pad),
          bc.conv_bwd_filter(x, gy, w.shape, stride, pad))
    dw = rand(ws[1], ws[2], xs[3])
    dyc = bc.dwconv_fwd(x, dw, stride, pad)
    check("dwconv_fwd", str(xs), bg.dwconv_fwd(dev(x), dev(dw), stride, pad), dyc)
    dgy = rand(*dyc.shape)
    check("dwconv_bwd_data", str(xs), bg.dwconv_bwd_data(dev(dgy), dev(dw), xs, stride, pad),
          bc.dwconv_bwd_data(dgy, dw, xs, stride, pad))
    check("dwconv_bwd_filter", str(xs), bg.dwconv_bwd_filter(dev(x), dev(dgy), dw.shape, stride, pad),
          bc.dwconv_bwd_filter(x, dgy, dw.shape, stride, pad))


TF32_TOL = 3e-3   # TF32 operands keep 10 mantissa bits (rel. rounding 2^-11 ~ 4.9e-4 each), fp32 accumulate


@pytest.mark.parametrize("ks", [1, 2])
@pytest.mark.parametrize("xs,ws,stride,pad", CONV_SHAPES, ids=[str(c[0]) + str(c[1]) for c in CONV_SHAPES])
def test_conv_primitives_tf32(xs, ws, stride, pad, ks):
    """tf32=True: the same convolutions on the tensor cores, bound TF32_TOL (stated, not 1e-5)."""
    bc, bg = both()
    x, w = rand(*xs), rand(ws[0], ws[1], ws[2], xs[3])
    bg.tf32, bg.tf32_ks = True, ks
    try:
        yc = bc.conv_fwd(x, w, stride, pad)
        check("conv_fwd_tf32", str(xs), bg.conv_fwd(dev(x), dev(w), stride, pad), yc, TF32_TOL)
        gy = rand(*yc.shape)
        check("conv_bwd_data_tf32", str(xs), bg.conv_bwd_data(dev(gy), dev(w), xs, stride, pad),
              bc.conv_bwd_data(gy, w, xs, stride, pad), TF32_TOL)
        check("conv_bwd_filter_tf32", str(xs), bg.conv_bwd_filter(dev(x), dev(gy), w.shape, stride, pad),
              bc.conv_bwd_filter(x, gy, w.shape, stride, pad), TF32_TOL)
    finally:
        bg.tf32 = False


def test_conv_writes_every_output_element():
    """Poison the pool with NaNs first: any output element a kernel forgets shows up as NaN."""
    cp = require_gpu()
    bg = gpu().backend
    for _ in range(4):
        junk = cp.full((1 << 22,), cp.nan, dtype=cp.float32)
        del junk
    x, w = rand(3, 13, 11, 16), rand(20, 3, 3, 16)
    for tf32, ks in ((False, 2), (True, 1), (True, 2)):
        bg.tf32, bg.tf32_ks = tf32, ks
        try:
            y = host(bg.conv_fwd(dev(x), dev(w), (1, 1), (1, 1)))
            gx = host(bg.conv_bwd_data(dev(y), dev(w), x.shape, (1, 1), (1, 1)))
            gw = host(bg.conv_bwd_filter(dev(x), dev(y), w.shape, (1, 1), (1, 1)))
        finally:
            bg.tf32 = False
        assert np.isfinite(y).all() and np.isfinite(gx).all() and np.isfinite(gw).all()


@pytest.mark.parametrize("mode", ["max", "avg"])
@pytest.mark.parametrize("xs,k,s,p", [((2, 5, 7, 3), (3, 3), (2, 2), (1, 1)), ((3, 32, 32, 67), (2, 2), (2, 2), (0, 0)),
                                      ((1, 7, 5, 2), (3, 2), (2, 1), (1, 0))])
def test_pool_primitives(mode, xs, k, s, p):
    bc, bg = both()
    x = rand(*xs)
    yc, ac = bc.pool_fwd(mode, x, k, s, p)
    yg, ag = bg.pool_fwd(mode, dev(x), k, s, p)
    check(f"pool_{mode}", "fwd", yg, yc)
    gy = rand(*yc.shape)
    check(f"pool_{mode}", "bwd", bg.pool_bwd(mode, dev(gy), dev(x), yg, ag, k, s, p),
          bc.pool_bwd(mode, gy, x, yc, ac, k, s, p))


@pytest.mark.parametrize("xs,k", [((3, 32, 32, 64), (2, 2)), ((2, 8, 6, 12), (2, 3)), ((1, 4, 4, 4), (4, 4)),
                                  ((5, 6, 6, 8), (3, 3))])
def test_max_pool_of_tiling_windows_takes_its_own_kernels_and_agrees_bit_for_bit(xs, k):
    """Windows that tile x exactly (K = S, no padding), C % 4 == 0: maxpool_*_tiles, 4 channels of an output pixel
    per thread, give the one-element kernels' y, window indices (ties: the first maximum) and gx."""
    bc, bg = both()
    x = RNG.randint(-2, 3, xs).astype(np.float32)                    # many ties
    gy = rand(xs[0], xs[1] // k[0], xs[2] // k[1], xs[3])
    assert bg._pool_tiles(xs, gy.shape[1:3], k, k, (0, 0), dev(x))
    names, kernel = [], bg.kernel
    bg.kernel = lambda fam, name, smem=0: names.append(name) or kernel(fam, name, smem)
    try:
        y, idx = bg.pool_fwd("max", dev(x), k, k, (0, 0))
        gx = bg.pool_bwd("max", dev(gy), dev(x), y, idx, k, k, (0, 0))
        bg.pool_tiles = False
        y1, idx1 = bg.pool_fwd("max", dev(x), k, k, (0, 0))
        gx1 = bg.pool_bwd("max", dev(gy), dev(x), y1, idx1, k, k, (0, 0))
    finally:
        del bg.kernel
        bg.__dict__.pop("pool_tiles", None)
    assert names == ["maxpool_fwd_tiles", "maxpool_bwd_tiles", "maxpool_fwd", "maxpool_bwd"], names
    for new, old in ((y, y1), (idx, idx1), (gx, gx1)):
        np.testing.assert_array_equal(host(new), host(old))
    yc, ac = bc.pool_fwd("max", x, k, k, (0, 0))
    np.testing.assert_array_equal(host(y), yc)
    np.testing.assert_array_equal(host(gx), bc.pool_bwd("max", gy, x, yc, ac, k, k, (0, 0)))


@pytest.mark.parametrize("m,k,n", [(1, 1, 1), (7, 13, 5), (128, 3136, 128), (513, 67, 10), (2049, 33, 130)])
@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_matmul_on_own_gemm_all_transposes(m, k, n, ta, tb):
    """matmul runs on our GEMM kernels (capturable in CUDA graphs), strict fp32, every transpose combination."""
    bc, bg = both()
    a = rand(k, m) if ta else rand(m, k)
    b = rand(n, k) if tb else rand(k, n)
    check("matmul", f"{m},{k},{n},{ta},{tb}", bg.matmul(dev(a), dev(b), ta=ta, tb=tb), bc.matmul(a, b, ta=ta, tb=tb))


@pytest.mark.parametrize("m,k,n", [(64, 3136, 128), (512, 3136, 128), (64, 512, 10), (1, 5000, 3), (3, 1000, 1)])
def test_matmul_with_few_output_tiles_splits_its_sum(m, k, n):
    """A@B whose output fills few GEMM tiles and whose k is long (a large fan-in fullconnect at a small batch) runs
    split over k (matmul_splits), and still matches the CPU; a big output keeps the one-pass kernel."""
    bc, bg = both()
    assert bg.matmul_splits(m, k, n) and not bg.matmul_splits(2049, 33, 130)
    a, b = rand(m, k), rand(k, n)
    names, launch = [], bg.kernel
    bg.kernel = lambda fam, name, smem=0: names.append(name) or launch(fam, name, smem)
    try:
        got = bg.matmul(dev(a), dev(b))
    finally:
        del bg.kernel
    assert any(name.startswith("conv_bwd_filter<") for name in names), names
    check("matmul", f"split {m},{k},{n}", got, bc.matmul(a, b))


def test_matmul_and_misc_primitives():
    bc, bg = both()
    a, b = rand(65, 130), rand(130, 33)
    check("matmul", "ab", bg.matmul(dev(a), dev(b)), bc.matmul(a, b))
    check("matmul", "a^T", bg.matmul(dev(a.T.copy()), dev(b), ta=True), bc.matmul(a.T.copy(), b, ta=True))
    x = rand(4, 5, 6)
    check("transpose", "", bg.transpose(dev(x), (2, 0, 1)), bc.transpose(x, (2, 0, 1)))
    check("pad", "", bg.pad(dev(x), [(1, 0), (0, 2), (1, 1)], 0.5), bc.pad(x, [(1, 0), (0, 2), (1, 1)], 0.5))
    check("linear2", "", bg.linear2(dev(x), dev(x * 2), 0.5, -1.5, 0.25), bc.linear2(x, x * 2, 0.5, -1.5, 0.25))
    lab = np.array([3, 0, 9, 9, 1])
    check("onehot", "", bg.onehot(dev(lab), 10, 0.9, 0.01), bc.onehot(lab, 10, 0.9, 0.01))
    for labels, c in ((lab, 10), (np.arange(300) % 7, 7), (np.zeros(0, np.int64), 4)):      # image.cu's onehot_rows
        got = host(bg.onehot(dev(labels.astype(np.int64)), c, 0.9, 0.01))
        assert got.dtype == np.float32 and got.shape == (labels.size, c)
        assert got.tobytes() == bc.onehot(labels, c, 0.9, 0.01).tobytes()
    np.testing.assert_array_equal(host(bg.argmax(dev(x))), bc.argmax(x))


def test_image_ops_and_transfers():
    cp = require_gpu()
    eg = alpha.engine.cuda_float32(0, max_trans_buf_bytes=1 << 16)    # forces chunked pinned copies
    img = RNG.randint(0, 256, (9, 31, 29, 3)).astype(np.uint8)
    t = eg.images(img)
    np.testing.assert_allclose(t.numpy(), img.astype(np.float32) * np.float32(2 / 255) - 1, rtol=1e-6, atol=1e-6)
    flags = np.array([1, 0, 1, 1, 0, 0, 1, 0, 1], dtype=np.uint8)
    out = host(eg.backend.image_flip_lr(eg.backend.from_host(img, dtype=np.uint8), eg.backend.from_host(flags, dtype=np.uint8)))
    np.testing.assert_array_equal(out, cpu().backend.image_flip_lr(img, flags))
    big = rand(300, 1000)                                               # 1.2 MB through a 64 KB buffer
    np.testing.assert_array_equal(eg.tensor(big).numpy(), big)
    assert isinstance(eg.backend.memory.stats()["used"], int)
    cp.cuda.set_allocator(cp.get_default_memory_pool().malloc)


def test_random_kernels():
    eg = gpu(123)
    b = eg.backend
    u = host(b.uniform((1 << 20,), -2.0, 3.0))
    assert u.min() >= -2.0 and u.max() < 3.0 and abs(u.mean() - 0.5) < 0.01 and abs(u.std() - 5 / 12 ** 0.5) < 0.01
    g = host(b.gaussian((1 << 20,), 1.0, 2.0))
    assert abs(g.mean() - 1.0) < 0.01 and abs(g.std() - 2.0) < 0.01
    assert abs(np.corrcoef(u[:-1], u[1:])[0, 1]) < 0.01            # neighbouring elements decorrelated
    eg.set_seed(123)
    np.testing.assert_array_equal(host(b.uniform((1 << 20,), -2.0, 3.0)), u)   # same seed, same numbers
    assert not np.array_equal(host(b.uniform((1 << 20,), -2.0, 3.0)), u)      # next call differs


@pytest.mark.parametrize("rule", sorted(OPTIM_RULES))
@pytest.mark.parametrize("variant", ["plain", "decay"])
def test_optim_step_fused(rule, variant):
    bc, bg = both()
    shapes = [(3, 3, 3, 5), (7,), (130, 33), (1,)]
    hp = {"lr": 0.01, "L1": 0.0, "L2": 0.0, "beta": 0.9, "momentum": 0.9, "dampen": 0.1, "nesterov": True,
          "beta1": 0.9, "beta2": 0.999, "beta3": 0.999, "eps": 1e-8, "amsgrad": variant == "decay"}
    if variant == "decay":
        hp.update(L1=1e-3, L2=1e-2, nesterov=False)
    wc = [rand(*s) for s in shapes]
    wg = [dev(w) for w in wc]
    names = state_names(rule, hp["amsgrad"])
    sc = {n: [np.zeros(s, np.float32) for s in shapes] for n in names}
    sg = {n: [dev(a) for a in sc[n]] for n in names}
    for step in range(1, 8):
        gs = [rand(*s) for s in shapes]
        bc.optim_step(rule, wc, gs, sc, dict(hp, step=step))
        bg.optim_step(rule, wg, [dev(g) for g in gs], sg, dict(hp, step=step))
    for i in range(len(shapes)):
        check(f"optim_{rule}_{variant}", f"w{i}", wg[i], wc[i])
        for n in names:
            check(f"optim_{rule}_{variant}", f"{n}{i}", sg[n][i], sc[n][i])


@pytest.mark.parametrize("kind", ["memp1", "memp2", "memp3"])
def test_mempool_cap_on_device(kind):
    cp = require_gpu()
    try:
        pool = getattr(alpha.engine, kind)(64 << 20)
        eg = alpha.engine.cuda_float32(0, pool)
        a = eg.zeros(1024, 1024, 8)                        # 32 MiB
        with pytest.raises(MemoryCapError, match=r"cannot allocate \d+ bytes: \d+ bytes in use.*cap 67108864"):
            eg.zeros(1024, 1024, 10)                       # +40 MiB > 64 MiB cap
        a.delete()
        del a
        b = eg.zeros(1024, 1024, 10)                       # fits once the first block is back
        assert pool.stats()["used"] >= 40 << 20
        # a small net: intermediates go back to the pool at gc()
        net = nn.sequence(nn.conv3D(3, 8, 3, 1, 1), nn.batchNorm_relu(8), nn.flatten(), nn.fullconnect(8 * 64, 10))
        net.init(eg)
        b.delete()
        del b
        y = net.forward(eg.tensor(rand(16, 8, 8, 3)))[0]
        used_graph = pool.stats()["used"]
        net.backward(eg.ones(*y.shape))
        del y
        net.gc()
        for p in net.params():
            p.zero_grad()
        assert pool.stats()["used"] < used_graph
    finally:
        cp.cuda.set_allocator(cp.get_default_memory_pool().malloc)
