"""GPU parity of the bf16 primitives (kernels/gemm_bf16.cu through matmul and the Linear unit) against the fp32
CPU backend, over odd shapes, with bounds derived from bf16's 8-bit significand; the precision switch and the
refusals of units without bf16 kernels. Skipped without CuPy or a GPU."""
import numpy as np
import pytest

from alpha_py import alpha
from alpha_py.errors import ArgumentError
from cuda_parity import ERRORS, cpu, host, keep_allocator, rel_err, require_gpu, round_bf16  # noqa: F401 (keep_allocator: autouse)

pytestmark = pytest.mark.gpu
U = 2.0 ** -8           # unit roundoff of bf16 (8-bit significand, round to nearest)
_EG = {}


def bf16(seed=0):
    require_gpu()
    if "bf16" not in _EG:
        _EG["bf16"] = alpha.engine.cuda_float32(0, precision="bf16")
    return _EG["bf16"].set_seed(seed)


def bound(k):
    """Norm-wise relative error of a k-long fp32-accumulated dot of bf16-rounded operands: each product carries
    at most 2u (both operands rounded), the fp32 sum adds at most k * 2^-24; a factor 2 of slack."""
    return 2 * (2 * U + k * 2.0 ** -24)


SHAPES = [(1, 1, 1), (1, 37, 5), (3, 17, 9), (64, 64, 64), (65, 130, 33), (127, 16, 200), (1, 1000, 10),
          (257, 301, 129), (64, 3136, 128), (3, 4001, 7),          # long k on few 64x64 tiles: split over blocks
          (2048, 64, 1152), (2047, 77, 1031), (1536, 100, 2048)]    # last three: 128x128 tiles


@pytest.mark.parametrize("m,k,n", SHAPES)
@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_matmul_bf16_parity(m, k, n, ta, tb):
    rng = np.random.default_rng(m * 1000 + k * 10 + n)
    a = rng.standard_normal((k, m) if ta else (m, k)).astype(np.float32)
    b = rng.standard_normal((n, k) if tb else (k, n)).astype(np.float32)
    bg, bc = bf16().backend, cpu().backend
    got = bg.matmul(bg.from_host(a), bg.from_host(b), ta, tb)
    ref = bc.matmul(a, b, ta, tb)
    e = rel_err(got, ref)
    ERRORS.append((f"bf16 matmul {m}x{k}x{n} ta={ta} tb={tb}", "out", e))
    assert e < bound(k), f"relative error {e:.3g} >= {bound(k):.3g}"
    if k >= 16:     # the operands really were rounded to bf16 (an fp32 GEMM lands near 1e-7)
        assert e > 1e-4, f"relative error {e:.3g}: no bf16 rounding seen"
    exact = bc.matmul(round_bf16(a), round_bf16(b), ta, tb)   # same rounding on the CPU: fp32-close
    assert rel_err(got, exact) < 1e-5 + k * 2.0 ** -24


def test_matmul_bf16_splits_a_long_k_over_blocks():
    """[64, 3136] @ [3136, 128] (a fullconnect with a large fan-in at batch 64) fills two 64x64 tiles: its k is split
    over slices (grid z) summed in order, the same bits on every call."""
    bg = bf16().backend
    rng = np.random.default_rng(5)
    a, b = (bg.from_host(rng.standard_normal(s).astype(np.float32)) for s in ((64, 3136), (3136, 128)))
    grids, kernel = [], bg.kernel

    def spy(fam, name, smem=0):
        k = kernel(fam, name, smem)
        return lambda grid, block, args, **kw: grids.append((name, grid)) or k(grid, block, args, **kw)
    bg.kernel = spy
    try:
        first = host(bg.matmul(a, b))
    finally:
        del bg.kernel
    assert grids[0][0] == "gemm_bf16_64x64" and grids[0][1][2] > 1, grids
    np.testing.assert_array_equal(host(bg.matmul(a, b)), first)


