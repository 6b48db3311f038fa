"""Backend layer: compile every Numba kernel of the CPU engine into its disk cache ahead of the first training step
(`alpha warmup --cpu`), by calling each fused primitive once on tiny arrays, so the cached signatures are exactly
the ones training uses. Imports numpy, numba (its config) and the CPU backend only."""
import time

import numpy as np

from .cpu import CpuBackend
from .cpu_fused import PARALLEL_MIN


def _calls(b):
    """Every primitive that runs a kernel, once, in backend b's dtype."""
    t = b.dtype
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 5, 5, 4)).astype(t)
    w = rng.standard_normal((3, 3, 3, 4)).astype(t)           # FH*FW*IC = 36 > TAP_MAX: the tiled kernels
    for stride in ((1, 1), (2, 2)):                            # 3x3: Winograd / tiles and per-image grad-data
        y = b.conv_fwd(x, w, stride, (1, 1))
        b.conv_bwd_filter(x, y, w.shape, stride, (1, 1))
        b.conv_bwd_data(y, w, x.shape, stride, (1, 1))
    x5, w5 = rng.standard_normal((1, 5, 5, 6)).astype(t), rng.standard_normal((2, 5, 5, 6)).astype(t)
    b.conv_bwd_data(b.conv_fwd(x5, w5, (1, 1), (2, 2)), w5, x5.shape, (1, 1), (2, 2))   # 5x5: tiles, F-order filter
    x1, w1 = np.ascontiguousarray(x[..., :1]), np.ascontiguousarray(w[..., :1])
    b.conv_bwd_data(b.conv_fwd(x1, w1, (1, 1), (1, 1)), w1, x1.shape, (1, 1), (1, 1))   # 1 channel: direct kernel
    xw, ww = rng.standard_normal((1, 2, 2, 256)).astype(t), rng.standard_normal((256, 3, 3, 256)).astype(t)
    b.conv_fwd(xw, ww, (1, 1), (1, 1))                      # Winograd with the large filter read transposed
    xg, wg = rng.standard_normal((2, 32, 32, 64)).astype(t), rng.standard_normal((64, 3, 3, 64)).astype(t)
    b.conv_bwd_filter(xg, xg, wg.shape, (1, 1), (1, 1))     # Winograd grad-filter (512 tiles, 128 channels)
    x8 = rng.standard_normal((1, 8, 8, 4)).astype(t)
    b.conv_fwd_eval(x8, w, (1, 1), (1, 1))                  # Winograd F(4x4, 3x3) (an 8x8 map, eval mode)
    for xe, we, pad in ((x, w, (1, 1)), (x8, w, (1, 1)), (x1, w1, (1, 1)), (x5, w5, (2, 2))):  # eval chains:
        c = we.shape[0]                                                  # Winograd F(2x2), F(4x4), tap-major, tiles
        b.conv_eval(xe, we, (1, 1), pad, None, (np.ones(c, t), np.zeros(c, t), 1e-5, np.zeros(c, t), np.ones(c, t),
                                                "leakyRelu", 0.01, 0.0), True)
    b.matmul(rng.standard_normal((2, 2048)).astype(t), rng.standard_normal((2048, 8)).astype(t))  # split reduction
    big, tall = rng.standard_normal((64, 600)).astype(t), rng.standard_normal((600, 64)).astype(t)
    b.matmul(big, tall)                   # above SMALL_GEMM: row-split GEMM with a C-order right side,
    b.matmul(big, big, tb=True)           # ... with an F-order one,
    b.matmul(tall, tall, ta=True)         # ... and the split reduction (weight gradients)
    for mode in ("max", "avg"):
        p, aux = b.pool_fwd(mode, x, (2, 2), (2, 2), (0, 0))
        b.pool_bwd(mode, p, x, p, aux, (2, 2), (2, 2), (0, 0))
    g, be = np.ones(4, t), np.zeros(4, t)
    z, mean, var, inv = b.bn_act_fwd("leakyRelu", x, g, be, 1e-5, p1=0.01)
    b.bn_act_bwd("leakyRelu", z, x, mean, inv, g, be, True, 0.01)
    b.bias_grad(x)
    for a in (x, np.ones(PARALLEL_MIN, t)):     # the one-thread kernels, and the pool's from PARALLEL_MIN up
        b.act_fwd("relu", a)
        b.act_bwd("relu", a, a, a)
        b.add_act("relu", a, a)
    b.act_bwd("sigmoid", x, x, b.act_fwd("sigmoid", x))
    hp = {"step": 1, "lr": 1e-3, "L1": 0.0, "L2": 0.0, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8}
    wt = [np.zeros(8, t)]
    b.optim_step("adam", wt, [np.ones(8, t)], {"exp_avg": [np.zeros(8, t)], "exp_avg_sq": [np.zeros(8, t)]}, hp)
    b.optim_step("momentum", wt, [np.ones(8, t)], {"velocity": [np.zeros(8, t)]}, dict(hp, beta=0.9))


def warmup_cpu(dtypes=(np.float32, np.float64), threads=None):
    """Compile (or read from the cache) the CPU engine's kernels for each dtype. Returns (seconds, cache folder)."""
    t0 = time.perf_counter()
    for dt in dtypes:
        b = CpuBackend(dt, threads, fused=True)
        _calls(b)
    import os

    import numba
    return time.perf_counter() - t0, numba.config.CACHE_DIR or os.path.join(os.path.dirname(__file__), "__pycache__")
