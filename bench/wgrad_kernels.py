"""Benchmark (GPU, Hopper): the weight gradient (bwd-filter) of every ResNet18-CIFAR convolution shape at batch 512 on
the wgmma kernels — bf16: gY transposed first (bf16_wgrad_mn off) against gY's bits read as they are (MN-major
operands) in 128- and 256-row tiles, cp.async-gathered (M) or brought by the TMA (A, kernels/conv_tma.cu), and for
3x3 stride-1 layers each k-tile's input rows brought once with their halo (H1 / H2: slices for 1 / 2 waves of
blocks, kernels/conv_tma_halo.cu); TF32:
the transposed-gY kernel against gY read as it is (transposed tile by tile in shared memory, each staging depth) —
each including its gY pass and the split sums, against PyTorch's weight gradient (cuDNN, channels_last) in the same
precision: ms per call of --reps calls queued back to back (conv_shapes.timeit_queued), after a second of GPU
spin-up.
Usage: python3 bench/wgrad_kernels.py [--precision bf16|tf32] [--batch 512] [--reps 20]"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import cupy  # noqa: E402
import numpy as np  # noqa: E402

from alpha_py import alpha  # noqa: E402
from conv_shapes import SHAPES, timeit_queued as timeit  # noqa: E402  (bench/ is on sys.path when run as a script)

COUNT = {"layer1 3x3": 4, "layer2 3x3": 3, "layer3 3x3": 3, "layer4 3x3": 3}    # times a shape occurs in ResNet18


def spin_up(seconds=1.0):
    """Keep the GPU busy for a while first: the first shapes timed on an idle GPU ran up to 10x slow (clocks)."""
    import time
    a = cupy.ones((4096, 4096), np.float32)
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        a @ a
        cupy.cuda.Device().synchronize()


def torch_ms(x, gy, shape, stride, pad, bf16, reps):
    import torch
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = torch.backends.cuda.matmul.allow_tf32 = not bf16
    dt = torch.bfloat16 if bf16 else torch.float32
    cl = torch.channels_last
    tx, tg = (torch.as_tensor(a, device="cuda").permute(0, 3, 1, 2).contiguous(memory_format=cl).to(dt)
              for a in (x, gy))
    tw = torch.empty(shape[0], shape[3], shape[1], shape[2], device="cuda", dtype=dt).contiguous(memory_format=cl)
    return timeit(lambda: torch.ops.aten.convolution_backward(tg, tx, tw, None, stride, pad, (1, 1), False, (0, 0),
                                                               1, (False, False, True)), reps)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--precision", default="bf16", choices=("bf16", "tf32"))
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--reps", type=int, default=20)
    a = ap.parse_args()
    bf16 = a.precision == "bf16"
    b = alpha.engine.cuda_float32(0, precision=a.precision, auto_graph=False).backend
    if not b.wgmma_ok():
        sys.exit("wgrad_kernels: the wgmma kernels need compute capability 9.0")
    # (label, gY as it is?, rows, output channels, TF32 staging depth)
    variants = [("T", False, 128, bn, 0) for bn in (128, 64)] + (
        [(k, True, bm, bn, 0) for k in "MA" for bm in (128, 256) for bn in (128, 64)]
        + [("H", True, 128, 64, w) for w in (1, 2)] if bf16 else
        [("M", True, 128, bn, dp) for bn, dp in ((128, 3), (128, 2), (64, 3), (64, 2))])
    names = [f"H{dp}" if k == "H" else f"{k}{bm}x{bn}" + (f"s{dp}" if dp else "") for k, _, bm, bn, dp in variants]
    names += ["cuDNN"]
    spin_up()
    print(f"{a.precision} bwd-filter ms (T: gY transposed first, M: gY read as it is, A: M's operands brought by the "
          "TMA; rows x output channels; H1/H2: 3x3 stride 1 with the input's halo, slices for 1/2 waves)")
    print(f"{'shape':>14}  " + " ".join(f"{n:>8}" for n in names))
    best = [0.0, 0.0, 0.0, 0.0]             # weighted by ResNet18's counts: best T, best M, best of all, cuDNN
    for name, h, ic, oc, k, st, p in SHAPES:
        if not bf16 and ic % 4:
            continue
        rng = np.random.default_rng(0)
        x = cupy.asarray(rng.standard_normal((a.batch, h, h, ic), dtype=np.float32))
        oh = (h + 2 * p - k) // st + 1
        gy = cupy.asarray(rng.standard_normal((a.batch, oh, oh, oc), dtype=np.float32))
        xb = b.to_bf16(x, pad8=True) if bf16 else x
        row = []
        for kind, mn, bm, bn, depth in variants:     # (depth: not `st`, the layer's stride)
            b.bf16_wgrad_mn = b.tf32_wgrad_mn = mn
            b.tf32_wgrad_stages = {bn: depth or 3}

            def run(bm=bm, bn=bn, tma=kind == "A", halo=depth if kind == "H" else 0):
                b.__dict__.pop("_twins", None)          # gY's cast (or transpose) counted in every call
                return b.tc_bwd_filter(xb, gy, (oc, k, k, ic), (st, st), (p, p), bm, bn, True, bf16, tma=tma,
                                       halo=halo)
            ok = (kind != "A" or b.tma_wgrad_ok(xb.shape, oc, (oh, oh), (st, st))) and (
                kind != "H" or b.tma_halo_ok(xb.shape, (oc, k, k, ic), (oh, oh), (st, st)))
            row.append(timeit(run, a.reps) if ok else float("nan"))
        del b.bf16_wgrad_mn, b.tf32_wgrad_mn, b.tf32_wgrad_stages
        row.append(torch_ms(x.get(), gy.get(), (oc, k, k, ic), (st, st), (p, p), bf16, a.reps))
        n = COUNT.get(name, 1)
        best[0] += n * min(row[:2])
        best[1] += n * min(row[2:6] if bf16 else row[2:-1])
        best[2] += n * float(np.nanmin(row[:-1]))
        best[3] += n * row[-1]
        print(f"{name:>14}  " + " ".join(f"{v:8.3f}" for v in row))
    print(f"per ResNet18 step (each shape's best, times its count): transposed {best[0]:.3f} ms, as it is "
          f"{best[1]:.3f} ms, all (TMA included) {best[2]:.3f} ms, cuDNN {best[3]:.3f} ms")


if __name__ == "__main__":
    main()
