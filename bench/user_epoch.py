"""Benchmark: Fashion-MNIST epochs of the README loop exactly as a user writes it (alpha.data.fashion_mnist(...)
.buffered_iter(eg, 128); it.shuffle_sort().reset(); while it.hasNext(): pair = it.next(); yh = net.forward(
pair.input)[0]; net.backward(ls.gradient(yh, pair.label)); opt.update().clear_grads(); net.gc()) on the Fashion
CNN of bench/step_graph.py (conv 32 / conv 64 + FC128, Adam 1e-3), engine in its default sync mode, auto_graph on
and off, against PyTorch eager with the same net, recipe and per-batch host->device copies, in one process.
Prints each epoch's seconds; the steady figure is the median of epochs 2..E.
Usage: python3 bench/user_epoch.py --data-dir DIR [--epochs 3] [--batch 128] [--no-torch]"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402


def alpha_epochs(data_dir, epochs, batch, auto):
    from alpha_py import alpha
    from alpha_py.zoo.mnist_cnn import MnistCNN
    eg = alpha.engine.cuda_float32(0, alpha.engine.memp3(alpha.MEM_1GB * 8), auto_graph=auto).set_seed(0)
    net = MnistCNN("leakyRelu", 1, 10, 28, width=32, hidden=128).train().init(eg)
    opt, ls = alpha.optim.Adam(net.param_map(), 1e-3), alpha.loss.softmax_crossEntropy()
    it = alpha.data.fashion_mnist(True, data_dir).buffered_iter(eg, batch)
    times, losses = [], []
    for epoch in range(epochs):
        t0 = time.perf_counter()
        it.shuffle_sort().reset()
        while it.hasNext():
            pair = it.next()
            yh = net.forward(pair.input)[0]
            net.backward(ls.gradient(yh, pair.label))
            opt.update().clear_grads()
            net.gc()
        losses.append(ls.loss(yh, pair.label).get())         # the README's per-epoch print: waits for the epoch
        times.append(time.perf_counter() - t0)
    it.close()
    return times, losses, eg.auto_stats()


def torch_epochs(data_dir, epochs, batch):
    import torch
    from alpha_py import alpha
    from step_graph import torch_net
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = False
    torch.manual_seed(0)
    ds = alpha.data.fashion_mnist(True, data_dir)
    images = np.ascontiguousarray(ds.images.reshape(len(ds.images), 1, 28, 28), dtype=np.uint8)
    labels = np.asarray(ds.labels, dtype=np.int64)
    model = torch_net("fashion").cuda()
    opt, lossf = torch.optim.Adam(model.parameters(), lr=1e-3), torch.nn.CrossEntropyLoss()
    rng = np.random.RandomState(0)
    times = []
    for epoch in range(epochs):
        t0 = time.perf_counter()
        order = rng.permutation(len(images))
        for s in range(0, len(order), batch):
            idx = order[s:s + batch]
            x = torch.from_numpy(images[idx]).pin_memory().cuda(non_blocking=True).float() * (2 / 255) - 1
            y = torch.from_numpy(labels[idx]).pin_memory().cuda(non_blocking=True)
            opt.zero_grad(set_to_none=True)
            loss = lossf(model(x), y)
            loss.backward()
            opt.step()
        float(loss)
        times.append(time.perf_counter() - t0)
    return times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data-dir", dest="data_dir", default=None)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--no-torch", dest="torch", action="store_false")
    a = ap.parse_args()
    steady = {}
    for auto in (True, False):
        t, losses, stats = alpha_epochs(a.data_dir, a.epochs, a.batch, auto)
        steady[auto] = statistics.median(t[1:]) if len(t) > 1 else t[0]
        print(f"alpha README loop auto_graph={auto}: epochs {[round(x, 3) for x in t]} s, losses "
              f"{[round(x, 4) for x in losses]}, {stats}", flush=True)
    tt = torch_epochs(a.data_dir, a.epochs, a.batch) if a.torch else None
    if tt:
        print(f"torch eager: epochs {[round(x, 3) for x in tt]} s", flush=True)
    ts = statistics.median(tt[1:]) if tt and len(tt) > 1 else (tt[0] if tt else float("nan"))
    print(f"\n| path | steady epoch s | / PyTorch |\n|---|---|---|\n| README loop, auto_graph on | {steady[True]:.3f} | "
          f"{steady[True] / ts:.2f} |\n| README loop, auto_graph off | {steady[False]:.3f} | {steady[False] / ts:.2f} |\n"
          f"| PyTorch eager | {ts:.3f} | 1.00 |")


if __name__ == "__main__":
    main()
