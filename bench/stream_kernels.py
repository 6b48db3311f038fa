"""Benchmark (GPU): the streaming kernels of a ResNet18-CIFAR step (batchNorm statistics/apply/backward, the bf16
twins' add+activation and sign backward, the fp32 add+activation backward, the fan-in add) on its activation shapes
at batch 512: median ms of CUDA-event timings and the GB/s their bytes make (H100 HBM3 ~3.35 TB/s).
Usage: python3 bench/stream_kernels.py [--batch 512] [--reps 20] [--ab-partial]"""
import argparse

import cupy
import numpy as np

from alpha_py import alpha
from conv_shapes import timeit as median_ms  # bench/ is on sys.path when run as a script

SHAPES = [(32, 64), (16, 128), (8, 256), (4, 512)]      # (H = W, C) of the four stages


def cases(b, x, gy, c):
    """(name, bytes per element, fn) for one activation shape."""
    keep = []
    b.bn_act_fwd("relu", x, None, None, 1e-5, keep=keep, write_y=False)
    xb = keep[0]
    gamma, beta = cupy.ones(c, np.float32), cupy.zeros(c, np.float32)
    _, mean, _, inv = b.bn_act_fwd("relu", x, gamma, beta, 1e-5)
    lazy = b.bn_lazy(x.shape, "relu", xb, mean, inv, gamma, beta)
    plain = b.bn_lazy(x.shape, None, xb, mean, inv, gamma, beta)
    _, yb = b.add_act_twin("relu", gy, plain)
    return [
        ("bn stats (fp32 x)", 4, lambda: b._bn_partial(3, "ACT_IDENTITY", x.reshape(-1, c), None, None, None, None,
                                                       None)),
        ("bn stats (bf16 bits)", 2, lambda: b._bn_partial(3, "ACT_IDENTITY", xb, None, None, None, None, None,
                                                          xmode=2)),
        ("bn bwd sums (bits + fp32 gy)", 6, lambda: b._bn_partial(2, "ACT_RELU", xb, gy.reshape(-1, c), mean, inv,
                                                                  gamma, beta, xmode=2)),
        ("bn fwd fp32 (stats+y)", 12, lambda: b.bn_act_fwd("relu", x, gamma, beta, 1e-5)),
        ("bn fwd bf16 (stats+bits)", 10, lambda: b.bn_act_fwd("relu", x, gamma, beta, 1e-5, keep=[], write_y=False)),
        ("recast bits (xmode 2)", 4, lambda: lazy.source.bits()),
        ("bn bwd fp32 x", 20, lambda: b.bn_act_bwd("relu", gy, x, mean, inv, gamma, beta)),
        ("bn bwd bf16 bits", 16, lambda: b.bn_act_bwd("relu", gy, xb, mean, inv, gamma, beta)),
        ("add_act_twin (fp32 + bn bits)", 12, lambda: b.add_act_twin("relu", gy, plain)),
        ("act_bwd_sign", 10, lambda: b.act_bwd_sign(gy, yb, 0.0)),
        ("add_act_bwd fp32", 20, lambda: b.add_act_bwd("relu", gy, x, gy, x)),
        ("fan-in add_into", 12, lambda: b.add_into(x, gy)),
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--ab-partial", action="store_true",
                    help="also time every case with the column sums one channel per thread (bn_partial_vec off)")
    a = ap.parse_args()
    b = alpha.engine.cuda_float32(0, precision="bf16", auto_graph=False).backend
    total = {}
    for h, c in SHAPES:
        rng = np.random.default_rng(0)
        x = cupy.asarray(rng.standard_normal((a.batch, h, h, c), dtype=np.float32))
        gy = cupy.asarray(rng.standard_normal((a.batch, h, h, c), dtype=np.float32))
        for vec in (True, False) if a.ab_partial else (True,):
            b.bn_partial_vec = vec
            for name, per, fn in cases(b, x, gy, c):
                name += "" if vec else " [1-wide sums]"
                ms = median_ms(fn, a.reps)
                total[name] = total.get(name, 0.0) + ms
                print(f"{a.batch}x{h}x{h}x{c:<4} {name:>44}: {ms:7.3f} ms {per * x.size / ms / 1e6:7.0f} GB/s")
    print("sum over the four shapes (ms):\n  " + "\n  ".join(f"{k:44s} {v:.3f}" for k, v in total.items()))


if __name__ == "__main__":
    main()
