"""GPU parity of the convolution algorithms against the CPU backend, each algorithm forced (Winograd F(2x2,3x3),
every implicit-GEMM tile shape, the pipelined TF32 tensor-core kernels) over odd shapes: N = 1, channels off
4/8/32, odd H/W, pads 0/1/2, strides 1/2, batch 1 and 512; the per-shape algorithm choice through the backend
(cold, warm and corrupt cache file). Skipped without CuPy or a GPU."""
import json
import warnings

import numpy as np
import pytest

from cuda_parity import check, cpu, gpu, host, require_gpu

pytestmark = pytest.mark.gpu
RNG = np.random.RandomState(23)
# (x shape NHWC, out channels, pad): stride 1, 3x3 — the Winograd cases
WINO_CASES = [
    ((1, 5, 7, 3), 5, 1), ((2, 9, 6, 13), 37, 1), ((3, 8, 8, 64), 64, 1), ((1, 1, 1, 8), 4, 1),
    ((2, 7, 5, 33), 65, 0), ((1, 6, 9, 17), 9, 2), ((4, 16, 16, 40), 33, 1), ((2, 3, 11, 1), 2, 2),
    ((512, 4, 4, 36), 20, 1),
]


def _data(xs, oc, fh=3):
    x = RNG.randn(*xs).astype(np.float32)
    w = (RNG.randn(oc, fh, fh, xs[3]) / np.sqrt(fh * fh * xs[3])).astype(np.float32)
    return x, w


@pytest.mark.parametrize("xs,oc,pad", WINO_CASES)
def test_winograd_matches_cpu(xs, oc, pad):
    bc, bg = cpu().backend, gpu().backend
    x, w = _data(xs, oc)
    p = (pad, pad)
    yc = bc.conv_fwd(x, w, (1, 1), p)
    gy = RNG.randn(*yc.shape).astype(np.float32)
    dx, dw, dgy = bg.from_host(x), bg.from_host(w), bg.from_host(gy)
    check("wino_fwd", str(xs), bg.wino_fwd(dx, dw, p), yc, 1e-5)
    check("wino_bwd_data", str(xs), bg.wino_bwd_data(dgy, dw, xs, p), bc.conv_bwd_data(gy, w, xs, (1, 1), p), 1e-5)
    check("wino_bwd_filter", str(xs), bg.wino_bwd_filter(dx, dgy, w.shape, p),
          bc.conv_bwd_filter(x, gy, w.shape, (1, 1), p), 1e-5)


def test_winograd_asymmetric_pad_and_every_output_written():
    bc, bg = cpu().backend, gpu().backend
    x, w = _data((2, 7, 8, 12), 10)
    p = (0, 2)
    yc = bc.conv_fwd(x, w, (1, 1), p)
    y = host(bg.wino_fwd(bg.from_host(x), bg.from_host(w), p))
    assert y.shape == yc.shape and np.isfinite(y).all()
    check("wino_fwd", "pad (0, 2)", y, yc, 1e-5)
    gy = RNG.randn(*yc.shape).astype(np.float32)
    check("wino_bwd_data", "pad (0, 2)", bg.wino_bwd_data(bg.from_host(gy), bg.from_host(w), x.shape, p),
          bc.conv_bwd_data(gy, w, x.shape, (1, 1), p), 1e-5)


@pytest.mark.parametrize("xs,oc,stride,pad", [((1, 9, 7, 3), 5, (2, 2), (1, 1)), ((3, 8, 8, 12), 7, (1, 1), (1, 1)),
                                              ((2, 10, 6, 9), 17, (2, 1), (0, 1))])
