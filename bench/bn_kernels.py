"""Bench (GPU machine): bf16 training's BatchNorm passes alone on one [M, C] shape — bn_apply writing the Recast's
bits from the kept input bits, and bn_act_bwd (column sums, finish, apply) from those bits to gradient bits, leakyRelu
and plain — against a CuPy fp32 copy of the same shape, each the mean of --reps launches (not asserted).
Usage: python bench/bn_kernels.py [M] [C] [--reps 50]"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def main():
    import cupy
    import numpy as np
    from alpha_py import alpha
    ap = argparse.ArgumentParser()
    ap.add_argument("m", type=int, nargs="?", default=524288)
    ap.add_argument("c", type=int, nargs="?", default=64)
    ap.add_argument("--reps", type=int, default=50)
    a = ap.parse_args()
    b = alpha.engine.cuda_float32(0, precision="bf16", auto_graph=False).backend
    rng = np.random.default_rng(0)
    x, gy = (cupy.asarray(rng.standard_normal((a.m, a.c), dtype=np.float32)) for _ in range(2))
    gamma, beta = (cupy.asarray(rng.standard_normal(a.c, dtype=np.float32)) for _ in range(2))
    keep = []
    _, mean, _, inv = b.bn_act_fwd("leakyRelu", x, gamma, beta, 1e-5, keep=keep)
    lazy = b.bn_lazy((a.m, a.c), "leakyRelu", keep[0], mean, inv, gamma, beta)

    def timed(name, f):
        for _ in range(3):
            f()
        s, e = cupy.cuda.Event(), cupy.cuda.Event()
        s.record()
        for _ in range(a.reps):
            f()
        e.record()
        e.synchronize()
        print(f"{name:44s} {a.m}x{a.c}: {cupy.cuda.get_elapsed_time(s, e) * 1e3 / a.reps:8.1f} us")

    timed("bn_apply<LEAKY_RELU> bits -> bits", lazy.source.bits)
    for act in ("leakyRelu", None):
        timed(f"bn_act_bwd {act} (sums + finish + apply)",
              lambda act=act: b.bn_act_bwd(act, gy, keep[0], mean, inv, gamma, beta, gx_bits=True))
    timed("fp32 copy (cupy.copyto)", lambda: cupy.copyto(gy, x))


if __name__ == "__main__":
    main()
