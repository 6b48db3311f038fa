"""Profile of one training step, kernel by kernel: Alpha's ResNet18-CIFAR step (CuPy kernels, seen through
CUPTI by torch.profiler, which records every kernel of the process) beside PyTorch's, same batch and mode.
Prints the top kernels by total GPU time per step, the GPU-busy time and the wall time per step.
Usage (GPU machine): python bench/profile_step.py [--batch 512] [--steps 5] [--tf32 | --precision bf16] [--net resnet18]
[--top 25] (bf16: PyTorch under autocast bf16)"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402


def alpha_step_fn(net_name, batch, precision, images, labels):
    from alpha_py import alpha, nn
    eg = alpha.engine.cuda_float32(0, alpha.engine.memp3(40 << 30), precision=precision).set_seed(0)
    net = (nn.ResNet18("leakyRelu") if net_name == "resnet18" else nn.VGG16("leakyRelu")).init(eg)
    opt, ce = alpha.optim.Adam(net.params(), 1e-3), alpha.loss.softmax_crossEntropy()
    y = eg.tensor(labels)
    eg.sync(False)

    def step(i):
        x = eg.images(images[i % len(images)])
        yh = net.forward(x)[0]
        net.backward(ce.gradient(yh, y))
        opt.update().clear_grads()
        net.gc()
    step.engine = eg
    return step, eg.backend.synchronize


def print_algos(eg):
    """The convolution algorithms this process timed: per pass and shapes, the candidates' ms and the choice."""
    for key, times in eg.backend._algo_cache().timings.items():
        best = min(times, key=times.get)
        print(f"{best:>14s}  " + " ".join(f"{n}={t:.3f}" for n, t in sorted(times.items())) + f"  {key}")


def torch_step_fn(net_name, batch, precision, images, labels):
    import torch
    tf32 = precision == "tf32"
    from resnet18_cifar import torch_nets
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = tf32
    torch.backends.cuda.matmul.allow_tf32 = tf32
    model = torch_nets()[net_name]().cuda().to(memory_format=torch.channels_last)
    opt, lossf = torch.optim.Adam(model.parameters(), lr=1e-3), torch.nn.CrossEntropyLoss()
    lab = torch.from_numpy(labels.argmax(-1)).cuda()

    def step(i):
        u8 = torch.from_numpy(images[i % len(images)]).cuda(non_blocking=True)
        x = (u8.permute(0, 3, 1, 2).float() * (2 / 255) - 1).contiguous(memory_format=torch.channels_last)
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=precision == "bf16"):
            loss = lossf(model(x), lab)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    return step, torch.cuda.synchronize


def profile(name, step, sync, steps, top):
    import torch
    from torch.profiler import ProfilerActivity, profile as tprof
    for i in range(3):
        step(i)
    sync()
    t0 = time.perf_counter()
    for i in range(steps):
        step(i)
    sync()
    wall = (time.perf_counter() - t0) / steps * 1e3
    with tprof(activities=[ProfilerActivity.CUDA]) as prof:
        for i in range(steps):
            step(i)
        sync()
    rows = {}
    for ev in prof.events():
        if ev.device_type == torch.autograd.DeviceType.CUDA:
            r = rows.setdefault(ev.name, [0.0, 0])
            r[0] += ev.device_time_total if hasattr(ev, "device_time_total") else ev.cuda_time_total
            r[1] += 1
    busy = sum(r[0] for r in rows.values()) / steps / 1e3
    print(f"\n## {name}: wall {wall:.1f} ms/step, GPU busy {busy:.1f} ms/step, "
          f"{sum(r[1] for r in rows.values()) / steps:.0f} kernels/step")
    print(f"{'ms/step':>8s} {'calls':>6s}  kernel")
    for k, (us, n) in sorted(rows.items(), key=lambda kv: -kv[1][0])[:top]:
        print(f"{us / steps / 1e3:8.3f} {n // steps:6d}  {k[:110]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--tf32", action="store_true")
    ap.add_argument("--precision", default=None, help="fp32 | tf32 | bf16 (overrides --tf32)")
    ap.add_argument("--net", default="resnet18")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--skip-torch", action="store_true")
    ap.add_argument("--algos", action="store_true", help="print the convolution algorithms timed in this process")
    a = ap.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    rng = np.random.RandomState(0)
    images = [rng.randint(0, 256, (a.batch, 32, 32, 3)).astype(np.uint8) for _ in range(4)]
    labels = np.eye(10, dtype=np.float32)[rng.randint(0, 10, a.batch)]
    mode = a.precision or ("tf32" if a.tf32 else "fp32")
    step, sync = alpha_step_fn(a.net, a.batch, mode, images, labels)
    profile(f"alpha {a.net} {mode} batch {a.batch}", step, sync, a.steps, a.top)
    if a.algos:
        print_algos(step.engine)
    if not a.skip_torch:
        profile(f"torch {a.net} {mode} batch {a.batch}", *torch_step_fn(a.net, a.batch, mode, images, labels),
                a.steps, a.top)


if __name__ == "__main__":
    main()