@pytest.mark.parametrize("tiles", [(128, 128), (128, 64), (64, 128), (64, 64)])
def test_every_gemm_tile_matches_cpu(xs, oc, stride, pad, tiles):
    bc, bg = cpu().backend, gpu().backend
    x, w = _data(xs, oc)
    yc = bc.conv_fwd(x, w, stride, pad)
    gy = RNG.randn(*yc.shape).astype(np.float32)
    dx, dw, dgy = bg.from_host(x), bg.from_host(w), bg.from_host(gy)
    check("gemm_fwd", str(tiles), bg._gemm_fwd(dx, dw, stride, pad, yc.shape[1:3], *tiles), yc)
    check("gemm_bwd_data", str(tiles), bg._gemm_bwd_data(dgy, dw, xs, stride, pad, *tiles),
          bc.conv_bwd_data(gy, w, xs, stride, pad))
    check("gemm_bwd_filter", str(tiles), bg._gemm_bwd_filter(dx, dgy, w.shape, stride, pad, *tiles),
          bc.conv_bwd_filter(x, gy, w.shape, stride, pad))


TF32_TOL = 3e-3
TC_CASES = [  # (x shape, out channels, stride, pad): input channels a multiple of 4 (16-byte chunks)
    ((1, 5, 7, 4), 5, (1, 1), (1, 1)), ((2, 9, 6, 12), 37, (1, 1), (0, 0)), ((3, 8, 8, 64), 64, (1, 1), (2, 2)),
    ((2, 11, 9, 8), 20, (2, 2), (1, 1)), ((2, 7, 7, 36), 12, (2, 1), (0, 1)), ((512, 4, 4, 32), 40, (1, 1), (1, 1)),
    ((1, 1, 1, 4), 8, (1, 1), (1, 1)),
]


@pytest.mark.parametrize("xs,oc,stride,pad", TC_CASES)
@pytest.mark.parametrize("tiles", [(128, 128), (128, 64), (64, 128), (64, 64)])
@pytest.mark.parametrize("fhw", [3, 1])
def test_tc_kernels_match_cpu(xs, oc, stride, pad, tiles, fhw):
    if fhw == 1:
        pad = (0, 0)
    bc, bg = cpu().backend, gpu().backend
    x, w = _data(xs, oc, fhw)
    yc = bc.conv_fwd(x, w, stride, pad)
    gy = RNG.randn(*yc.shape).astype(np.float32)
    dx, dw, dgy = bg.from_host(x), bg.from_host(w), bg.from_host(gy)
    check("tc_fwd", f"{xs}{tiles}", bg.tc_fwd(dx, dw, stride, pad, *tiles), yc, TF32_TOL)
    if oc % 4 == 0:
        check("tc_bwd_filter", f"{xs}{tiles}", bg.tc_bwd_filter(dx, dgy, w.shape, stride, pad, *tiles),
              bc.conv_bwd_filter(x, gy, w.shape, stride, pad), TF32_TOL)
        if bg.tc_bwd_data_ok(dgy, dw, stride, pad):
            check("tc_bwd_data", f"{xs}{tiles}", bg.tc_bwd_data(dgy, dw, xs, pad, *tiles, stride=stride),
                  bc.conv_bwd_data(gy, w, xs, stride, pad), TF32_TOL)


@pytest.mark.parametrize("xs,oc,stride,pad", TC_CASES)
@pytest.mark.parametrize("bn", [128, 64])
def test_wgmma_kernels_match_cpu(xs, oc, stride, pad, bn):
    bc, bg = cpu().backend, gpu().backend
    if not bg.wgmma_ok():
        pytest.skip("wgmma kernels need a Hopper GPU (compute capability 9.0)")
    x, w = _data(xs, oc)
    yc = bc.conv_fwd(x, w, stride, pad)
    dx, dw = bg.from_host(x), bg.from_host(w)
    check("wg_fwd", f"{xs} n{bn}", bg.tc_fwd(dx, dw, stride, pad, 128, bn, wgmma=True), yc, TF32_TOL)
    gy = RNG.randn(*yc.shape).astype(np.float32)
    if oc % 4 == 0 and bg.tc_bwd_data_ok(dx, dw, stride, pad):
        check("wg_bwd_data", f"{xs} n{bn}", bg.tc_bwd_data(bg.from_host(gy), dw, xs, pad, 128, bn, wgmma=True,
                                                                    stride=stride),
              bc.conv_bwd_data(gy, w, xs, stride, pad), TF32_TOL)
    if oc % 4 == 0:
        check("wg_bwd_filter", f"{xs} n{bn}", bg.tc_bwd_filter(dx, bg.from_host(gy), w.shape, stride, pad, 128, bn,
                                                               wgmma=True),
              bc.conv_bwd_filter(x, gy, w.shape, stride, pad), TF32_TOL)


