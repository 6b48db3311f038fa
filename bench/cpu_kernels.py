"""Benchmark: the CPU engine's fused primitives (Numba kernels, backend/cpu_fused.py) vs the NumPy reference
(NumpyCpuBackend) on the MNIST CNN's (width 32, batch 64) shapes and one ResNet18 conv; best of --reps calls,
ms. Prints a table.
Usage: python3 bench/cpu_kernels.py [--threads 1] [--reps 20]"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from alpha_py.backend.cpu import CpuBackend, NumpyCpuBackend  # noqa: E402


def best_ms(fn, reps):
    fn()
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best * 1e3


def cases(b):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 28, 28, 32)).astype(np.float32)      # conv1 output
    gy = rng.standard_normal(x.shape).astype(np.float32)
    g, be = np.ones(32, np.float32), np.zeros(32, np.float32)
    _, mean, _, inv = NumpyCpuBackend().bn_fwd(x, g, be, 1e-5)
    x2 = rng.standard_normal((64, 14, 14, 32)).astype(np.float32)     # conv2 input
    w2 = rng.standard_normal((64, 3, 3, 32)).astype(np.float32)
    gy2 = rng.standard_normal((64, 14, 14, 64)).astype(np.float32)
    y, aux = b.pool_fwd("max", x, (2, 2), (2, 2), (0, 0))
    gp = rng.standard_normal(y.shape).astype(np.float32)
    ws = [rng.standard_normal(n).astype(np.float32) for n in (288, 18432, 401408, 1280)]
    gs = [rng.standard_normal(w.shape).astype(np.float32) for w in ws]
    st = {"exp_avg": [np.zeros_like(w) for w in ws], "exp_avg_sq": [np.zeros_like(w) for w in ws]}
    hp = dict(step=1, lr=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, amsgrad=False)
    vel = {"velocity": [np.zeros_like(w) for w in ws]}
    x1 = rng.standard_normal((64, 28, 28, 1)).astype(np.float32)     # conv1 input
    w1 = rng.standard_normal((32, 3, 3, 1)).astype(np.float32)
    xr = rng.standard_normal((32, 32, 32, 64)).astype(np.float32)     # ResNet18 stage 1, batch 32
    wr = rng.standard_normal((64, 3, 3, 64)).astype(np.float32)
    return {
        "conv 3x3 1->32 fwd [64,28,28]": lambda: b.conv_fwd(x1, w1, (1, 1), (1, 1)),
        "conv 3x3 1->32 grad-filter": lambda: b.conv_bwd_filter(x1, x, w1.shape, (1, 1), (1, 1)),
        "conv 3x3 1->32 grad-data": lambda: b.conv_bwd_data(x, w1, x1.shape, (1, 1), (1, 1)),
        "conv 3x3 64->64 fwd [32,32,32]": lambda: b.conv_fwd(xr, wr, (1, 1), (1, 1)),
        "sigmoid fwd [64,28,28,32]": lambda: b.act_fwd("sigmoid", x),
        "Momentum, 4 params (421k)": lambda: b.optim_step("momentum", ws, gs, vel, dict(hp, beta=0.9)),
        "batchNorm_leakyRelu fwd [64,28,28,32]": lambda: b.bn_act_fwd("leakyRelu", x, g, be, 1e-5, p1=0.01),
        "batchNorm_leakyRelu bwd [64,28,28,32]": lambda: b.bn_act_bwd("leakyRelu", gy, x, mean, inv, g, be, True,
                                                                      0.01),
        "maxPool 2x2 fwd [64,28,28,32]": lambda: b.pool_fwd("max", x, (2, 2), (2, 2), (0, 0)),
        "maxPool 2x2 bwd [64,28,28,32]": lambda: b.pool_bwd("max", gp, x, y, aux, (2, 2), (2, 2), (0, 0)),
        "conv 3x3 32->64 fwd [64,14,14]": lambda: b.conv_fwd(x2, w2, (1, 1), (1, 1)),
        "conv 3x3 grad-data": lambda: b.conv_bwd_data(gy2, w2, x2.shape, (1, 1), (1, 1)),
        "conv 3x3 grad-filter": lambda: b.conv_bwd_filter(x2, gy2, w2.shape, (1, 1), (1, 1)),
        "Adam, 4 params (421k)": lambda: b.optim_step("adam", ws, gs, st, hp),
    }


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--reps", type=int, default=20)
    a = p.parse_args()
    fused, ref = CpuBackend(np.float32, a.threads), NumpyCpuBackend(np.float32, a.threads)
    print(f"threads {fused.threads}; load average {os.getloadavg()[0]:.2f}; best of {a.reps} calls")
    print(f"{'primitive':<40} {'NumPy ms':>9} {'fused ms':>9} {'speed-up':>9}")
    cf, cr = cases(fused), cases(ref)
    for name in cf:
        tr, tf = best_ms(cr[name], a.reps), best_ms(cf[name], a.reps)
        print(f"{name:<40} {tr:>9.2f} {tf:>9.2f} {tr / tf:>8.1f}x", flush=True)


if __name__ == "__main__":
    main()
