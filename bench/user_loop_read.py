"""Benchmark: the README loop with a host read in mid-iteration (the batch's accuracy from yh, as users
compute it), which keeps auto_graph from capturing, so every iteration runs op by op - against the same loop
with auto_graph off and PyTorch eager with the same read, in one process on one GPU. Alpha's op-by-op
iterations take their memory from a plan (engine/loop_memory.py); the auto_graph-off loop uses the pool.
Usage: python3 bench/user_loop_read.py [--steps 60] [--warmup 8] [--configs fashion:128,resnet18:32]"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from step_graph import batches, torch_net, user_loop  # noqa: E402


def bench_alpha(kind, batch, auto, steps, warmup):
    def accuracy(yh, labels):
        return float((yh.numpy().argmax(1) == labels).mean())
    eg, net, step = user_loop(kind, batch, auto, read=accuracy)
    for i in range(warmup):
        step(i)
    eg.backend.synchronize()
    t0 = time.perf_counter()
    out = [step(i) for i in range(steps)]
    eg.backend.synchronize()
    dt = time.perf_counter() - t0
    res = dict(ms=dt / steps * 1e3, losses=[r.get() for _, r in out], stats=eg.auto_stats())
    net.delete()
    return res


def bench_torch(kind, batch, steps, warmup):
    import torch
    torch.backends.cudnn.benchmark = True
    torch.manual_seed(0)
    model = torch_net(kind).cuda().to(memory_format=torch.channels_last)
    opt, lossf = torch.optim.Adam(model.parameters(), lr=1e-3), torch.nn.CrossEntropyLoss()
    xs, ys = batches(kind, batch)
    data = [(torch.from_numpy(x).cuda().permute(0, 3, 1, 2).contiguous(memory_format=torch.channels_last),
             torch.from_numpy(y).cuda()) for x, y in zip(xs, ys)]

    def step(i):
        x, y = data[i % len(data)]
        opt.zero_grad(set_to_none=True)
        out = model(x)
        acc = float((out.argmax(1) == y).float().mean().cpu())
        loss = lossf(out, y)
        loss.backward()
        opt.step()
        return acc, loss
    for i in range(warmup):
        step(i)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for i in range(steps):
        step(i)
    torch.cuda.synchronize()
    return dict(ms=(time.perf_counter() - t0) / steps * 1e3)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--warmup", type=int, default=8)
    ap.add_argument("--configs", default="fashion:128,resnet18:32")
    a = ap.parse_args()
    print(f"{'net':8s} {'batch':>5s} | {'auto_graph ms':>13s} {'off ms':>8s} {'torch ms':>8s} | {'auto/torch':>10s} "
          f"{'off/torch':>9s} | bit-equal | planned/pooled blocks (auto_graph)")
    for cfg in a.configs.split(","):
        kind, batch = cfg.split(":")
        on = bench_alpha(kind, int(batch), True, a.steps, a.warmup)
        off = bench_alpha(kind, int(batch), False, a.steps, a.warmup)
        t = bench_torch(kind, int(batch), a.steps, a.warmup)
        m = on["stats"]["memory"]
        print(f"{kind:8s} {batch:>5s} | {on['ms']:13.2f} {off['ms']:8.2f} {t['ms']:8.2f} | {on['ms'] / t['ms']:10.2f} "
              f"{off['ms'] / t['ms']:9.2f} | {'yes' if on['losses'] == off['losses'] else 'NO':9s} | "
              f"{m['planned']}/{m['pooled']} (replays {on['stats']['replays']}, flushes {on['stats']['flushes']})",
              flush=True)


if __name__ == "__main__":
    main()
