"""Benchmark: ResNet18-CIFAR and VGG16-CIFAR training steps (LeakyReLU, Adam lr 1e-3, synthetic uint8
32x32x3 batches uploaded each step) — Alpha (cuda_float32, async, memp3) vs PyTorch (channels_last,
cuDNN) on the same network, in one process on the same GPU. Step time and peak GPU memory, strict
fp32 in both, then TF32 allowed in both (Alpha: tf32=True, conv GEMMs on the tensor cores); --modes bf16: Alpha
precision="bf16" against PyTorch autocast bf16. Prints ratios.
Alpha runs its step op by op and as one replayed CUDA graph (alpha.train_step, --graph off,on).
Usage: python bench/resnet18_cifar.py [--batch 512] [--steps 20] [--warmup 3] [--nets resnet18,vgg16] [--graph off,on]"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402

MiB = 2 ** 20


# ------------------------------------------------------------------------------------ PyTorch nets
def torch_nets():
    import torch.nn as tnn

    def cba(i, o, s):
        return [tnn.Conv2d(i, o, 3, s, 1, bias=False), tnn.BatchNorm2d(o, momentum=0.1), tnn.LeakyReLU(0.01)]

    class Block(tnn.Module):
        def __init__(self, i, o, s):
            super().__init__()
            self.body = tnn.Sequential(*cba(i, o, s), tnn.Conv2d(o, o, 3, 1, 1, bias=False), tnn.BatchNorm2d(o))
            self.short = (tnn.Sequential(tnn.Conv2d(i, o, 1, s, 0, bias=False), tnn.BatchNorm2d(o))
                          if s != 1 or i != o else tnn.Identity())
            self.act = tnn.LeakyReLU(0.01)

        def forward(self, x):
            return self.act(self.body(x) + self.short(x))

    def resnet18():
        layers, c = cba(3, 64, 1), 64
        for i, w in enumerate((64, 128, 256, 512)):
            for j in range(2):
                layers.append(Block(c, w, 2 if i > 0 and j == 0 else 1))
                c = w
        return tnn.Sequential(*layers, tnn.AdaptiveAvgPool2d(1), tnn.Flatten(), tnn.Linear(512, 10))

    def vgg16():
        cfg = (64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M")
        layers, c = [], 3
        for v in cfg:
            if v == "M":
                layers.append(tnn.MaxPool2d(2, 2))
            else:
                layers += cba(c, v, 1)
                c = v
        return tnn.Sequential(*layers, tnn.AdaptiveAvgPool2d(1), tnn.Flatten(), tnn.Linear(512, 10))

    return {"resnet18": resnet18, "vgg16": vgg16}


def bench_torch(net_name, batch, steps, warmup, mode, images, labels):
    import torch
    tf32 = mode == "tf32"
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = tf32
    torch.backends.cuda.matmul.allow_tf32 = tf32
    torch.manual_seed(0)
    model = torch_nets()[net_name]().cuda().to(memory_format=torch.channels_last)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    lossf = torch.nn.CrossEntropyLoss()
    lab = torch.from_numpy(labels.argmax(-1)).cuda()
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()

    def step(i):
        u8 = torch.from_numpy(images[i % len(images)]).pin_memory().cuda(non_blocking=True)
        x = (u8.permute(0, 3, 1, 2).float() * (2 / 255) - 1).contiguous(memory_format=torch.channels_last)
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=mode == "bf16"):
            loss = lossf(model(x), lab)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        return loss

    for i in range(warmup):
        step(i)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for i in range(steps):
        loss = step(i)
    torch.cuda.synchronize()
    dt = (time.perf_counter() - t0) / steps
    res = dict(step_ms=dt * 1e3, peak_alloc=torch.cuda.max_memory_allocated() / MiB,
               peak_reserved=torch.cuda.max_memory_reserved() / MiB, loss=float(loss.detach()))
    return res


# ------------------------------------------------------------------------------------ Alpha
def bench_alpha(net_name, batch, steps, warmup, mode, images, labels, pool_kind, pool_gb, graph=False):
    from alpha_py import alpha, nn
    pool = getattr(alpha.engine, pool_kind)(int(pool_gb * 2 ** 30)) if pool_kind != "cupy" else None
    eg = alpha.engine.cuda_float32(0, pool, precision=mode).set_seed(0)
    net = nn.ResNet18("leakyRelu") if net_name == "resnet18" else nn.VGG16("leakyRelu")
    net.init(eg)
    opt = alpha.optim.Adam(net.params(), 1e-3)
    ce = alpha.loss.softmax_crossEntropy()
    Y = eg.tensor(labels)
    eg.sync(False)

    runner = alpha.train_step(net, ce, opt, graph=True) if graph else None

    def step(i):
        X = eg.images(images[i % len(images)])
        if runner is not None:          # forward+loss+backward+update as one replayed CUDA graph
            return runner(X, Y)
        yh = net.forward(X)[0]
        loss = ce.loss(yh, Y)
        net.backward(ce.gradient(yh, Y))
        opt.update().clear_grads()
        net.gc()
        return loss

    t_first = time.perf_counter()
    step(0).get()                   # first step: kernel compiles (or disk cache loads) and algorithm timing
    t_first = time.perf_counter() - t_first
    for i in range(1, warmup):
        step(i).get()
    eg.backend.synchronize()
    t0 = time.perf_counter()
    host = 0.0
    for i in range(steps):
        h0 = time.perf_counter()
        loss = step(i)
        host += time.perf_counter() - h0
    eg.backend.synchronize()
    dt = (time.perf_counter() - t0) / steps
    st = eg.backend.memory.stats()
    res = dict(step_ms=dt * 1e3, host_ms=host / steps * 1e3, first_s=t_first, peak_alloc=st.get("peak_used", float("nan")) / MiB,
               peak_reserved=st.get("peak_reserved", st["reserved"]) / MiB, loss=loss.get())
    eg.sync(True)
    net.delete()
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--nets", default="resnet18,vgg16")
    ap.add_argument("--modes", default="fp32,tf32")
    ap.add_argument("--pool", default="memp3", help="memp1|memp2|memp3|cupy")
    ap.add_argument("--pool-gb", type=float, default=40.0)
    ap.add_argument("--graph", default="off,on",
                    help="Alpha step op by op (off) and/or as a captured CUDA graph via alpha.train_step (on)")
    ap.add_argument("--cold-cache", action="store_true",
                    help="compile every kernel and time every convolution algorithm afresh (empty CuPy kernel cache "
                         "and algorithm cache in a temp folder): the first-step time is then the cold start")
    a = ap.parse_args()
    if a.cold_cache:
        import tempfile
        tmp = tempfile.mkdtemp(prefix="alpha-cold-")
        os.environ["CUPY_CACHE_DIR"] = os.path.join(tmp, "cupy")
        os.environ["ALPHA_CACHE_DIR"] = os.path.join(tmp, "alpha")
    import torch
    rng = np.random.RandomState(0)
    images = [rng.randint(0, 256, (a.batch, 32, 32, 3)).astype(np.uint8) for _ in range(4)]
    labels = np.eye(10, dtype=np.float32)[rng.randint(0, 10, a.batch)]
    print(f"# {torch.cuda.get_device_name()}  torch {torch.__version__}  batch {a.batch}  steps {a.steps} "
          f"(after {a.warmup} warm-up)  Adam lr 1e-3  LeakyReLU  Alpha pool {a.pool}")
    rows = []
    import gc
    for net in a.nets.split(","):
        for mode in a.modes.split(","):
            for graph in a.graph.split(","):
                ra = bench_alpha(net, a.batch, a.steps, a.warmup, mode, images, labels, a.pool, a.pool_gb,
                                 graph == "on")
                gc.collect()
                rows.append((net, mode + ("+graph" if graph == "on" else ""), ra, None))
            rt = bench_torch(net, a.batch, a.steps, a.warmup, mode, images, labels)
            torch.cuda.empty_cache()
            rows = [(n_, m_, r_, rt if t_ is None else t_) for n_, m_, r_, t_ in rows]
            print(f"{net:9s} {mode}: alpha {ra['step_ms']:8.1f} ms/step peak {ra['peak_alloc']:7.0f} MiB used "
                  f"{ra['peak_reserved']:7.0f} MiB reserved (loss {ra['loss']:.3f}, first step {ra['first_s']:.1f} s, "
                  f"host {ra['host_ms']:.1f} ms/step) | torch {rt['step_ms']:7.1f} ms/step "
                  f"peak {rt['peak_alloc']:7.0f} MiB alloc {rt['peak_reserved']:7.0f} MiB reserved (loss {rt['loss']:.3f})",
                  flush=True)
    print(f"\n{'net':9s} {'mode':10s} | {'alpha ms':>9s} {'torch ms':>9s} {'ratio':>6s} | {'alpha MiB':>9s} "
          f"{'torch MiB':>9s} {'ratio':>6s}   (peak memory: in-use / allocated)")
    for net, mode, ra, rt in rows:
        print(f"{net:9s} {mode:10s} | {ra['step_ms']:9.1f} {rt['step_ms']:9.1f} {ra['step_ms'] / rt['step_ms']:6.2f} | "
              f"{ra['peak_alloc']:9.0f} {rt['peak_alloc']:9.0f} {ra['peak_alloc'] / rt['peak_alloc']:6.2f}")


if __name__ == "__main__":
    main()
