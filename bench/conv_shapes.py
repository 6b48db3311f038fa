"""Benchmark: every convolution shape of ResNet18-CIFAR (batch N, NHWC) — forward, backward-data and
backward-filter time of Alpha's kernels (the per-shape choice among Winograd, implicit-GEMM tiles and, with
--tf32, the tensor-core kernels) vs PyTorch's conv (cuDNN, channels_last) on the same GPU in one process, strict fp32 (TF32 off in PyTorch). Also checks our result against PyTorch. --tf32: TF32 in both.
Usage: python bench/conv_shapes.py [--batch 512] [--reps 10] [--tf32]"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402

SHAPES = [  # name, H=W, IC, OC, k, stride, pad
    ("stem 3x3", 32, 3, 64, 3, 1, 1),
    ("layer1 3x3", 32, 64, 64, 3, 1, 1),
    ("layer2 3x3 s2", 32, 64, 128, 3, 2, 1),
    ("layer2 3x3", 16, 128, 128, 3, 1, 1),
    ("layer2 1x1 s2", 32, 64, 128, 1, 2, 0),
    ("layer3 3x3 s2", 16, 128, 256, 3, 2, 1),
    ("layer3 3x3", 8, 256, 256, 3, 1, 1),
    ("layer3 1x1 s2", 16, 128, 256, 1, 2, 0),
    ("layer4 3x3 s2", 8, 256, 512, 3, 2, 1),
    ("layer4 3x3", 4, 512, 512, 3, 1, 1),
    ("layer4 1x1 s2", 8, 256, 512, 1, 2, 0),
]


def abbr(algo):
    """winograd -> W, gemm128x64 -> G128x64 (implicit GEMM), tc128x64 -> T128x64 (pipelined TF32 mma.sync),
    wg128x64 -> H128x64 (Hopper wgmma)."""
    return "W" if algo == "winograd" else algo.replace("gemm", "G").replace("tc", "T").replace("wg", "H")


def warm_gpu(seconds=1.0):
    """Run matrix products for `seconds` so the clocks are up before the first timed shape."""
    import time
    import cupy
    a = cupy.random.rand(4096, 4096, dtype=cupy.float32)
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        a @ a
        cupy.cuda.Device().synchronize()


def timeit(fn, reps, warmup=2):
    import cupy
    for _ in range(warmup):
        fn()
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    times = []
    for _ in range(reps):
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, end))
    return float(np.median(times))


def timeit_queued(fn, reps, warmup=1):
    """ms per call of `reps` calls queued back to back between two events (the host's launch cost hidden behind the
    GPU work, as in a captured step), median of 5 such runs."""
    import cupy
    for _ in range(warmup):
        fn()
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    times = []
    for _ in range(5):
        start.record()
        for _ in range(reps):
            fn()
        end.record()
        end.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, end) / reps)
    return float(np.median(times))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--tf32", action="store_true", help="allow TF32 in PyTorch and in ours (tensor cores)")
    ap.add_argument("--ks", type=int, default=2, help="our TF32 kernels: k-tiles of 8 per smem stage (1|2)")
    ap.add_argument("--no-autotune", action="store_true", help="fixed algorithm choice (Winograd where it applies)")
    a = ap.parse_args()
    import cupy
    import torch
    import torch.nn.functional as tF
    from alpha_py import alpha
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = a.tf32
    torch.backends.cuda.matmul.allow_tf32 = a.tf32
    eg = alpha.engine.cuda_float32(0, tf32=a.tf32, conv_autotune=not a.no_autotune)
    b = eg.backend
    b.tf32_ks = a.ks
    rng = np.random.RandomState(0)
    n = a.batch
    print(f"# conv shapes of ResNet18-CIFAR, batch {n}, {torch.cuda.get_device_name()}, "
          f"torch {torch.__version__} cuDNN {torch.backends.cudnn.version()}, "
          f"TF32 {'on in both (ours ks=' + str(a.ks) + ')' if a.tf32 else 'off in both'}; times in ms (median of {a.reps})")
    hdr = (f"{'shape':16s} {'GFLOP':>6s} | {'ours fwd':>8s} {'bwd-d':>7s} {'bwd-f':>7s} | "
           f"{'torch fwd':>9s} {'bwd-d':>7s} {'bwd-f':>7s} | {'ratio f':>7s} {'d':>5s} {'f':>5s} | {'our TFLOP/s f/d/w':>18s} | relerr  "
           f"algo f/d/w (W winograd, G implicit GEMM, T pipelined TF32, H wgmma; tile)")
    print(hdr)
    tot = np.zeros(6)
    warm_gpu()
    for name, hw, ic, oc, k, s, p in SHAPES:
        x = rng.randn(n, hw, hw, ic).astype(np.float32)
        w = (rng.randn(oc, k, k, ic) / np.sqrt(k * k * ic)).astype(np.float32)
        xd, wd = b.from_host(x), b.from_host(w)
        yd = b.conv_fwd(xd, wd, (s, s), (p, p))
        gy = cupy.asarray(rng.randn(*yd.shape).astype(np.float32))
        flop = 2.0 * yd.size * k * k * ic
        t_of = timeit(lambda: b.conv_fwd(xd, wd, (s, s), (p, p)), a.reps)
        algo = [b.last_conv_algo]
        t_od = timeit(lambda: b.conv_bwd_data(gy, wd, x.shape, (s, s), (p, p)), a.reps)
        algo.append(b.last_conv_algo)
        t_ow = timeit(lambda: b.conv_bwd_filter(xd, gy, w.shape, (s, s), (p, p)), a.reps)
        algo.append(b.last_conv_algo)
        xt = torch.from_numpy(x).cuda().permute(0, 3, 1, 2)             # NCHW view of NHWC memory
        wt = torch.from_numpy(w).cuda().permute(0, 3, 1, 2)             # OIHW view of OHWI memory
        gyt = torch.as_tensor(gy, device="cuda").permute(0, 3, 1, 2)
        yt = tF.conv2d(xt, wt, stride=s, padding=p)
        err = float(torch.linalg.norm(torch.as_tensor(yd, device="cuda").permute(0, 3, 1, 2) - yt) / torch.linalg.norm(yt))
        gxo = b.conv_bwd_data(gy, wd, x.shape, (s, s), (p, p))
        gxt = torch.nn.grad.conv2d_input(xt.shape, wt, gyt, stride=s, padding=p)
        err = max(err, float(torch.linalg.norm(torch.as_tensor(gxo, device="cuda").permute(0, 3, 1, 2) - gxt) / torch.linalg.norm(gxt)))
        gwo = b.conv_bwd_filter(xd, gy, w.shape, (s, s), (p, p))
        gwt = torch.nn.grad.conv2d_weight(xt, wt.shape, gyt, stride=s, padding=p)
        err = max(err, float(torch.linalg.norm(torch.as_tensor(gwo, device="cuda").permute(0, 3, 1, 2) - gwt) / torch.linalg.norm(gwt)))
        t_tf = timeit(lambda: tF.conv2d(xt, wt, stride=s, padding=p), a.reps)
        t_td = timeit(lambda: torch.nn.grad.conv2d_input(xt.shape, wt, gyt, stride=s, padding=p), a.reps)
        t_tw = timeit(lambda: torch.nn.grad.conv2d_weight(xt, wt.shape, gyt, stride=s, padding=p), a.reps)
        row = np.array([t_of, t_od, t_ow, t_tf, t_td, t_tw])
        tot += row
        tf = lambda t: flop / t / 1e9
        print(f"{name:16s} {flop / 1e9:6.2f} | {t_of:8.3f} {t_od:7.3f} {t_ow:7.3f} | {t_tf:9.3f} {t_td:7.3f} {t_tw:7.3f} | "
              f"{t_of / t_tf:7.2f} {t_od / t_td:5.2f} {t_ow / t_tw:5.2f} | {tf(t_of):5.1f} {tf(t_od):5.1f} {tf(t_ow):5.1f}      | {err:.1e} "
              f"{'/'.join(abbr(n) for n in algo)}")
    print(f"{'sum (one each)':16s} {'':6s} | {tot[0]:8.3f} {tot[1]:7.3f} {tot[2]:7.3f} | {tot[3]:9.3f} {tot[4]:7.3f} "
          f"{tot[5]:7.3f} | {tot[0] / tot[3]:7.2f} {tot[1] / tot[4]:5.2f} {tot[2] / tot[5]:5.2f} |")


if __name__ == "__main__":
    main()
