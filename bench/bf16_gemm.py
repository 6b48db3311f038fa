"""Benchmark (GPU): TFLOP/s of the bf16 tensor-core GEMM (kernels/gemm_bf16.cu) beside our strict-fp32 matmul
and PyTorch's bf16 / fp32 matmul (cuBLAS) on the same shapes; median of CUDA-event timings over random data.
Usage: python3 bench/bf16_gemm.py [--reps 20]"""
import argparse

import cupy
import numpy as np

from alpha_py import alpha
from conv_shapes import timeit as median_ms  # bench/ is on sys.path when run as a script


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=20)
    args = ap.parse_args()
    eb = alpha.engine.cuda_float32(0, precision="bf16", auto_graph=False)
    ef = alpha.engine.cuda_float32(0, auto_graph=False)
    try:
        import torch
    except ImportError:
        torch = None
    print(f"{'M x K x N':>22} {'bf16 ours':>10} {'fp32 ours':>10} {'torch bf16':>10} {'torch fp32':>10}  (TFLOP/s)")
    for m, k, n in [(4096, 4096, 4096), (8192, 8192, 8192), (512, 512, 512), (512, 4096, 1000), (65536, 512, 512)]:
        rng = np.random.default_rng(0)
        a = cupy.asarray(rng.standard_normal((m, k), dtype=np.float32))
        b = cupy.asarray(rng.standard_normal((k, n), dtype=np.float32))
        fl = 2.0 * m * n * k
        row = [fl / median_ms(lambda: eb.backend.matmul(a, b), args.reps) / 1e9,
               fl / median_ms(lambda: ef.backend.matmul(a, b), args.reps) / 1e9]
        if torch is not None:
            ta, tb = torch.as_tensor(a, device="cuda"), torch.as_tensor(b, device="cuda")
            ha, hb = ta.bfloat16(), tb.bfloat16()
            row.append(fl / median_ms(lambda: ha @ hb, args.reps) / 1e9)
            torch.backends.cuda.matmul.allow_tf32 = False
            row.append(fl / median_ms(lambda: ta @ tb, args.reps) / 1e9)
        print(f"{f'{m} x {k} x {n}':>22} " + " ".join(f"{v:10.1f}" for v in row))


if __name__ == "__main__":
    main()
