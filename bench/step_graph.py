"""Benchmark: one training step as a replayed CUDA graph (alpha.train_step graph=True) vs the same step op by op
(graph=False) vs PyTorch eager, in one process on one GPU. Nets: the Fashion-MNIST CNN of issue 11 (28x28x1,
conv 32 / conv 64 + FC128, LeakyReLU, batch 128) and ResNet18-CIFAR (batch 32 and 512); Adam lr 1e-3,
synthetic batches already on the device (several, cycled). Prints ms/step, the ratios, and per step the host
waits (syncs), pool handouts (mallocs), blocks served from the planned arena of op-by-op steps (planned) and
fresh device memory (device mallocs) of both Alpha modes; also
whether both Alpha modes gave bit-identical losses. "user loop": the README loop as a user writes it
(yh = net.forward(x)[0]; net.backward(ls.gradient(yh, y)); opt.update().clear_grads(); net.gc(); plus
ls.loss(yh, y) kept per step), default sync mode, with the engine's auto_graph on ("user") and off ("user off").
Every timed loop, of both frameworks, starts after gc.collect(): a full collection of the set-up's garbage (100-140
ms in this process) landing inside a 60-step window made a run's step 2-3x slower (bench/NOTES-gpu.md).
Usage: python3 bench/step_graph.py [--steps 50] [--warmup 5] [--configs fashion:128,resnet18:32,resnet18:512]
       [--pool memp3|cupy] [--tf32]"""
import argparse
import gc
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

SHAPES = {"fashion": (28, 1), "resnet18": (32, 3)}


def timed(step, steps, warmup, wait):
    """(ms per step, host ms per step, last step's result) of `steps` calls after `warmup` calls;
    wait() blocks until the device is idle."""
    for i in range(warmup):
        step(i)
    wait()
    gc.collect()
    t0 = time.perf_counter()
    for i in range(steps):
        last = step(i)
    host = time.perf_counter() - t0
    wait()
    return (time.perf_counter() - t0) / steps * 1e3, host / steps * 1e3, last


def batches(kind, batch, n=4, seed=0):
    size, ch = SHAPES[kind]
    rng = np.random.RandomState(seed)
    xs = [rng.uniform(-1, 1, (batch, size, size, ch)).astype(np.float32) for _ in range(n)]
    ys = [rng.randint(0, 10, batch) for _ in range(n)]
    return xs, ys


# ------------------------------------------------------------------------------------ Alpha
def alpha_net(kind):
    from alpha_py import nn
    from alpha_py.zoo.mnist_cnn import MnistCNN
    if kind == "fashion":
        return MnistCNN("leakyRelu", 1, 10, 28, width=32, hidden=128)
    return nn.ResNet18("leakyRelu")


def bench_alpha(kind, batch, graph, steps, warmup, pool, tf32):
    from alpha_py import alpha
    mp = None if pool == "cupy" else getattr(alpha.engine, pool)(16 * alpha.MEM_1GB)
    eg = alpha.engine.cuda_float32(0, mp, tf32=tf32).set_seed(0)
    net = alpha_net(kind).train().init(eg)
    opt = alpha.optim.Adam(net.params(), 1e-3)
    step = alpha.train_step(net, alpha.loss.softmax_crossEntropy(), opt, graph=graph)
    xs, ys = batches(kind, batch)
    data = [(eg.tensor(x), eg.tensor(np.eye(10, dtype=np.float32)[y])) for x, y in zip(xs, ys)]
    for i in range(warmup):
        step(*data[i % len(data)])
    step(*data[0]).get()
    c0 = eg.counters()
    gc.collect()
    t0 = time.perf_counter()
    results = [step(*data[i % len(data)]) for i in range(steps)]
    host = time.perf_counter() - t0
    results[-1].get()
    dt = time.perf_counter() - t0
    c1 = eg.counters()
    per = {k: (c1[k] - c0[k]) / steps for k in c0}
    losses = [r.get() for r in results]
    res = dict(ms=dt / steps * 1e3, host_ms=host / steps * 1e3, losses=losses, stats=step.stats(), **per)
    step.close()
    net.delete()
    return res


