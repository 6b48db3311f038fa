"""Benchmark (GPU): our batched strict-fp32 GEMM (kernels/gemm_batched.cu, the CUDA backend's matmul_nd) beside
cupy.matmul (cuBLAS, the previous path: math_ops.MathOps.matmul_nd over CuPy) on attention-like shapes, and the
element-wise math kernels (kernels/math.cu) beside the CuPy expressions they replaced. Median of CUDA-event timings
over random data (10 back-to-back calls per event pair), two input sets alternated; the relative difference of the
two results is printed too.
Usage: python3 bench/matmul_batched.py [--reps 30] [--math-n 67108864] [--sweep]"""
import argparse
import os
import sys

import cupy
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from alpha_py import alpha  # noqa: E402
from alpha_py.backend.math_ops import MathOps  # noqa: E402

# (what, batch, M, N, K, t1, t2): attention Q K^T (T2), P V, and the backward's T1 / T2 forms
SHAPES = [("QK^T S=128 d=64", 768, 128, 128, 64, False, True), ("PV S=128 d=64", 768, 128, 64, 128, False, False),
          ("QK^T S=197 d=64", 384, 197, 197, 64, False, True), ("PV S=197 d=64", 384, 197, 64, 197, False, False),
          ("QK^T S=256 d=64", 192, 256, 256, 64, False, True), ("PV S=256 d=64", 192, 256, 64, 256, False, False),
          ("dV=P^T dY S=256", 192, 256, 64, 256, True, False), ("dP=dY V^T S=256", 192, 256, 256, 64, False, True),
          ("dQ=dS K S=256", 192, 256, 64, 256, False, False), ("QK^T S=512 d=64", 96, 512, 512, 64, False, True),
          ("PV S=512 d=64", 96, 512, 64, 512, False, False), ("QK^T S=1024 d=128", 16, 1024, 1024, 128, False, True),
          ("PV S=1024 d=128", 16, 1024, 128, 1024, False, False), ("4 x 1024^3", 4, 1024, 1024, 1024, False, False),
          ("small 64 x 33x17x65", 64, 33, 17, 65, False, False)]


def median_ms(fn, reps, inner=10):
    """Median over `reps` event pairs of the mean time of `inner` back-to-back calls (the host's launch cost hides
    behind the GPU work queued before it)."""
    fn()
    cupy.cuda.runtime.deviceSynchronize()
    ts = []
    for r in range(reps):
        s, e = cupy.cuda.Event(), cupy.cuda.Event()
        s.record()
        for i in range(inner):
            fn(r * inner + i)
        e.record()
        e.synchronize()
        ts.append(cupy.cuda.get_elapsed_time(s, e) / inner)
    return float(np.median(ts))


def operands(rng, batch, m, n, k, t1, t2):
    sa = (batch, k, m) if t1 else (batch, m, k)
    sb = (batch, n, k) if t2 else (batch, k, n)
    return (cupy.asarray(rng.standard_normal(sa, dtype=np.float32)),
            cupy.asarray(rng.standard_normal(sb, dtype=np.float32)))


def bench_matmul(bk, reps):
    print(f"{'shape':>20} {'batch x M x N x K':>22} {'ours ms':>8} {'cupy ms':>8} {'ours TF/s':>9} "
          f"{'cupy TF/s':>9} {'ours/cupy':>9} {'rel diff':>9}")
    rng = np.random.default_rng(0)
    for what, batch, m, n, k, t1, t2 in SHAPES:
        sets = [operands(rng, batch, m, n, k, t1, t2) for _ in range(2)]
        ours = lambda i=0: bk.matmul_nd(*sets[i % 2], t1, t2)
        ref = lambda i=0: MathOps.matmul_nd(bk, *sets[i % 2], t1, t2)
        y, r = ours(), ref()
        diff = float(cupy.linalg.norm(y - r) / cupy.linalg.norm(r))
        fl = 2.0 * batch * m * n * k
        to, tc = median_ms(ours, reps), median_ms(ref, reps)
        print(f"{what:>20} {f'{batch}x{m}x{n}x{k}':>22} {to:8.3f} {tc:8.3f} {fl / to / 1e9:9.2f} "
              f"{fl / tc / 1e9:9.2f} {tc / to:9.2f} {diff:9.1e}")


TILES = [(128, 128), (128, 64), (64, 128), (64, 64)]


def sweep_tiles(bk, reps):
    """Each shape with every tile of gemm_batched (the backend's choice overridden): ms per tile, the choice marked."""
    print(f"\n{'shape':>20} " + " ".join(f"{f'{bm}x{bn} ms':>11}" for bm, bn in TILES) + "  chosen")
    rng = np.random.default_rng(0)
    for what, batch, m, n, k, t1, t2 in SHAPES:
        sets = [operands(rng, batch, m, n, k, t1, t2) for _ in range(2)]
        chosen = bk._batched_tiles(m, n, k, batch)
        ts = []
        for tile in TILES:
            bk._batched_tiles = lambda *_, t=tile: t
            ts.append(median_ms(lambda i=0: bk.matmul_nd(*sets[i % 2], t1, t2), reps))
            del bk._batched_tiles
        print(f"{what:>20} " + " ".join(f"{t:11.3f}" for t in ts) + f"  {chosen[0]}x{chosen[1]}")


def bench_math(bk, n, reps):
    print(f"\n{'math row':>10} {'elements':>10} {'ours fwd ms':>11} {'cupy fwd ms':>11} {'ours bwd ms':>11} "
          f"{'cupy bwd ms':>11} {'ours fwd GB/s':>13}")
    rng = np.random.default_rng(1)
    x = cupy.asarray(rng.uniform(0.5, 1.5, n).astype(np.float32))
    gy = cupy.asarray(rng.standard_normal(n, dtype=np.float32))
    for name, p in [("sin", {"alpha": 2.0, "beta": 0.1}), ("clip", {"alpha": 1.0, "beta": 0.0, "vmin": 0.7,
                                                                     "vmax": 1.2}),
                    ("halfSin", {"Amp": 1.5, "alpha": 2.0, "beta": 0.1}), ("sqrt", {"alpha": 1.0, "beta": 0.0})]:
        y = bk.math_fwd(name, x, p)
        tf = median_ms(lambda i=0: bk.math_fwd(name, x, p), reps)
        cf = median_ms(lambda i=0: MathOps.math_fwd(bk, name, x, p), reps)
        tb = median_ms(lambda i=0: bk.math_bwd(name, gy, x, y, p), reps)
        cb = median_ms(lambda i=0: MathOps.math_bwd(bk, name, gy, x, y, p), reps)
        print(f"{name:>10} {n:>10} {tf:11.3f} {cf:11.3f} {tb:11.3f} {cb:11.3f} {8.0 * n / tf / 1e6:13.0f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--math-n", type=int, default=1 << 26)
    ap.add_argument("--sweep", action="store_true", help="also time every gemm_batched tile on each shape")
    args = ap.parse_args()
    eg = alpha.engine.cuda_float32(0, auto_graph=False)
    bk = eg.backend
    dev = cupy.cuda.runtime.getDeviceProperties(0)["name"]
    print(f"device {dev.decode() if isinstance(dev, bytes) else dev}, CUPY_TF32={os.environ.get('CUPY_TF32', '0')}"
          f", {bk.sm_count} SMs")
    bench_matmul(bk, args.reps)
    if args.sweep:
        sweep_tiles(bk, args.reps)
    bench_math(bk, args.math_n, args.reps)


if __name__ == "__main__":
    main()
