"""Tests: the CPU engine's Numba kernels (backend/cpu_conv.py, cpu_fused.py) against the NumPy reference backend (the oracle) and
float64 finite differences over odd shapes (N=1, odd H/W and channel counts, pads 0/1/2, strides 1/2); bit-identical
BatchNorm for 1 and 2 threads, every kernel for a fixed thread count; the engine's `threads` argument."""
import warnings

import numpy as np
import pytest

from alpha_py import alpha, nn
from alpha_py.backend.cpu import CpuBackend, NumpyCpuBackend
from alpha_py.backend.cpu_fused import host_cores
from alpha_py.errors import ArgumentError
from gradcheck import check_unit

CONV = [((1, 5, 7, 3), (5, 3, 3, 3), (1, 1), (1, 1)), ((2, 9, 6, 5), (7, 3, 3, 5), (2, 2), (0, 0)),
        ((3, 7, 9, 1), (4, 3, 2, 1), (2, 1), (2, 1)), ((1, 6, 5, 33), (17, 5, 5, 33), (1, 2), (2, 2)),
        ((2, 4, 4, 6), (3, 1, 1, 6), (1, 1), (0, 0)), ((2, 5, 5, 4), (6, 1, 1, 4), (2, 2), (0, 0)),
        ((1, 8, 7, 2), (5, 3, 3, 2), (2, 2), (2, 2)), ((2, 9, 8, 1), (3, 3, 3, 1), (1, 1), (0, 0)),
        ((1, 6, 6, 2), (4, 5, 5, 2), (1, 1), (1, 1))]
# FH*FW*IC <= TAP_MAX (27): tap-major NumPy columns (IC=1: windowed adds for grad-data); above: im2col kernels
POOL = [((2, 2), (2, 2), (0, 0)), ((3, 3), (2, 2), (1, 1)), ((3, 2), (1, 2), (1, 0)), ((5, 5), (2, 2), (2, 2))]
ACTS = [("relu", 0.0), ("leakyRelu", 0.1), ("relu6", 0.0)]


@pytest.fixture(autouse=True)
def every_thread_gets_a_part(monkeypatch):
    """Small test shapes still cut into one part per thread (the multi-part sums are what is tested) and take the
    Winograd grad-filter in several blocks; 3x3 forwards by F(2x2, 3x3) (F(4x4, 3x3) has its own test file)."""
    import alpha_py.backend.cpu_conv as cpu_conv
    for name, v in {"ROWS_PER_PART": 1, "TILES_PER_PART": 1, "MATMUL_ROWS_PER_PART": 1, "WINO_FILTER_MIN_TILES": 1,
                    "WINO_FILTER_MIN_CHANNELS": 1, "WINO_FILTER_BLOCK": 3, "WINO4": False}.items():
        monkeypatch.setattr(cpu_conv, name, v)      # WINO_FILTER_BLOCK: several blocks per part; F(4x4): test_cpu_wino4


def test_parts_capped_by_work():
    from alpha_py.backend.cpu_conv import FusedConvOps
    assert FusedConvOps._cap(16, 512, 256) == 2 and FusedConvOps._cap(2, 50000, 256) == 2
    assert FusedConvOps._cap(16, 100, 256) == 1 and FusedConvOps._cap(1, 10 ** 6, 256) == 1


def pair(dtype=np.float32, threads=None):
    return CpuBackend(dtype, threads), NumpyCpuBackend(dtype)


def close(a, b, dtype):
    tol = 2e-6 if dtype == np.float32 else 1e-12
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    assert a.shape == b.shape
    assert np.abs(a - b).max() <= tol * max(1.0, np.abs(b).max()), np.abs(a - b).max()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("xs,ws,stride,pad", CONV)
def test_conv_matches_numpy(dtype, xs, ws, stride, pad):
    f, r = pair(dtype)
    rng = np.random.default_rng(1)
    x, w = rng.standard_normal(xs).astype(dtype), rng.standard_normal(ws).astype(dtype)
    y = f.conv_fwd(x, w, stride, pad)
    close(y, r.conv_fwd(x, w, stride, pad), dtype)
    gy = rng.standard_normal(y.shape).astype(dtype)
    close(f.conv_bwd_data(gy, w, x.shape, stride, pad), r.conv_bwd_data(gy, w, x.shape, stride, pad), dtype)
    close(f.conv_bwd_filter(x, gy, w.shape, stride, pad), r.conv_bwd_filter(x, gy, w.shape, stride, pad), dtype)


