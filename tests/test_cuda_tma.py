"""The convolutions whose tiles the TMA brings (kernels/conv_tma.cu, alpha_py/backend/cuda_tma.py): on a Hopper GPU
the same sums bit for bit as conv_wgmma.cu's cp.async kernels (same k-tiles and k-steps) for the bf16 forward, the
stride-1 data gradient and the weight gradient, and the TF32 forward and stride-1 data gradient, over image-tiled and
row-tiled grids, N = 1 (images past N), OC off 64, 1x1 / 3x3 / 5x5 filters, pads 0-2, strides 1 and 2; within the
bf16 / TF32 bound of the fp32 CPU backend; the algorithm choice timing them, and their switch. Skipped without a
Hopper GPU (grids: tests/test_cuda_host.py)."""
import numpy as np
import pytest

from alpha_py import alpha
from cuda_parity import cpu, keep_allocator, rel_err, require_gpu, round_bf16  # noqa: F401 (keep_allocator: autouse)

_EG = {}


def engine(precision):
    """The backend of a Hopper engine in this precision (one per precision), else a skip."""
    require_gpu()
    if precision not in _EG:
        _EG[precision] = alpha.engine.cuda_float32(0, precision=precision)
    bg = _EG[precision].backend
    if not bg.wgmma_ok():
        pytest.skip("TMA + wgmma kernels need compute capability 9.0")
    return bg


def bf16():
    return engine("bf16")


CONVS = [((1, 4, 4, 64), (64, 3, 3), (1, 1), (1, 1)), ((3, 8, 8, 128), (72, 3, 3), (1, 1), (1, 1)),
         ((2, 32, 32, 64), (64, 3, 3), (1, 1), (1, 1)), ((2, 16, 16, 64), (136, 1, 1), (1, 1), (0, 0)),
         ((2, 16, 16, 64), (128, 3, 3), (2, 2), (1, 1)), ((4, 8, 8, 64), (128, 1, 1), (2, 2), (0, 0)),
         ((1, 8, 8, 64), (24, 5, 5), (1, 1), (2, 2)), ((2, 10, 10, 192), (64, 3, 3), (1, 1), (0, 0)),
         ((5, 2, 2, 64), (8, 3, 3), (1, 1), (1, 1)), ((9, 16, 16, 64), (64, 3, 3), (1, 1), (1, 1))]


def _bits(bg, a):
    return bg.to_bf16(bg.from_host(a), pad8=True)


@pytest.mark.parametrize("xs,ws,stride,pad", CONVS)
@pytest.mark.parametrize("bm,bn", [(128, 128), (128, 64), (256, 128), (256, 64)])
@pytest.mark.parametrize("persistent", [True, False])
def test_tma_forward_is_the_wgmma_forward_bit_for_bit(xs, ws, stride, pad, bm, bn, persistent):
    bg, bc = bf16(), cpu().backend
    bg.tma_persistent = persistent
    try:
        _fwd_case(bg, bc, xs, ws, stride, pad, bm, bn)
    finally:
        del bg.tma_persistent