def user_loop(kind, batch, auto, pool="memp3", tf32=False, read=None):
    """(engine, net, step): step(i) runs the README loop as written on batch i (engine in its default sync
    mode, auto_graph on or off) and returns ls.loss(yh, y), or (read(yh, labels), loss) when `read` is given
    (a host read in mid-iteration, between forward and backward)."""
    from alpha_py import alpha
    mp = None if pool == "cupy" else getattr(alpha.engine, pool)(16 * alpha.MEM_1GB)
    eg = alpha.engine.cuda_float32(0, mp, tf32=tf32, auto_graph=auto).set_seed(0)
    net = alpha_net(kind).train().init(eg)
    opt, ls = alpha.optim.Adam(net.params(), 1e-3), alpha.loss.softmax_crossEntropy()
    xs, ys = batches(kind, batch)
    data = [(eg.tensor(x), eg.tensor(np.eye(10, dtype=np.float32)[y]), y) for x, y in zip(xs, ys)]

    def step(i):
        x, y, labels = data[i % len(data)]
        yh = net.forward(x)[0]
        got = None if read is None else read(yh, labels)
        net.backward(ls.gradient(yh, y))
        opt.update().clear_grads()
        net.gc()
        return ls.loss(yh, y) if read is None else (got, ls.loss(yh, y))
    return eg, net, step


def bench_user(kind, batch, auto, steps, warmup, pool, tf32):
    """The README loop as written (engine in its default sync mode), auto_graph on or off."""
    eg, net, step = user_loop(kind, batch, auto, pool, tf32)
    for i in range(warmup):                      # the same steps as bench_alpha: warm-up, then one more on batch 0
        step(i)
    step(0).get()
    c0 = eg.counters()
    gc.collect()
    t0 = time.perf_counter()
    results = [step(i) for i in range(steps)]
    host = time.perf_counter() - t0
    results[-1].get()
    eg.backend.synchronize()
    dt = time.perf_counter() - t0
    c1 = eg.counters()
    res = dict(ms=dt / steps * 1e3, host_ms=host / steps * 1e3, losses=[r.get() for r in results],
               stats=eg.auto_stats(), **{k: (c1[k] - c0[k]) / steps for k in c0})
    net.delete()
    return res


# ------------------------------------------------------------------------------------ PyTorch
def torch_net(kind):
    import torch.nn as tnn
    if kind == "resnet18":
        from resnet18_cifar import torch_nets
        return torch_nets()["resnet18"]()

    def cba(i, o):
        return [tnn.Conv2d(i, o, 3, 1, 1, bias=False), tnn.BatchNorm2d(o), tnn.LeakyReLU(0.01), tnn.MaxPool2d(2)]
    return tnn.Sequential(*cba(1, 32), *cba(32, 64), tnn.Flatten(), tnn.Linear(7 * 7 * 64, 128),
                          tnn.LeakyReLU(0.01), tnn.Linear(128, 10))