# (N, H, W, IC), (OC, FH, FW), stride, pad: N = 1, channels not multiples of 4/8/16, odd H/W, strides 1/2
CONVS = [((1, 5, 5, 3), (4, 3, 3), (1, 1), (1, 1)), ((2, 9, 7, 5), (7, 3, 3), (2, 2), (1, 1)),
         ((3, 8, 8, 16), (32, 3, 3), (1, 1), (1, 1)), ((2, 11, 11, 12), (20, 3, 3), (2, 2), (1, 1)),
         ((4, 8, 8, 64), (128, 1, 1), (2, 2), (0, 0)), ((1, 7, 9, 17), (33, 5, 3), (1, 2), (2, 1)),
         ((16, 16, 16, 64), (64, 3, 3), (1, 1), (1, 1)), ((8, 16, 16, 128), (256, 3, 3), (2, 2), (1, 1))]


@pytest.mark.parametrize("xs,ws,stride,pad", CONVS)
def test_conv_bf16_parity(xs, ws, stride, pad):
    """Forward (reduces FH*FW*IC), backward-data (FH*FW*OC / stride^2 terms) and backward-filter (N*OH*OW)."""
    rng = np.random.default_rng(sum(xs) + sum(ws))
    x = rng.standard_normal(xs).astype(np.float32)
    w = rng.standard_normal((ws[0], ws[1], ws[2], xs[3])).astype(np.float32)
    bg, bc = bf16().backend, cpu().backend
    y = bc.conv_fwd(x, w, stride, pad)
    gy = rng.standard_normal(y.shape).astype(np.float32)
    cases = [("fwd", bg.conv_fwd(bg.from_host(x), bg.from_host(w), stride, pad), y, ws[1] * ws[2] * xs[3]),
             ("bwd_data", bg.conv_bwd_data(bg.from_host(gy), bg.from_host(w), xs, stride, pad),
              bc.conv_bwd_data(gy, w, xs, stride, pad), ws[1] * ws[2] * ws[0]),
             ("bwd_filter", bg.conv_bwd_filter(bg.from_host(x), bg.from_host(gy), w.shape, stride, pad),
              bc.conv_bwd_filter(x, gy, w.shape, stride, pad), y.shape[0] * y.shape[1] * y.shape[2])]
    for what, got, ref, k in cases:
        e = rel_err(got, ref)
        ERRORS.append((f"bf16 conv {xs} {ws} s{stride} p{pad}", what, e))
        assert e < bound(k), f"{what}: relative error {e:.3g} >= {bound(k):.3g}"
        assert e > 1e-4, f"{what}: relative error {e:.3g}: no bf16 rounding seen"


# N = 1, odd H/W, strides 1/2, split-K wgrad; IC 3 and 5: zero-padded to 8 channels when cast
WG_CONVS = [((1, 5, 7, 8), (8, 3, 3), (1, 1), (1, 1)), ((3, 9, 9, 24), (40, 3, 3), (2, 2), (1, 1)),
            ((2, 9, 9, 3), (16, 3, 3), (1, 1), (1, 1)), ((1, 6, 5, 5), (24, 3, 3), (2, 2), (1, 1)),
            ((2, 16, 16, 64), (136, 3, 3), (1, 1), (1, 1)), ((4, 8, 8, 64), (128, 1, 1), (2, 2), (0, 0)),
            ((1, 7, 9, 16), (72, 5, 3), (1, 2), (2, 1)), ((16, 32, 32, 64), (64, 3, 3), (1, 1), (1, 1))]