def _fwd_case(bg, bc, xs, ws, stride, pad, bm, bn):
    rng = np.random.default_rng(sum(xs) + sum(ws) + bn)
    x = rng.standard_normal(xs).astype(np.float32)
    w = rng.standard_normal((ws[0], ws[1], ws[2], xs[3])).astype(np.float32)
    xb, wb = _bits(bg, x), _bits(bg, w)
    oh, ow = ((xs[1 + i] + 2 * pad[i] - ws[1 + i]) // stride[i] + 1 for i in (0, 1))
    assert bg.tma_fwd_ok(xs, w.shape, (oh, ow), stride, xb, wb)
    for y_bits in (False, True):
        new = bg.tc_fwd(xb, wb, stride, pad, bm, bn, True, True, y_bits=y_bits, tma=True).get()
        old = bg.tc_fwd(xb, wb, stride, pad, 128, bn, True, True, y_bits=y_bits).get()
        assert new.dtype == (np.uint16 if y_bits else np.float32) and new.shape == (xs[0], oh, ow, ws[0])
        np.testing.assert_array_equal(new, old)
    k = ws[1] * ws[2] * xs[3]
    exact = bc.conv_fwd(round_bf16(x), round_bf16(w), stride, pad)
    widened = (new.astype(np.uint32) << 16).view(np.float32)             # y's bf16 bits as fp32
    assert rel_err(widened, exact) < 1e-5 + 2.0 ** -8 + k * 2.0 ** -24


@pytest.mark.parametrize("xs,ws,pad", [((2, 32, 32, 64), (64, 3, 3), (1, 1)), ((3, 8, 8, 64), (128, 3, 3), (1, 1)),
                                       ((1, 4, 4, 128), (64, 3, 3), (1, 1)), ((2, 9, 9, 64), (64, 3, 3), (0, 0))])
@pytest.mark.parametrize("bm,bn", [(128, 128), (128, 64), (256, 128), (256, 64)])
def test_tma_data_gradient_is_the_wgmma_one_bit_for_bit(xs, ws, pad, bm, bn):
    """Stride 1: gX = the forward of gY (OC % 64 == 0) with the flipped filter, on either kernel."""
    bg = bf16()
    rng = np.random.default_rng(sum(xs) + bn)
    w = bg.from_host(rng.standard_normal((ws[0], ws[1], ws[2], xs[3])).astype(np.float32))
    oh, ow = ((xs[1 + i] + 2 * pad[i] - ws[1 + i]) + 1 for i in (0, 1))
    gy = _bits(bg, rng.standard_normal((xs[0], oh, ow, ws[0])).astype(np.float32))
    if not bg.tma_fwd_ok(gy.shape, (xs[3], ws[1], ws[2], ws[0]), xs[1:3], (1, 1), gy):
        pytest.skip(f"gX grid {xs[1:3]} is not one tma_tiles splits")
    new = bg.tc_bwd_data(gy, w, xs, pad, bm, bn, True, True, (1, 1), tma=True).get()
    old = bg.tc_bwd_data(gy, w, xs, pad, 128, bn, True, True, (1, 1)).get()
    np.testing.assert_array_equal(new, old)


WGRADS = [((2, 16, 16, 64), (64, 3, 3), (1, 1), (1, 1)), ((3, 8, 8, 128), (72, 3, 3), (1, 1), (1, 1)),
          ((1, 4, 4, 64), (8, 3, 3), (1, 1), (1, 1)), ((4, 16, 16, 64), (128, 3, 3), (2, 2), (1, 1)),
          ((4, 8, 8, 64), (128, 1, 1), (2, 2), (0, 0)), ((2, 10, 10, 64), (64, 3, 3), (1, 1), (0, 0)),
          ((2, 32, 32, 64), (64, 3, 3), (1, 1), (1, 1)), ((5, 2, 2, 64), (16, 3, 3), (1, 1), (1, 1))]


@pytest.mark.parametrize("xs,ws,stride,pad", WGRADS)
@pytest.mark.parametrize("bm,bn", [(128, 128), (128, 64), (256, 128), (256, 64)])
def test_tma_weight_gradient_is_the_wgmma_one_bit_for_bit(xs, ws, stride, pad, bm, bn):
    """gW from x's and gY's bits (gY as it is, MN-major), split over slices of 64-row multiples: the same sums as
    conv_wgmma.cu's wgb_conv_wgrad_mn (same k-tiles, same k-steps); within the bf16 bound of the CPU backend."""
    bg, bc = bf16(), cpu().backend
    rng = np.random.default_rng(sum(xs) + sum(ws) + bm + bn)
    x = rng.standard_normal(xs).astype(np.float32)
    w_shape = (ws[0], ws[1], ws[2], xs[3])
    oh, ow = ((xs[1 + i] + 2 * pad[i] - ws[1 + i]) // stride[i] + 1 for i in (0, 1))
    gy = rng.standard_normal((xs[0], oh, ow, ws[0])).astype(np.float32)
    xb, gyb = _bits(bg, x), _bits(bg, gy)
    assert bg.tma_wgrad_ok(xs, ws[0], (oh, ow), stride, xb, gyb)
    new = bg.tc_bwd_filter(xb, gyb, w_shape, stride, pad, bm, bn, True, True, tma=True).get()
    old = bg.tc_bwd_filter(xb, gyb, w_shape, stride, pad, bm, bn, True, True).get()
    np.testing.assert_array_equal(new, old)
    exact = bc.conv_bwd_filter(round_bf16(x), round_bf16(gy), w_shape, stride, pad)
    assert rel_err(new, exact) < 1e-5 + xs[0] * oh * ow * 2.0 ** -24


@pytest.fixture
def cold(tmp_path, monkeypatch):
    """cold(bg): bg with a cold algorithm cache (in tmp_path); its own cache and TMA switch restored afterwards."""
    monkeypatch.setenv("ALPHA_CACHE_DIR", str(tmp_path))
    saved = []

    def make(bg):
        saved.append((bg, getattr(bg, "_algos", None)))
        bg._algos = None
        return bg
    yield make
    for bg, algos in saved:
        bg.__dict__.pop("tma_conv", None)
        bg._algos = algos


def test_the_bf16_algorithm_choice_times_the_tma_kernel_and_its_switch_removes_it(cold):
    bg = cold(bf16())
    rng = np.random.default_rng(5)
    x = bg.from_host(rng.standard_normal((8, 16, 16, 64)).astype(np.float32))
    w = bg.from_host(rng.standard_normal((64, 3, 3, 64)).astype(np.float32))
    bg.conv_fwd(x, w, (1, 1), (1, 1))
    gy = bg.from_host(rng.standard_normal((8, 16, 16, 64)).astype(np.float32))
    bg.conv_bwd_data(gy, w, x.shape, (1, 1), (1, 1))
    bg.conv_bwd_filter(x, gy, w.shape, (1, 1), (1, 1))
    timed = bg._algos.timings
    for what in ("|fwd|", "|bwd_data|", "|bwd_filter|"):
        [times] = [t for k, t in timed.items() if what in k]
        assert {"bf16tma128x128", "bf16tma128x64", "bf16tma256x128", "bf16tma256x64", "bf16wg128x128",
                "bf16wg128x64"} <= set(times), times
    bg.tma_conv = False
    assert not bg.tma_fwd_ok(x.shape, w.shape, (16, 16), (1, 1))
    y = bg.conv_fwd(x, w, (1, 1), (2, 2))                             # a new shape, timed without it
    [times] = [t for k, t in bg._algos.timings.items() if "|fwd|" in k and "(2, 2)|bf16" in k]
    assert y.shape == (8, 18, 18, 64) and not any(n.startswith("bf16tma") for n in times), times


def test_an_output_grid_the_tma_kernel_cannot_tile_is_refused_with_its_reason():
    bg = bf16()
    assert not bg.tma_fwd_ok((2, 7, 7, 64), (64, 3, 3, 64), (7, 7), (1, 1))      # 49 rows per image
    assert not bg.tma_fwd_ok((2, 8, 8, 32), (64, 3, 3, 32), (8, 8), (1, 1))      # k-tiles of 64 channels


def tf32():
    return engine("tf32")


TF32_CONVS = CONVS[:7] + [((2, 8, 8, 96), (40, 3, 3), (1, 1), (1, 1)), ((3, 16, 16, 32), (64, 3, 3), (2, 2), (1, 1))]


@pytest.mark.parametrize("xs,ws,stride,pad", TF32_CONVS)
@pytest.mark.parametrize("bm,bn", [(128, 128), (128, 64), (256, 128), (256, 64)])
def test_tf32_tma_forward_is_the_wgmma_forward_bit_for_bit(xs, ws, stride, pad, bm, bn):
    """fp32 operands in 32-channel k-tiles (IC % 32 == 0): the sums of wg_conv_fwd; within TF32's bound."""
    bg, bc = tf32(), cpu().backend
    rng = np.random.default_rng(sum(xs) + sum(ws) + bn)
    x = rng.standard_normal(xs).astype(np.float32)
    w = rng.standard_normal((ws[0], ws[1], ws[2], xs[3])).astype(np.float32)
    dx, dw = bg.from_host(x), bg.from_host(w)
    oh, ow = ((xs[1 + i] + 2 * pad[i] - ws[1 + i]) // stride[i] + 1 for i in (0, 1))
    assert bg.tma_fwd_ok(xs, w.shape, (oh, ow), stride, dx, dw, bf16=False)
    new = bg.tc_fwd(dx, dw, stride, pad, bm, bn, True, tma=True).get()
    old = bg.tc_fwd(dx, dw, stride, pad, 128, bn, True).get()
    assert new.dtype == np.float32 and new.shape == (xs[0], oh, ow, ws[0])
    np.testing.assert_array_equal(new, old)
    assert rel_err(new, bc.conv_fwd(x, w, stride, pad)) < 3e-3


@pytest.mark.parametrize("xs,ws,pad", [((2, 32, 32, 32), (64, 3, 3), (1, 1)), ((3, 8, 8, 64), (96, 3, 3), (1, 1)),
                                       ((2, 8, 8, 64), (32, 3, 3), (0, 0))])
@pytest.mark.parametrize("bm,bn", [(128, 128), (256, 64)])
def test_tf32_tma_data_gradient_is_the_wgmma_one_bit_for_bit(xs, ws, pad, bm, bn):
    bg = tf32()
    rng = np.random.default_rng(sum(xs) + bn)
    w = bg.from_host(rng.standard_normal((ws[0], ws[1], ws[2], xs[3])).astype(np.float32))
    oh, ow = ((xs[1 + i] + 2 * pad[i] - ws[1 + i]) + 1 for i in (0, 1))
    gy = bg.from_host(rng.standard_normal((xs[0], oh, ow, ws[0])).astype(np.float32))
    assert bg.tma_fwd_ok(gy.shape, (xs[3], ws[1], ws[2], ws[0]), xs[1:3], (1, 1), gy, bf16=False)
    new = bg.tc_bwd_data(gy, w, xs, pad, bm, bn, True, False, (1, 1), tma=True).get()
    old = bg.tc_bwd_data(gy, w, xs, pad, 128, bn, True, False, (1, 1)).get()
    np.testing.assert_array_equal(new, old)


def test_the_tf32_algorithm_choice_times_the_tma_kernel_and_its_switch_removes_it(cold):
    bg = cold(tf32())
    rng = np.random.default_rng(6)
    x = bg.from_host(rng.standard_normal((8, 16, 16, 32)).astype(np.float32))
    w = bg.from_host(rng.standard_normal((64, 3, 3, 32)).astype(np.float32))
    gy = bg.from_host(rng.standard_normal((8, 16, 16, 64)).astype(np.float32))
    y = bg.conv_fwd(x, w, (1, 1), (1, 1))
    gx = bg.conv_bwd_data(gy, w, x.shape, (1, 1), (1, 1))
    for what in ("|fwd|", "|bwd_data|"):
        [times] = [t for k, t in bg._algos.timings.items() if what in k]
        assert {"tma128x128", "tma128x64", "tma256x128", "tma256x64", "wg128x128", "tc128x128"} <= set(times)
    for name in ("tma128x64", "wg128x64"):                            # a memoised TMA choice runs it again
        bg._algos.memo.clear()
        bg._algos.known, bg._algos._choice = {}, {k: name for k in bg._algos.timings}
        np.testing.assert_array_equal(bg.conv_fwd(x, w, (1, 1), (1, 1)).get(), y.get())
        np.testing.assert_array_equal(bg.conv_bwd_data(gy, w, x.shape, (1, 1), (1, 1)).get(), gx.get())
        assert bg.last_conv_algo == name
    bg.tma_conv = False
    bg.conv_fwd(x, w, (1, 1), (2, 2))                                   # a new shape, timed without it
    [times] = [t for k, t in bg._algos.timings.items() if "|fwd|" in k and "(2, 2)|tf32" in k]
    assert "wg128x128" in times and not any(n.startswith("tma") for n in times), times