@pytest.mark.parametrize("tile_bytes,min_tile", [(1, 1), (3000, 7)])
@pytest.mark.parametrize("xs,ws,stride,pad", [((5, 7, 6, 4), (3, 3, 3, 4), (1, 1), (1, 1)),
                                              ((3, 9, 8, 33), (5, 2, 3, 33), (2, 1), (0, 2)),
                                              ((2, 6, 7, 9), (4, 3, 3, 9), (2, 2), (1, 1))])
def test_conv_in_tiles_matches_numpy(monkeypatch, tile_bytes, min_tile, xs, ws, stride, pad):
    """The pool's convolutions with tiles of 1 or a few im2col rows (many tiles per thread) against the oracle."""
    import alpha_py.backend.cpu_conv as cpu_conv
    monkeypatch.setattr(cpu_conv, "TILE_BYTES", tile_bytes)
    monkeypatch.setattr(cpu_conv, "MIN_TILE", min_tile)
    f, r = pair()
    assert f._tile(xs[0] * xs[1] * xs[2], np.prod(ws[1:]), 1) < xs[0] * xs[1] * xs[2] // 2
    rng = np.random.default_rng(5)
    x, w = rng.standard_normal(xs).astype(np.float32), rng.standard_normal(ws).astype(np.float32)
    y = f.conv_fwd(x, w, stride, pad)
    close(y, r.conv_fwd(x, w, stride, pad), np.float32)
    gy = rng.standard_normal(y.shape).astype(np.float32)
    close(f.conv_bwd_data(gy, w, x.shape, stride, pad), r.conv_bwd_data(gy, w, x.shape, stride, pad), np.float32)
    close(f.conv_bwd_filter(x, gy, w.shape, stride, pad), r.conv_bwd_filter(x, gy, w.shape, stride, pad),
          np.float32)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("xs,oc,pad", [((1, 5, 7, 3), 5, (1, 1)), ((2, 9, 6, 33), 17, (0, 0)), ((3, 4, 5, 2), 3, (2, 1)),
                                       ((2, 1, 3, 6), 4, (1, 2)), ((1, 13, 11, 70), 9, (1, 1))])
def test_winograd_and_narrow_match_numpy(monkeypatch, dtype, xs, oc, pad):
    """3x3 stride-1 convolutions by Winograd F(2x2, 3x3), forward, grad-data and grad-filter (odd sizes: clipped edge
    tiles; pads 0-2; more tiles than one block) and grad-data's direct kernel for few input channels, against the oracle and the GEMM path."""
    import alpha_py.backend.cpu_conv as cpu_conv
    f, r = pair(dtype)
    rng = np.random.default_rng(sum(xs) + oc)
    x, w = rng.standard_normal(xs).astype(dtype), rng.standard_normal((oc, 3, 3, xs[3])).astype(dtype)
    y = f.conv_fwd(x, w, (1, 1), pad)
    gy = rng.standard_normal(y.shape).astype(dtype)
    gx = f.conv_bwd_data(gy, w, x.shape, (1, 1), pad)
    gw = f.conv_bwd_filter(x, gy, w.shape, (1, 1), pad)
    close(y, r.conv_fwd(x, w, (1, 1), pad), dtype)
    close(gx, r.conv_bwd_data(gy, w, x.shape, (1, 1), pad), dtype)
    close(gw, r.conv_bwd_filter(x, gy, w.shape, (1, 1), pad), dtype)
    monkeypatch.setattr(cpu_conv, "WINOGRAD", False)
    monkeypatch.setattr(cpu_conv, "NARROW_MAX", 0)
    close(y, f.conv_fwd(x, w, (1, 1), pad), dtype)
    close(gx, f.conv_bwd_data(gy, w, x.shape, (1, 1), pad), dtype)
    close(gw, f.conv_bwd_filter(x, gy, w.shape, (1, 1), pad), dtype)