@pytest.mark.parametrize("xs,ws,stride,pad", WG_CONVS)
@pytest.mark.parametrize("bn", [128, 64])
def test_conv_bf16_wgmma_kernels(xs, ws, stride, pad, bn):
    """kernels/conv_wgmma.cu's bf16 forward / backward-data (stride > 1: over the phases) / backward-filter: within
    the bf16 bound of the fp32 CPU backend, and fp32-close to it on operands rounded to bf16 on the host."""
    bg, bc = bf16().backend, cpu().backend
    if not bg.wgmma_ok():
        pytest.skip("wgmma kernels need compute capability 9.0")
    rng = np.random.default_rng(sum(xs) + sum(ws) + bn)
    x = rng.standard_normal(xs).astype(np.float32)
    w = rng.standard_normal((ws[0], ws[1], ws[2], xs[3])).astype(np.float32)
    y = bc.conv_fwd(x, w, stride, pad)
    gy = rng.standard_normal(y.shape).astype(np.float32)
    xr, wr, gyr = round_bf16(x), round_bf16(w), round_bf16(gy)
    dx, dw, dgy = bg.from_host(x), bg.from_host(w), bg.from_host(gy)
    cases = [("fwd", bg.tc_fwd(dx, dw, stride, pad, 128, bn, True, True), y, bc.conv_fwd(xr, wr, stride, pad),
              ws[1] * ws[2] * xs[3]),
             ("bwd_filter", bg.tc_bwd_filter(dx, dgy, w.shape, stride, pad, 128, bn, True, True),
              bc.conv_bwd_filter(x, gy, w.shape, stride, pad), bc.conv_bwd_filter(xr, gyr, w.shape, stride, pad),
              y.shape[0] * y.shape[1] * y.shape[2])]
    if ws[0] % 8 == 0 and bg.tc_bwd_data_ok(dgy, dw, stride, pad):
        cases.append(("bwd_data", bg.tc_bwd_data(dgy, dw, xs, pad, 128, bn, True, True, stride),
                      bc.conv_bwd_data(gy, w, xs, stride, pad), bc.conv_bwd_data(gyr, wr, xs, stride, pad),
                      ws[1] * ws[2] * ws[0]))
    for what, got, ref, exact, k in cases:
        e = rel_err(got, ref)
        ERRORS.append((f"bf16 wgmma n{bn} conv {xs} {ws} s{stride} p{pad}", what, e))
        assert e < bound(k), f"{what}: relative error {e:.3g} >= {bound(k):.3g}"
        assert e > 1e-4, f"{what}: relative error {e:.3g}: no bf16 rounding seen"
        assert rel_err(got, exact) < 1e-5 + k * 2.0 ** -24, f"{what}: not the bf16-rounded product"


@pytest.mark.parametrize("xs,ws,stride,pad", WG_CONVS + [((3, 20, 20, 32), (40, 3, 3), (1, 1), (1, 1))])
@pytest.mark.parametrize("bm,bn", [(128, 128), (128, 64), (256, 128), (256, 64)])
def test_bf16_weight_gradient_reads_gy_untransposed(xs, ws, stride, pad, bm, bn):
    """The bf16 bwd-filter reading gY's bf16 bits as they are (MN-major wgmma operands, wgb_conv_wgrad_mn, tiles of
    128 or 256 filter positions) gives the sums of the kernel on gY transposed (bf16_wgrad_mn = False)."""
    bg = bf16().backend
    if not bg.wgmma_ok():
        pytest.skip("wgmma kernels need compute capability 9.0")
    rng = np.random.default_rng(sum(xs) + sum(ws) + bn + 1)
    x = bg.from_host(rng.standard_normal(xs).astype(np.float32))
    oh = (xs[1] + 2 * pad[0] - ws[1]) // stride[0] + 1
    ow = (xs[2] + 2 * pad[1] - ws[2]) // stride[1] + 1
    w_shape = (ws[0], ws[1], ws[2], xs[3])
    gy = bg.from_host(rng.standard_normal((xs[0], oh, ow, ws[0])).astype(np.float32))
    new = bg.to_host(bg.tc_bwd_filter(x, gy, w_shape, stride, pad, bm, bn, True, True))
    assert bg.twin_of(gy) is not None                  # its cast, kept for the bwd-data that follows
    bg.bf16_wgrad_mn = False
    try:
        old = bg.to_host(bg.tc_bwd_filter(x, gy, w_shape, stride, pad, 128, bn, True, True))
    finally:
        del bg.bf16_wgrad_mn
    np.testing.assert_allclose(new, old, rtol=0, atol=1e-5 * float(np.abs(old).max()))


@pytest.mark.parametrize("oc", [16, 12])
def test_the_flipped_filter_comes_as_bf16_bits_in_one_pass(oc):
    """The stride-1 bwd-data's flipped filter in bf16 (flip_filter_bf16): the bits cast_bf16 gives the fp32 flip;
    output channels not a multiple of 8 keep the fp32 flip (cast with zero-padding later)."""
    bg = bf16().backend
    w = bg.from_host(np.random.default_rng(oc).standard_normal((oc, 3, 3, 8)).astype(np.float32))
    got = bg._flipped(w, True)
    flip = bg._flipped(w)
    if oc % 8:
        assert got.dtype == np.float32
        np.testing.assert_array_equal(bg.to_host(got), bg.to_host(flip))
    else:
        assert got.dtype == np.uint16 and got.shape == (8, 3, 3, oc)
        np.testing.assert_array_equal(got.get(), bg.to_bf16(flip).get())


