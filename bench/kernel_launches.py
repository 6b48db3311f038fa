"""Bench (GPU machine): every kernel launched through the CUDA backend's kernel() in one eager bf16 training step of
ResNet18- or VGG16-CIFAR (b512), each timed alone (events around it) with the bytes of its array arguments and the
GB/s those bytes make; launches whose name matches --show are listed one by one, then totals per kernel name. An upper
bound on each kernel's traffic (small per-channel arrays counted once), not a profile of a captured step.
Usage: python bench/kernel_launches.py [--net resnet18] [--show REGEX] [--top 40]"""
import argparse
import collections
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)


def main():
    import cupy
    import numpy as np
    from profile_step import alpha_step_fn
    ap = argparse.ArgumentParser()
    ap.add_argument("--net", default="resnet18", choices=("resnet18", "vgg16"))
    ap.add_argument("--show", default=None)
    ap.add_argument("--top", type=int, default=40)
    a = ap.parse_args()
    rng = np.random.default_rng(0)
    images = [rng.integers(0, 256, (512, 32, 32, 3), dtype=np.uint8) for _ in range(2)]
    labels = np.eye(10, dtype=np.float32)[rng.integers(0, 10, 512)]
    step, sync = alpha_step_fn(a.net, 512, "bf16", images, labels)
    step.engine.auto_graph(False)
    for i in range(3):
        step(i)
    sync()
    be, log, kernel = step.engine.backend, [], step.engine.backend.kernel

    def timed_kernel(family, name, smem=0):
        k = kernel(family, name, smem)

        def call(grid, block, args, *rest, **kw):
            s, e = cupy.cuda.Event(), cupy.cuda.Event()
            s.record()
            k(grid, block, args, *rest, **kw)
            e.record()
            e.synchronize()
            arrs = [x for x in args if isinstance(x, cupy.ndarray)]
            log.append((name, grid, [f"{x.dtype.str[1:]}{list(x.shape)}" for x in arrs], sum(x.nbytes for x in arrs),
                        cupy.cuda.get_elapsed_time(s, e) * 1e3))
        return call
    be.kernel = timed_kernel
    step(5)
    sync()
    show = re.compile(a.show) if a.show else None
    totals = collections.defaultdict(lambda: [0.0, 0, 0])
    for name, grid, shapes, nbytes, us in log:
        t = totals[name]
        t[0], t[1], t[2] = t[0] + us, t[1] + 1, t[2] + nbytes
        if show and show.search(name):
            print(f"{us:8.1f} us {nbytes / us / 1e3:7.0f} GB/s  {name[:40]:40s} grid {grid} {' '.join(shapes)[:150]}")
    print(f"\n{'us/step':>9s} {'calls':>5s} {'GB/s':>7s}  kernel")
    for name, (us, n, nbytes) in sorted(totals.items(), key=lambda kv: -kv[1][0])[:a.top]:
        print(f"{us:9.1f} {n:5d} {nbytes / us / 1e3:7.0f}  {name}")
    print(f"total {sum(t[0] for t in totals.values()):.1f} us of kernels launched through kernel()")


if __name__ == "__main__":
    main()