WGRAD_X_CASES = [c + (3,) for c in TC_CASES] + [((8, 16, 16, 64), 136, (1, 1), (1, 1), 3),
                                                  ((4, 8, 8, 64), 128, (2, 2), (0, 0), 1),
                                                  ((2, 9, 9, 36), 20, (1, 1), (0, 0), 1)]


@pytest.mark.parametrize("xs,oc,stride,pad,f", WGRAD_X_CASES)
@pytest.mark.parametrize("bn,stages", [(128, 3), (128, 2), (64, 3), (64, 2)])
def test_tf32_weight_gradient_reads_gy_untransposed(xs, oc, stride, pad, f, bn, stages):
    """wg_conv_wgrad_x (gY as it is, the X windows transposed tile by tile in shared memory, every staging depth) gives
    the sums of the wgmma kernel on gY transposed beforehand (tf32_wgrad_mn = False)."""
    bc, bg = cpu().backend, gpu().backend
    if not bg.wgmma_ok():
        pytest.skip("wgmma kernels need a Hopper GPU (compute capability 9.0)")
    if oc % 4:
        pytest.skip("the tensor-core weight gradient needs output channels % 4 == 0")
    x, w = _data(xs, oc, f)
    gy = RNG.randn(*bc.conv_fwd(x, w, stride, pad).shape).astype(np.float32)
    dx, dgy = bg.from_host(x), bg.from_host(gy)
    bg.tf32_wgrad_stages, bg.tf32_wgrad_mn = {bn: stages}, True       # (the default takes it for 1x1 filters only)
    try:
        new = host(bg.tc_bwd_filter(dx, dgy, w.shape, stride, pad, 128, bn, wgmma=True))
        bg.tf32_wgrad_mn = False
        old = host(bg.tc_bwd_filter(dx, dgy, w.shape, stride, pad, 128, bn, wgmma=True))
    finally:
        del bg.tf32_wgrad_stages
        bg.__dict__.pop("tf32_wgrad_mn", None)
    np.testing.assert_allclose(new, old, rtol=0, atol=1e-5 * float(np.abs(old).max()))
    check("wg_bwd_filter_x", f"{xs} f{f} n{bn} s{stages}", new, bc.conv_bwd_filter(x, gy, w.shape, stride, pad),
          TF32_TOL)