def test_conv_bf16_dispatch_picks_a_candidate():
    """bf16 conv_fwd / bwd passes on Hopper choose among the mma.sync and wgmma kernels (timed once per shapes)."""
    bg = bf16().backend
    x = bg.from_host(np.random.default_rng(1).standard_normal((4, 8, 8, 32)).astype(np.float32))
    w = bg.from_host(np.random.default_rng(2).standard_normal((64, 3, 3, 32)).astype(np.float32))
    bg.conv_fwd(x, w, (1, 1), (1, 1))
    names = {"bf16mma"} | ({"bf16wg128x128", "bf16wg128x64"} if bg.wgmma_ok() else set())
    assert bg.last_conv_algo in names
    gy = bg.from_host(np.ones((2, 8, 8, 12), np.float32))     # OC = 12: only the mma.sync kernel gathers it
    bg.conv_bwd_data(gy, bg.from_host(np.ones((12, 3, 3, 8), np.float32)), (2, 8, 8, 8), (1, 1), (1, 1))
    assert bg.last_conv_algo == "bf16mma"


def test_conv_unit_reuses_its_forward_bf16_cast_for_the_weight_gradient():
    """Conv3D in training keeps the forward's bf16 cast of x for gW: the same gradient as a fresh cast, bit for
    bit; conv_bwd_filter refuses an x_bf16 that is not x's cast."""
    eg = bf16(4)
    bg = eg.backend
    if not bg.wgmma_ok():
        pytest.skip("the kept cast exists on the wgmma kernels (compute capability 9.0)")
    rng = np.random.default_rng(4)
    u = alpha.nn.conv3D(True, 12, 24, 3, 1, 1)
    u.init(eg)
    x = rng.standard_normal((3, 9, 9, 12)).astype(np.float32)
    y = u.forward(eg.tensor(x).need_grad(True))[0]
    gy = rng.standard_normal(y.shape).astype(np.float32)
    u.backward(eg.tensor(gy))
    gw = bg.to_host(u.weight().grad_data)
    fresh = bg.to_host(bg.conv_bwd_filter(bg.from_host(x), bg.from_host(gy), u.weight().shape, (1, 1), (1, 1)))
    if bg.last_conv_algo.startswith("bf16wg"):
        np.testing.assert_array_equal(gw, fresh)
    with pytest.raises(ArgumentError, match="x_bf16 .* is not the bf16 cast of x"):
        bg.conv_bwd_filter(bg.from_host(x), bg.from_host(gy), u.weight().shape, (1, 1), (1, 1),
                           x_bf16=bg.from_host(np.zeros((3, 9, 9, 12), np.uint16)))

@pytest.mark.parametrize("n,fin,fout", [(1, 3, 5), (7, 33, 17), (64, 100, 10), (5, 1000, 3)])
def test_linear_unit_bf16_parity(n, fin, fout):
    """Forward, input gradient and weight/bias gradients of Linear in bf16 against the fp32 CPU engine:
    forward reduces over fin, grad_x over fout, grad_W over the batch n."""
    ec, eg = cpu(3), bf16(3)
    rng = np.random.default_rng(n + fin + fout)
    uc, ug = alpha.nn.fullconnect(True, fin, fout), alpha.nn.fullconnect(True, fin, fout)
    uc.init(ec)
    ug.init(eg)
    for pc, pg in zip(uc.state_map().values(), ug.state_map().values()):
        pg.data = eg.backend.from_host(pc.numpy())
    x = rng.standard_normal((n, fin)).astype(np.float32)
    yc, yg = uc.forward(ec.tensor(x).need_grad(True))[0], ug.forward(eg.tensor(x).need_grad(True))[0]
    assert rel_err(yg.numpy(), yc.numpy()) < bound(fin)
    r = rng.standard_normal(yc.shape).astype(np.float32)
    gc, gg = uc.backward(ec.tensor(r))[0], ug.backward(eg.tensor(r))[0]
    assert rel_err(gg.numpy(), gc.numpy()) < bound(fout)
    for (name, pc), pg in zip(uc.state_map().items(), ug.state_map().values()):
        if pc.grad_data is not None:
            assert rel_err(pg.grad_data, pc.grad_data) < bound(n), name
            assert pg.grad_data.dtype == np.float32         # master gradients / weights stay fp32


