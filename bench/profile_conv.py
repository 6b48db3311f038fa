"""Profiling driver: runs one ResNet18-CIFAR convolution shape through each forced algorithm a few times, so
Nsight Compute can be pointed at the kernels, e.g. (on the GPU machine)
  ncu --clock-control none -k regex:"wino|tc_conv|conv_" --launch-skip 6 --launch-count 6 \
      --section SpeedOfLight --section WarpStateStats python3 bench/profile_conv.py --hw 8 --c 256
Usage: python bench/profile_conv.py [--batch 512] [--hw 8] [--c 256] [--reps 3] [--algos winograd,tc,gemm]"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--hw", type=int, default=8)
    ap.add_argument("--c", type=int, default=256)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--algos", default="winograd,tc,gemm")
    a = ap.parse_args()
    import cupy
    from alpha_py import alpha
    eg = alpha.engine.cuda_float32(0, conv_autotune=False)
    b = eg.backend
    rng = np.random.RandomState(0)
    x = b.from_host(rng.randn(a.batch, a.hw, a.hw, a.c).astype(np.float32))
    w = b.from_host((rng.randn(a.c, 3, 3, a.c) / np.sqrt(9 * a.c)).astype(np.float32))
    gy = b.from_host(rng.randn(a.batch, a.hw, a.hw, a.c).astype(np.float32))
    s, p = (1, 1), (1, 1)
    runs = {"winograd": lambda: (b.wino_fwd(x, w, p), b.wino_bwd_data(gy, w, x.shape, p),
                                 b.wino_bwd_filter(x, gy, w.shape, p)),
            "tc": lambda: (b.tc_fwd(x, w, s, p, 128, 128), b.tc_bwd_data(gy, w, x.shape, p, 128, 128),
                           b.tc_bwd_filter(x, gy, w.shape, s, p, 128, 128)),
            "gemm": lambda: (b._gemm_fwd(x, w, s, p, (a.hw, a.hw), 128, 128),
                             b._gemm_bwd_data(gy, w, x.shape, s, p, 128, 128),
                             b._gemm_bwd_filter(x, gy, w.shape, s, p, 128, 128))}
    for name in a.algos.split(","):
        for _ in range(a.reps):
            runs[name]()
    cupy.cuda.Device().synchronize()
    print("done", a.algos)


if __name__ == "__main__":
    main()