def test_winograd_large_filter_read_transposed(monkeypatch):
    """Above WINO_TRANSPOSE_MAX the forward reads the transformed filter [16, OC, C] transposed: same result."""
    import alpha_py.backend.cpu_conv as cpu_conv
    f, r = pair()
    rng = np.random.default_rng(3)
    x, w = rng.standard_normal((2, 6, 5, 7)).astype(np.float32), rng.standard_normal((6, 3, 3, 7)).astype(np.float32)
    monkeypatch.setattr(cpu_conv, "WINO_TRANSPOSE_MAX", 1)
    close(f.conv_fwd(x, w, (1, 1), (1, 1)), r.conv_fwd(x, w, (1, 1), (1, 1)), np.float32)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("m,k,n", [(1, 300, 200), (37, 129, 65), (700, 3, 90), (5, 4000, 9), (3, 2500, 7), (64, 9, 1)])
@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_matmul_in_pool_matches_numpy(dtype, m, k, n, ta, tb):
    """matmul: rows split over the pool, or (few rows, long reduction) the reduction split and summed in order."""
    f, r = pair(dtype)
    rng = np.random.default_rng(m + k + n)
    a = rng.standard_normal((k, m) if ta else (m, k)).astype(dtype)
    b = rng.standard_normal((n, k) if tb else (k, n)).astype(dtype)
    got = f.matmul(a, b, ta, tb)
    assert got.dtype == dtype and got.shape == (m, n)
    A, B = (a.T if ta else a).astype(np.float64), (b.T if tb else b).astype(np.float64)
    bound = 2 * k * np.finfo(dtype).eps * (np.abs(A) @ np.abs(B))       # a dot product's forward error bound
    assert (np.abs(got - A @ B) <= bound).all()
    if k < 1000:        # longer reductions: the order of the partial sums shows in float32's last bits
        close(got, r.matmul(a, b, ta, tb), dtype)


