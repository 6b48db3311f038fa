"""Benchmark: training and inference images/s of zoo nets on the CPU engine (NumPy), on random
uint8 images: the MNIST CNN at 28x28x1 and ResNet18 at 32x32x3 by default. Prints a table.
Usage: python bench/cpu_train.py [--models mnist_cnn,resnet18] [--steps 5] [--batch 64,32]"""
import argparse
import os
import platform
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from alpha_py import alpha  # noqa: E402
from alpha_py.zoo import get_model  # noqa: E402

GEOMETRY = {"mnist_cnn": (28, 1)}      # everything else: CIFAR 32x32x3


def alpha_steps(name, images, labels, threads=None, **model_args):
    """(net, train_step, infer_step) of zoo net `name` on a fresh CPU engine over one fixed uint8 batch: train =
    forward + loss (read) + backward + Adam update + gc; infer = forward + host copy + gc."""
    size, c = GEOMETRY.get(name, (32, 3))
    eg = alpha.engine.cpu_float32(threads).set_seed(0)
    net = get_model(name, c, 10, size, **model_args).init(eg)
    opt = alpha.optim.Adam(net.params(), 1e-3)
    loss_fn = alpha.loss.softmax_crossEntropy()

    def train_step():
        x, y = eg.images(images), eg.onehot(labels, 10)
        yh = net(x)[0]
        loss_fn.loss(yh, y).get()
        net.backward(loss_fn.gradient(yh, y))
        opt.update().clear_grads()
        net.gc()

    def infer_step():
        net(eg.images(images))[0].numpy()
        net.gc()
    return net, train_step, infer_step


def bench(name, batch, steps, warmup=2):
    size, c = GEOMETRY.get(name, (32, 3))
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (batch, size, size, c), dtype=np.uint8)
    labels = rng.integers(0, 10, batch)
    net, train_step, infer_step = alpha_steps(name, images, labels)
    out = {}
    for mode, step in (("train", train_step), ("infer", infer_step)):
        net.train() if mode == "train" else net.eval()
        for _ in range(warmup):
            step()
        t = time.perf_counter()
        for _ in range(steps):
            step()
        out[mode] = batch * steps / (time.perf_counter() - t)
    return size, c, sum(p.length() for p in net.params()), out


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--models", default="mnist_cnn,resnet18")
    p.add_argument("--batch", default="64,32", help="one batch size per model (or one for all)")
    p.add_argument("--steps", type=int, default=5)
    a = p.parse_args()
    models = a.models.split(",")
    batches = [int(b) for b in a.batch.split(",")]
    batches = batches * len(models) if len(batches) == 1 else batches
    print(f"CPU engine (NumPy {np.__version__}), {os.cpu_count()} CPUs, {platform.processor() or platform.machine()}; "
          f"{a.steps} timed steps after 2 warm-up steps; train = forward + loss + backward + Adam update")
    print(f"{'model':<11} {'input':<9} {'params':>10} {'batch':>5} {'train img/s':>12} {'infer img/s':>12}")
    for name, batch in zip(models, batches):
        size, c, n, r = bench(name, batch, a.steps)
        print(f"{name:<11} {f'{size}x{size}x{c}':<9} {n:>10,} {batch:>5} {r['train']:>12.1f} {r['infer']:>12.1f}",
              flush=True)


if __name__ == "__main__":
    main()