def bench_torch(kind, batch, steps, warmup, tf32):
    import torch
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = tf32
    torch.backends.cuda.matmul.allow_tf32 = tf32
    torch.manual_seed(0)
    model = torch_net(kind).cuda().to(memory_format=torch.channels_last)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    lossf = torch.nn.CrossEntropyLoss()
    xs, ys = batches(kind, batch)
    data = [(torch.from_numpy(x).cuda().permute(0, 3, 1, 2).contiguous(memory_format=torch.channels_last),
             torch.from_numpy(y).cuda()) for x, y in zip(xs, ys)]

    def step(i):
        opt.zero_grad(set_to_none=True)
        loss = lossf(model(data[i % len(data)][0]), data[i % len(data)][1])
        loss.backward()
        opt.step()
        return loss

    ms, host_ms, last = timed(step, steps, warmup, torch.cuda.synchronize)
    res = dict(ms=ms, host_ms=host_ms, loss=float(last.detach()))
    del model, opt, data
    torch.cuda.empty_cache()
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--configs", default="fashion:128,resnet18:32,resnet18:512")
    ap.add_argument("--pool", default="memp3", help="memp1|memp2|memp3|cupy")
    ap.add_argument("--tf32", action="store_true", help="TF32 convolutions/matmuls in both frameworks")
    ap.add_argument("--no-torch", dest="torch", action="store_false")
    a = ap.parse_args()
    import cupy
    name = cupy.cuda.runtime.getDeviceProperties(0)["name"].decode()
    print(f"# {name}  steps {a.steps} (after {a.warmup} warm-up)  Adam lr 1e-3  pool {a.pool}  "
          f"{'TF32' if a.tf32 else 'strict fp32'}  batches on the device", flush=True)
    rows = []
    for cfg in a.configs.split(","):
        kind, batch = cfg.split(":")
        batch = int(batch)
        u = bench_alpha(kind, batch, False, a.steps, a.warmup, a.pool, a.tf32)
        c = bench_alpha(kind, batch, True, a.steps, a.warmup, a.pool, a.tf32)
        ua = bench_user(kind, batch, True, a.steps, a.warmup, a.pool, a.tf32)
        uo = bench_user(kind, batch, False, a.steps, a.warmup, a.pool, a.tf32)
        t = bench_torch(kind, batch, a.steps, a.warmup, a.tf32) if a.torch else None
        eq = {"capt": c["losses"] == u["losses"], "user": ua["losses"] == u["losses"],
              "user off": uo["losses"] == u["losses"], "user/user off": ua["losses"] == uo["losses"]}
        same = "yes" if all(eq.values()) else "NO " + ",".join(k for k, v in eq.items() if not v)
        if not all(eq.values()):
            print(f"losses (first 4) op by op {u['losses'][:4]} capt {c['losses'][:4]} user {ua['losses'][:4]} "
                  f"user off {uo['losses'][:4]}", flush=True)
        rows.append((kind, batch, u, c, t, same, ua, uo))
        print(f"{kind:8s} b{batch:<4d} user loop auto_graph {ua['ms']:8.2f} ms (host {ua['host_ms']:.2f}, syncs/step "
              f"{ua['syncs']:.2f}, {ua['stats']})  user loop op by op {uo['ms']:8.2f} ms (host {uo['host_ms']:.2f})",
              flush=True)
        print(f"{kind:8s} b{batch:<4d} uncaptured {u['ms']:8.2f} ms (host {u['host_ms']:.2f})  captured {c['ms']:8.2f} "
              f"ms (host {c['host_ms']:.2f}, {c['stats']['captures']} capture)  torch "
              f"{t['ms'] if t else float('nan'):8.2f} ms (host {t['host_ms'] if t else float('nan'):.2f})  "
              f"losses bit-equal: {same}; op-by-op memory {u['stats']['memory']}", flush=True)
    print(f"\n{'net':8s} {'batch':>5s} | {'uncapt ms':>9s} {'capt ms':>8s} {'user ms':>8s} {'user off':>8s} "
          f"{'torch ms':>8s} | {'capt/unc':>8s} {'capt/torch':>10s} {'unc/torch':>9s} {'user/torch':>10s} "
          f"{'off/torch':>9s} | {'syncs/step u/c':>14s} {'mallocs/step u/c':>16s} "
          f"{'planned/step u':>14s} {'dev mallocs u/c':>15s} | bit-equal")
    for kind, batch, u, c, t, same, ua, uo in rows:
        tm = t["ms"] if t else float("nan")
        print(f"{kind:8s} {batch:5d} | {u['ms']:9.2f} {c['ms']:8.2f} {ua['ms']:8.2f} {uo['ms']:8.2f} {tm:8.2f} | "
              f"{c['ms'] / u['ms']:8.2f} {c['ms'] / tm:10.2f} {u['ms'] / tm:9.2f} {ua['ms'] / tm:10.2f} "
              f"{uo['ms'] / tm:9.2f} | {u['syncs']:6.2f}/{c['syncs']:<7.2f} "
              f"{u['mallocs']:8.1f}/{c['mallocs']:<7.1f} {u['planned']:14.1f} "
              f"{u['device_mallocs']:7.2f}/{c['device_mallocs']:<7.2f} | {same}")


if __name__ == "__main__":
    main()
