"""Benchmark: the CPU engine's 3x3 stride-1 convolutions, im2col tiles vs Winograd F(2x2, 3x3) (forward,
grad-data, and grad-filter forced onto Winograd) vs the F(4x4, 3x3) forward, on the MNIST CNN's conv2 and
ResNet18-CIFAR's layer shapes (backend calls, best of --reps; errors against im2col, relative to the largest output).
Usage: python3 bench/cpu_conv_algos.py [--threads 2] [--reps 10]"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import alpha_py.backend.cpu_conv as cpu_conv  # noqa: E402
from alpha_py.backend.cpu import CpuBackend  # noqa: E402
from cpu_kernels import best_ms  # noqa: E402  (bench/, this script's folder)

SHAPES = [(64, 14, 32, 64), (32, 32, 64, 64), (32, 16, 128, 128), (32, 8, 256, 256), (32, 4, 512, 512)]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--reps", type=int, default=10)
    a = p.parse_args()
    be = CpuBackend(np.float32, a.threads)
    rng = np.random.default_rng(0)
    print(f"{'N, H, C -> OC':<20} {'im2col fwd':>11} {'grad-data':>10} {'grad-filter':>12} {'Winograd fwd':>13}"
          f" {'grad-data':>10} {'grad-filter':>12} {'F(4x4) fwd':>11} {'diff F(2x2)':>12} {'diff F(4x4)':>12}")
    cpu_conv.WINO_FILTER_MIN_TILES = cpu_conv.WINO_FILTER_MIN_CHANNELS = 0     # time Winograd's grad-filter anyway
    for n, h, c, oc in SHAPES:
        x = rng.standard_normal((n, h, h, c), dtype=np.float32)
        w = rng.standard_normal((oc, 3, 3, c), dtype=np.float32)
        gy = rng.standard_normal((n, h, h, oc), dtype=np.float32)
        row, ys = [], []
        cpu_conv.WINO4 = False                  # the F(2x2) columns
        for wino in (False, True):
            cpu_conv.WINOGRAD = wino
            ys.append(be.conv_fwd(x, w, (1, 1), (1, 1)))
            row += [best_ms(lambda: be.conv_fwd(x, w, (1, 1), (1, 1)), a.reps),
                    best_ms(lambda: be.conv_bwd_data(gy, w, x.shape, (1, 1), (1, 1)), a.reps),
                    best_ms(lambda: be.conv_bwd_filter(x, gy, w.shape, (1, 1), (1, 1)), a.reps)]
        ys.append(be._winograd4(x, w, (1, 1)))
        row.append(best_ms(lambda: be._winograd4(x, w, (1, 1)), a.reps))
        d2, d4 = (np.abs(ys[0] - y).max() / np.abs(ys[0]).max() for y in ys[1:])
        print(f"{f'{n}, {h}, {c} -> {oc}':<20} {row[0]:>11.2f} {row[1]:>10.2f} {row[2]:>12.2f} {row[3]:>13.2f}"
              f" {row[4]:>10.2f} {row[5]:>12.2f} {row[6]:>11.2f} {d2:>12.1e} {d4:>12.1e}", flush=True)


if __name__ == "__main__":
    main()
