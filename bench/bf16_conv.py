"""Benchmark (GPU): TFLOP/s of the bf16 convolutions (conv_bf16.cu / conv_wgmma.cu, chosen by timing) beside our
TF32 path (algorithm chosen by timing) on the ResNet18-CIFAR layers at batch 512; median of CUDA-event timings over
random data; the bf16 algorithm each pass ran.
Usage: python3 bench/bf16_conv.py [--batch 512] [--reps 10]"""
import argparse

import cupy
import numpy as np

from alpha_py import alpha
from conv_shapes import timeit as median_ms  # bench/ is on sys.path when run as a script

# (H, IC, OC, F, stride): ResNet18-CIFAR's convolutions (3x3 pad 1, 1x1 pad 0)
LAYERS = [(32, 64, 64, 3, 1), (32, 64, 128, 3, 2), (16, 128, 128, 3, 1), (16, 128, 256, 3, 2),
          (8, 256, 256, 3, 1), (8, 256, 512, 3, 2), (4, 512, 512, 3, 1), (32, 64, 128, 1, 2)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--reps", type=int, default=10)
    a = ap.parse_args()
    engines = {"bf16": alpha.engine.cuda_float32(0, precision="bf16", auto_graph=False),
               "tf32": alpha.engine.cuda_float32(0, precision="tf32", auto_graph=False)}
    print(f"{'layer (H IC->OC F s)':>24} " + " ".join(f"{p + ' ' + k:>15}" for k in ("fwd", "dgrad", "wgrad")
                                                     for p in engines) + "   (TFLOP/s)")
    tot = {p: 0.0 for p in engines}
    for h, ic, oc, f, s in LAYERS:
        rng = np.random.default_rng(0)
        pad = (f // 2, f // 2)
        oh = (h + 2 * pad[0] - f) // s + 1
        x = cupy.asarray(rng.standard_normal((a.batch, h, h, ic), dtype=np.float32))
        w = cupy.asarray(rng.standard_normal((oc, f, f, ic), dtype=np.float32))
        gy = cupy.asarray(rng.standard_normal((a.batch, oh, oh, oc), dtype=np.float32))
        fl = 2.0 * a.batch * oh * oh * oc * f * f * ic
        row, algos = {}, []
        for p, eg in engines.items():
            b = eg.backend
            for k, fn in (("fwd", lambda: b.conv_fwd(x, w, (s, s), pad)),
                          ("dgrad", lambda: b.conv_bwd_data(gy, w, x.shape, (s, s), pad)),
                          ("wgrad", lambda: b.conv_bwd_filter(x, gy, w.shape, (s, s), pad))):
                ms = median_ms(fn, a.reps)
                tot[p] += ms
                row[(p, k)] = fl / ms / 1e9
                if p == "bf16":
                    algos.append(b.last_conv_algo)
        cells = " ".join(f"{row[(p, k)]:15.1f}" for k in ("fwd", "dgrad", "wgrad") for p in engines)
        print(f"{f'{h} {ic}->{oc} {f}x{f} s{s}':>24} {cells}   bf16: " + " ".join(algos))
    print("sum of the listed passes (ms, each layer once): " + ", ".join(f"{p} {v:.2f}" for p, v in tot.items()))


if __name__ == "__main__":
    main()