def test_precision_switch_and_refusals():
    eg = bf16()
    assert eg.precision() == "bf16" and not eg.backend.tf32
    x = eg.backend.from_host(np.ones((1, 5, 5, 3), np.float32))
    with pytest.raises(ArgumentError, match="dwconv_fwd .*no bf16 kernels yet"):
        eg.backend.dwconv_fwd(x, eg.backend.from_host(np.ones((3, 3, 3), np.float32)), (1, 1), (1, 1))
    with pytest.raises(ArgumentError, match="matmul_nd"):
        eg.backend.matmul_nd(eg.backend.from_host(np.ones((2, 3, 4), np.float32)),
                             eg.backend.from_host(np.ones((2, 4, 5), np.float32)))
    with pytest.raises(ArgumentError, match=r"unknown precision 'fp16'; expected one of \['fp32', 'tf32', 'bf16'\]"):
        eg.precision("fp16")
    assert eg.precision() == "bf16"
    e2 = alpha.engine.cuda_float32(0, tf32=True)
    assert e2.precision() == "tf32" and e2.backend.tf32
    assert e2.precision("fp32").precision() == "fp32" and not e2.backend.tf32
    with pytest.raises(ArgumentError, match="contradicts"):
        alpha.engine.cuda_float32(0, tf32=True, precision="bf16")


def test_bf16_captured_step_equals_op_by_op_and_checkpoint_state_is_fp32():
    """A bf16 net (conv + BN + Linear) trained by alpha.train_step: the captured, replayed step computes what the
    op-by-op step computes, bit for bit; parameters and optimizer state stay fp32 (the checkpoint format)."""
    from test_cuda_graph import data, make_net, state, train
    eg = bf16(3)
    batches = data(eg, [32] * 5)
    nets = []
    for graph in (False, True):
        net = make_net(eg)
        opt = alpha.optim.Adam(net.params(), 1e-2)
        losses, step = train(eg, net, opt, batches, graph)
        nets.append((losses, state(net, opt), step.stats()))
    (l0, s0, _), (l1, s1, st1) = nets
    assert st1["captures"] == 1 and st1["replays"] == 4, st1
    assert l1 == l0
    assert all(np.array_equal(s0[k], s1[k]) for k in s0)
    assert all(v.dtype in (np.float32, np.float64) for v in s1.values())


def test_nccl_all_reduce_wire_bf16_rounds_once_and_fp32_is_exact():
    """A one-rank NCCL communicator: the bf16 wire returns each gradient value rounded to bf16 (nearest even, as
    the conv operands are), the fp32 wire returns it unchanged; an unknown wire is refused by name."""
    require_gpu()
    import cupy
    from alpha_py.distributed.nccl import NcclAllReduce, new_unique_id
    eg = alpha.engine.cuda_float32(0)
    rng = np.random.default_rng(3)
    g = np.concatenate([rng.standard_normal(1001).astype(np.float32) * 1e-3, [0.0, -0.0, 1.0 + 2 ** -9]])
    g = g.astype(np.float32)
    bits = g.view(np.uint32)
    want = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16).astype(np.uint32).view(np.float32)   # RNE
    for wire, expect in (("fp32", g), ("bf16", want)):
        comm = NcclAllReduce(new_unique_id(), 0, 1, wire=wire)
        try:
            out = cupy.asnumpy(comm.allreduce_mean(eg.backend, cupy.asarray(g)))
        finally:
            comm.close()
        assert out.dtype == np.float32 and np.array_equal(out, expect), wire
    with pytest.raises(ArgumentError, match="wire 'fp16'"):
        NcclAllReduce(new_unique_id(), 0, 1, wire="fp16")
