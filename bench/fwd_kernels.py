"""Benchmark (GPU, Hopper): the bf16 (or TF32) forward-style convolutions of every ResNet18-CIFAR shape at batch 512
— the forward (y as bf16 bits; TF32: fp32) and the stride-1 data gradient (gX fp32, the forward of gY with the
flipped filter) — on conv_wgmma.cu's cp.async kernel (C, 128 rows x 128 | 64 columns per block) against conv_tma.cu's
TMA kernel (T, persistent; 128 or 256 rows x 128 | 64 columns), with PyTorch's convolution of the same precision
(cuDNN, channels_last) in the same process: ms per call of --reps calls queued back to back (median of 5), after a
second of GPU spin-up, TFLOP/s of each shape's best, and the sums weighted by how often ResNet18 meets each shape.
Usage: python3 bench/fwd_kernels.py [--precision bf16|tf32] [--batch 512] [--reps 20]"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import cupy  # noqa: E402
import numpy as np  # noqa: E402

from alpha_py import alpha  # noqa: E402
from alpha_py.backend.cuda_tma import TMA_TILES  # noqa: E402
from conv_shapes import SHAPES, timeit_queued as timeit, warm_gpu  # noqa: E402  (bench/ is on sys.path when run as a script)

COUNT = {"layer1 3x3": 4, "layer2 3x3": 3, "layer3 3x3": 3, "layer4 3x3": 3}    # times a shape occurs in ResNet18


def torch_ms(x, w, stride, pad, reps, dgrad, bf16=True):
    import torch
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = True
    cl, dt = torch.channels_last, torch.bfloat16 if bf16 else torch.float32
    tx = torch.as_tensor(x, device="cuda").permute(0, 3, 1, 2).contiguous(memory_format=cl).to(dt)
    tw = torch.as_tensor(w, device="cuda").permute(0, 3, 1, 2).contiguous(memory_format=cl).to(dt)
    if not dgrad:
        return timeit(lambda: torch.nn.functional.conv2d(tx, tw, None, stride, pad), reps)
    ty = torch.nn.functional.conv2d(tx, tw, None, stride, pad)
    return timeit(lambda: torch.ops.aten.convolution_backward(ty, tx, tw, None, stride, pad, (1, 1), False, (0, 0),
                                                               1, (True, False, False)), reps)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--precision", choices=("bf16", "tf32"), default="bf16")
    a = ap.parse_args()
    bf = a.precision == "bf16"
    b = alpha.engine.cuda_float32(0, precision=a.precision, auto_graph=False).backend
    cast = (lambda v: b.to_bf16(cupy.asarray(v))) if bf else cupy.asarray
    if not b.wgmma_ok():
        sys.exit("fwd_kernels: the wgmma and TMA kernels need compute capability 9.0")
    warm_gpu()
    names = ["C128", "C64", "T128x128", "T128x64", "T256x128", "T256x64", "cuDNN"]
    print(f"{a.precision} forward-style convolutions, ms (C: cp.async gathers, T: TMA boxes; output tile rows x "
          "columns)")
    print(f"{'shape':>18}  " + " ".join(f"{n:>8}" for n in names) + "  best C / T / cuDNN TFLOP/s")
    tot = np.zeros(3)
    for name, h, ic, oc, k, st, p in SHAPES:
        if ic % (64 if bf else 32):
            continue
        rng = np.random.default_rng(0)
        x = rng.standard_normal((a.batch, h, h, ic), dtype=np.float32)
        w = (rng.standard_normal((oc, k, k, ic)) / np.sqrt(k * k * ic)).astype(np.float32)
        xb, wb = cast(x), cast(w)
        oh = (h + 2 * p - k) // st + 1
        flops = 2.0 * a.batch * oh * oh * oc * k * k * ic
        for dgrad in ((False, True) if st == 1 else (False,)):
            if dgrad:
                gy = cast(rng.standard_normal((a.batch, oh, oh, oc), dtype=np.float32))
                wd = cupy.asarray(w)
                def run(bn, tma, bm=128, gy=gy, wd=wd):
                    return b.tc_bwd_data(gy, wd, x.shape, (p, p), bm, bn, True, bf, (1, 1), tma=tma)
                ok = b.tma_fwd_ok(gy.shape, (ic, k, k, oc), (h, h), (1, 1), gy, bf16=bf)
            else:
                def run(bn, tma, bm=128, xb=xb, wb=wb, st=st, p=p):
                    return b.tc_fwd(xb, wb, (st, st), (p, p), bm, bn, True, bf, y_bits=bf, tma=tma)
                ok = b.tma_fwd_ok(xb.shape, wb.shape, (oh, oh), (st, st), xb, wb, bf16=bf)
            row = [timeit(lambda bn=bn: run(bn, False), a.reps) for bn in (128, 64)]
            row += [timeit(lambda bm=bm, bn=bn: run(bn, True, bm), a.reps) if ok else float("nan")
                    for bm, bn in TMA_TILES]
            row.append(torch_ms(x, w, (st, st), (p, p), a.reps, dgrad, bf))
            best = [min(row[:2]), np.nanmin(row[:6]), row[6]]
            n = COUNT.get(name, 1)
            tot += n * np.array(best)
            label = name + (" dgrad" if dgrad else "")
            print(f"{label:>18}  " + " ".join(f"{v:8.3f}" for v in row) + "  " +
                  " / ".join(f"{flops / v / 1e9:.0f}" for v in best))
    print(f"per ResNet18 step (each shape's best, times its count): cp.async {tot[0]:.3f} ms, with TMA "
          f"{tot[1]:.3f} ms, cuDNN {tot[2]:.3f} ms")


if __name__ == "__main__":
    main()