def test_blas_threads_restored_after_concurrent_engines():
    """Convolutions from two Python threads at once give the oracle's results and leave the process's BLAS thread
    counts as they were (the single-thread scope is counted: the last thread out restores them)."""
    import threading

    from threadpoolctl import threadpool_info
    from alpha_py.backend.cpu_conv import _one_blas
    f, r = pair()
    rng = np.random.default_rng(9)
    x, w = rng.standard_normal((2, 9, 9, 8)).astype(np.float32), rng.standard_normal((6, 3, 3, 8)).astype(np.float32)
    want = r.conv_fwd(x, w, (2, 2), (1, 1))
    f.conv_fwd(x, w, (2, 2), (1, 1))
    before = {(d["filepath"], d["num_threads"]) for d in threadpool_info() if d["user_api"] == "blas"}
    errors = []

    def work():
        try:
            for _ in range(30):
                close(f.conv_fwd(x, w, (2, 2), (1, 1)), want, np.float32)
        except Exception as e:          # noqa: BLE001  (reported by the assert below)
            errors.append(e)
    import sys
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)              # switch threads often: enter/exit of the two interleave
    try:
        threads = [threading.Thread(target=work) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert not errors and _one_blas().inside == 0
    assert {(d["filepath"], d["num_threads"]) for d in threadpool_info() if d["user_api"] == "blas"} == before


def test_matmul_mismatched_shapes_name_them():
    f = CpuBackend(np.float32)
    with pytest.raises(ValueError, match="matmul"):
        f.matmul(np.ones((300, 200), np.float32), np.ones((199, 300), np.float32))


@pytest.mark.parametrize("mode", ["max", "avg"])
@pytest.mark.parametrize("k,stride,pad", POOL)
@pytest.mark.parametrize("shape", [(1, 7, 9, 3), (2, 6, 5, 17)])
def test_pool_matches_numpy(mode, k, stride, pad, shape):
    f, r = pair()
    x = np.random.default_rng(2).standard_normal(shape).astype(np.float32)
    y, aux = f.pool_fwd(mode, x, k, stride, pad)
    y2, aux2 = r.pool_fwd(mode, x, k, stride, pad)
    close(y, y2, np.float32)
    gy = np.random.default_rng(3).standard_normal(y.shape).astype(np.float32)
    close(f.pool_bwd(mode, gy, x, y, aux, k, stride, pad), r.pool_bwd(mode, gy, x, y2, aux2, k, stride, pad),
          np.float32)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("act,p1", ACTS + [(None, 0.0), ("elu", 1.0)])
@pytest.mark.parametrize("affine", [True, False])
@pytest.mark.parametrize("shape", [(1, 3, 5, 7), (2, 5, 3, 33), (1, 1, 1, 2)])
def test_batchnorm_act_matches_numpy(dtype, act, p1, affine, shape):
    f, r = pair(dtype)
    rng = np.random.default_rng(4)
    x = (rng.standard_normal(shape) * 3 + 5).astype(dtype)
    c = shape[-1]
    g, b = (rng.standard_normal(c).astype(dtype), rng.standard_normal(c).astype(dtype)) if affine else (None, None)
    if act is None:
        out, ref = f.bn_fwd(x, g, b, 1e-5), r.bn_fwd(x, g, b, 1e-5)
    else:
        out, ref = f.bn_act_fwd(act, x, g, b, 1e-5, p1=p1, p2=1.0), r.bn_act_fwd(act, x, g, b, 1e-5, p1=p1, p2=1.0)
    for u, v in zip(out, ref):
        close(u, v, dtype)
    gy = rng.standard_normal(shape).astype(dtype)
    for batch_stats in (True, False):
        if act is None:
            got, want = (f.bn_bwd(gy, x, ref[1], ref[3], g, batch_stats),
                         r.bn_bwd(gy, x, ref[1], ref[3], g, batch_stats))
        else:
            got = f.bn_act_bwd(act, gy, x, ref[1], ref[3], g, b, batch_stats, p1, 1.0)
            want = r.bn_act_bwd(act, gy, x, ref[1], ref[3], g, b, batch_stats, p1, 1.0)
        for u, v in zip(got, want):
            assert (u is None) == (v is None)
            if u is not None:
                close(u, v, dtype)


def test_batchnorm_eval_stats_given():
    f, r = pair()
    rng = np.random.default_rng(5)
    x = rng.standard_normal((3, 4, 5, 6)).astype(np.float32)
    mean, var = rng.standard_normal(6).astype(np.float32), (rng.random(6) + 0.5).astype(np.float32)
    g, b = np.ones(6, np.float32) * 2, np.zeros(6, np.float32) + 0.5
    for u, v in zip(f.bn_act_fwd("leakyRelu", x, g, b, 1e-5, mean, var, 0.01),
                    r.bn_act_fwd("leakyRelu", x, g, b, 1e-5, mean, var, 0.01)):
        close(u, v, np.float32)


@pytest.mark.parametrize("act,p1", ACTS)
def test_activations_match_numpy(act, p1):
    f, r = pair()
    rng = np.random.default_rng(6)
    x = (rng.standard_normal((3, 5, 7)) * 4).astype(np.float32)
    x2 = rng.standard_normal(x.shape).astype(np.float32)
    close(f.act_fwd(act, x, p1), r.act_fwd(act, x, p1), np.float32)
    close(f.add_act(act, x, x2, p1), r.add_act(act, x, x2, p1), np.float32)
    gy = rng.standard_normal(x.shape).astype(np.float32)
    y = r.act_fwd(act, x, p1)
    close(f.act_bwd(act, gy, x, y, p1), r.act_bwd(act, gy, x, y, p1), np.float32)


@pytest.mark.parametrize("rule,hp", [("adam", {}), ("adam", {"L1": 0.01, "L2": 0.02}),
                                     ("adamw", {"L1": 0.01, "L2": 0.02})])
def test_adam_matches_numpy(rule, hp):
    rng = np.random.default_rng(7)
    shapes = [(5, 3, 3, 7), (13,), (1,)]
    out = []
    for b in pair():
        ws = [rng.standard_normal(s).astype(np.float32) for s in shapes]
        rng = np.random.default_rng(7)          # the same draws for both backends
        ws = [rng.standard_normal(s).astype(np.float32) for s in shapes]
        gs = [rng.standard_normal(s).astype(np.float32) for s in shapes]
        st = {"exp_avg": [np.zeros_like(w) for w in ws], "exp_avg_sq": [np.zeros_like(w) for w in ws]}
        for t in (1, 2, 3):
            b.optim_step(rule, ws, gs, st, dict(hp, step=t, lr=1e-2, beta1=0.9, beta2=0.999, eps=1e-8,
                                                amsgrad=False))
        out.append(ws + st["exp_avg"] + st["exp_avg_sq"])
    for u, v in zip(*out):
        close(u, v, np.float32)


@pytest.mark.parametrize("rule,hp", [
    ("sgd", {}), ("sgd", {"L1": 0.01, "L2": 0.02}), ("momentum", {"beta": 0.9}),
    ("momentum", {"beta": 0.8, "L2": 0.05}), ("sgdmn", {"momentum": 0.9, "dampen": 0.1, "nesterov": False}),
    ("sgdmn", {"momentum": 0.9, "dampen": 0.0, "nesterov": True, "L1": 0.01}),
    ("rmsprop", {"beta": 0.99, "eps": 1e-8}), ("rmsprop", {"beta": 0.9, "eps": 1e-6, "L2": 0.01})])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sgd_family_matches_numpy(rule, hp, dtype):
    """sgd/momentum/sgdmn/rmsprop: the fused update against the NumPy reference (the published rules of
    optim_ops.py's table), 3 steps from non-zero states."""
    shapes = [(5, 3, 3, 7), (13,), (1,)]
    out = []
    for b in pair(dtype):
        rng = np.random.default_rng(9)          # the same draws for both backends
        ws = [rng.standard_normal(s).astype(dtype) for s in shapes]
        gs = [rng.standard_normal(s).astype(dtype) for s in shapes]
        st = {} if rule == "sgd" else {"velocity" if rule != "rmsprop" else "exp_avg_sq":
                                       [np.abs(rng.standard_normal(s)).astype(dtype) for s in shapes]}
        for t in (1, 2, 3):
            b.optim_step(rule, ws, gs, st, dict(hp, step=t, lr=1e-2))
        out.append(ws + [a for v in st.values() for a in v])
    for u, v in zip(*out):
        close(u, v, dtype)


def test_sgd_family_rejects_bad_input():
    f = CpuBackend(np.float32)
    w, g = np.zeros(4, np.float32), np.ones(4, np.float32)
    with pytest.raises(ArgumentError, match="velocity"):
        f.optim_step("momentum", [w], [g], {"velocity": []}, {"step": 1, "lr": 0.1, "beta": 0.9})
    with pytest.raises(ArgumentError, match="step"):
        f.optim_step("sgd", [w], [g], {}, {"step": 0, "lr": 0.1})


@pytest.mark.skipif(host_cores() < 2, reason="needs 2 cores")
def test_deterministic_across_thread_counts():
    rng = np.random.default_rng(8)
    x = rng.standard_normal((4, 9, 11, 19)).astype(np.float32)
    gy = rng.standard_normal(x.shape).astype(np.float32)
    g, b = rng.standard_normal(19).astype(np.float32), rng.standard_normal(19).astype(np.float32)
    outs = []
    for threads in (1, 2, 1):
        f = CpuBackend(np.float32, threads)
        y, mean, var, inv = f.bn_act_fwd("leakyRelu", x, g, b, 1e-5, p1=0.01)
        outs.append((y, mean, var) + f.bn_act_bwd("leakyRelu", gy, x, mean, inv, g, b, True, 0.01))
    for other in outs[1:]:
        for u, v in zip(outs[0], other):
            assert np.array_equal(u, v)


@pytest.mark.parametrize("make,shape", [
    (lambda: nn.conv3D(True, 3, 5, 3, 2, 2), (1, 7, 5, 3)),
    (lambda: nn.conv3D(False, 2, 3, 3, 2, 3, 1, 1, 0), (2, 5, 6, 2)),
    (lambda: nn.conv3D(True, 1, 4, 3, 1, 1), (2, 5, 4, 1)),
    (lambda: nn.conv3D(True, 3, 4, 3, 1, 1), (2, 5, 4, 3)),
    (lambda: nn.maxPool2D(3, 2, 1), (1, 7, 5, 3)),
    (lambda: nn.avgPool2D(3, 2, 1), (2, 5, 7, 3)),
    (lambda: nn.batchNorm_leakyRelu(nn.batchNorm(5), nn.leakyRelu(0.1)), (1, 3, 5, 5)),
    (lambda: nn.batchNorm_relu6(nn.batchNorm(3), nn.relu6()), (2, 3, 3, 3)),
], ids=["conv_s2p2", "conv_rect", "conv_ic1", "conv_winograd", "maxpool", "avgpool", "bn_leaky", "bn_relu6"])
def test_fused_kernels_gradcheck_float64(make, shape):
    """cpu_float64 runs the same kernels (compiled for float64) against central finite differences."""
    assert alpha.engine.cpu_float64().backend.fused
    check_unit(make(), [shape], max_points=30)


def test_threads_argument():
    assert alpha.engine.cpu_float32().backend.threads == host_cores()
    assert alpha.engine.cpu_float32(1).backend.threads == 1
    for bad in (0, -2, 1.5, "2", True):
        with pytest.raises(ArgumentError, match="cpu_float32: threads must be a positive integer"):
            alpha.engine.cpu_float32(bad)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        eg = alpha.engine.cpu_float32(host_cores() + 3)
    assert eg.backend.threads == host_cores()
    assert any("more than the" in str(w.message) for w in caught)


def test_spark_task_engine_uses_task_cpus(monkeypatch):
    """Under Spark, a task's CPU engine gets spark.task.cpus threads (TaskContext.cpus())."""
    pyspark = pytest.importorskip("pyspark")
    from alpha_py.distributed.worker import make_engine

    class Ctx:
        def cpus(self):
            return 1

    monkeypatch.setattr(pyspark.TaskContext, "get", classmethod(lambda cls: Ctx()))
    assert make_engine("cpu").backend.threads == 1
    monkeypatch.setattr(pyspark.TaskContext, "get", classmethod(lambda cls: None))
    assert make_engine("cpu").backend.threads == host_cores()


def test_training_steps_deterministic_for_a_fixed_thread_count():
    """Whole steps repeat bit for bit at a fixed count (across counts only the kernels do: OpenBLAS's GEMMs may
    differ in the last bits between 1 and 2 threads)."""
    from alpha_py.zoo import get_model

    def train(threads):
        eg = alpha.engine.cpu_float32(threads).set_seed(0)
        net = get_model("mnist_cnn", 1, 10, 28, width=6, hidden=16).init(eg)
        opt, loss_fn = alpha.optim.Adam(net.params(), 1e-3), alpha.loss.softmax_crossEntropy()
        rng = np.random.default_rng(0)
        for _ in range(2):
            x = eg.images(rng.integers(0, 256, (9, 28, 28, 1), dtype=np.uint8))
            y = eg.onehot(rng.integers(0, 10, 9), 10)
            yh = net(x)[0]
            net.backward(loss_fn.gradient(yh, y))
            opt.update().clear_grads()
            net.gc()
        return [p.value() for p in net.params()]

    threads = min(2, host_cores())
    for a, b in zip(train(threads), train(threads)):
        assert np.array_equal(a, b)


def test_relu_zeros_are_positive_zeros():
    """A negative input gives +0.0 (as NumPy's and PyTorch's relu), not -0.0: Java's assertArrayEquals tells them apart."""
    from alpha_py import alpha, F
    eg = alpha.engine.cpu_float32()
    y = np.asarray(F.relu(eg.tensor(np.array([-2, -1, 0, 1], np.float32), 2, 2))[0].data)
    assert not np.signbit(y).any() and y.tolist() == [[0, 0], [0, 1]]


def test_conv_empty_batch():
    f = CpuBackend(np.float32)
    x, w = np.zeros((0, 5, 5, 4), np.float32), np.ones((3, 3, 3, 4), np.float32)
    gy = np.zeros((0, 5, 5, 3), np.float32)
    assert f.conv_fwd(x, w, (1, 1), (1, 1)).shape == (0, 5, 5, 3)
    assert f.conv_bwd_data(gy, w, x.shape, (1, 1), (1, 1)).shape == x.shape
    assert np.array_equal(f.conv_bwd_filter(x, gy, w.shape, (1, 1), (1, 1)), np.zeros(w.shape, np.float32))