def test_tf32_weight_gradient_reads_gy_as_it_is_for_1x1_filters_only(monkeypatch):
    """The default (tf32_wgrad_mn = "1x1"): 1x1 filters run wg_conv_wgrad_x, 3x3 ones transpose gY first."""
    bg = gpu().backend
    if not bg.wgmma_ok():
        pytest.skip("wgmma kernels need a Hopper GPU (compute capability 9.0)")
    names, kernel = [], bg.kernel
    monkeypatch.setattr(bg, "kernel", lambda fam, name, smem=0: names.append(name) or kernel(fam, name, smem))
    for f in (1, 3):
        x, w = _data((2, 8, 8, 16), 32, f)
        gy = bg.from_host(RNG.randn(2, 8, 8, 32).astype(np.float32))
        bg.tc_bwd_filter(bg.from_host(x), gy, w.shape, (1, 1), (f // 2, f // 2), 128, 64, wgmma=True)
    assert "wg_conv_wgrad_x_n64_s3" in names and "transpose_pad" in names and "wg_conv_wgrad_n64" in names


def test_tf32_dispatch_times_tensor_core_candidates(fresh_cache):
    bg, path = fresh_cache
    bc = cpu().backend
    saved = bg.tf32
    bg.tf32 = True
    try:
        x, w = _data((8, 10, 10, 16), 24)
        y, gx, gw = _run_all_passes(bg, bg.from_host(x), bg.from_host(w))
        check("tf32 autotuned fwd", "", y, bc.conv_fwd(x, w, (1, 1), (1, 1)), TF32_TOL)
        yh = host(y)
        check("tf32 autotuned bwd_data", "", gx, bc.conv_bwd_data(yh, w, x.shape, (1, 1), (1, 1)), TF32_TOL)
        check("tf32 autotuned bwd_filter", "", gw, bc.conv_bwd_filter(x, yh, w.shape, (1, 1), (1, 1)), TF32_TOL)
        for times in bg._algos.timings.values():
            assert {"tc128x128", "winograd", "gemm64x64"} <= set(times), times
        assert all(k.endswith("|tf32ks2") for k in json.loads(path.read_text())["choices"])
    finally:
        bg.tf32 = saved


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    """A CUDA engine whose algorithm cache lives in tmp_path (cold), restored afterwards."""
    require_gpu()
    monkeypatch.setenv("ALPHA_CACHE_DIR", str(tmp_path))
    bg = gpu().backend
    saved = getattr(bg, "_algos", None)
    bg._algos = None
    yield bg, tmp_path / "conv_algo.json"
    bg._algos = saved


def _run_all_passes(bg, x, w, stride=(1, 1), pad=(1, 1)):
    y = bg.conv_fwd(x, w, stride, pad)
    return y, bg.conv_bwd_data(y, w, x.shape, stride, pad), bg.conv_bwd_filter(x, y, w.shape, stride, pad)


def test_algorithm_cache_cold_warm_corrupt(fresh_cache):
    bg, path = fresh_cache
    bc = cpu().backend
    x, w = _data((4, 12, 12, 16), 24)
    out = _run_all_passes(bg, bg.from_host(x), bg.from_host(w))            # cold: times, writes the file
    yc = bc.conv_fwd(x, w, (1, 1), (1, 1))
    check("autotuned fwd", "cold", out[0], yc)
    check("autotuned bwd_filter", "cold", out[2], bc.conv_bwd_filter(x, host(out[0]), w.shape, (1, 1), (1, 1)))
    data = json.loads(path.read_text())
    keys = [k for k in data["choices"] if "(4, 12, 12, 16)" in k]
    assert len(keys) == 3, data
    assert all(data["choices"][k] in ("winograd", "gemm128x128", "gemm128x64", "gemm64x128", "gemm64x64")
               for k in keys)
    assert len(bg._algos.timings) == 3
    bg._algos = None                                                       # warm: a new process reads the file
    _run_all_passes(bg, bg.from_host(x), bg.from_host(w))
    assert bg._algos.timings == {}, "warm cache must not time again"
    path.write_text("{not json")                                           # corrupt: warning, rebuilt
    bg._algos = None
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        _run_all_passes(bg, bg.from_host(x), bg.from_host(w))
    assert any("unreadable" in str(r.message) for r in rec), [str(r.message) for r in rec]
    assert len(json.loads(path.read_text())["choices"]) == 3


def test_autotune_off_uses_fixed_choice(fresh_cache):
    bg, path = fresh_cache
    saved = bg.conv_autotune
    bg.conv_autotune = False
    try:
        x, w = _data((2, 8, 8, 8), 8)
        _run_all_passes(bg, bg.from_host(x), bg.from_host(w))
        assert bg._algos.timings == {} and not path.exists()
    finally:
        bg.conv_autotune = saved
