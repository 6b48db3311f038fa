"""Benchmark: where a CPU engine step's time goes: wall time per step and the milliseconds of each backend primitive
inside it (each primitive timed around its call; the rest is Python), best of --rounds rounds of --steps steps.
Usage: python3 bench/cpu_step_profile.py [--model mnist_cnn|resnet18] [--mode train|infer] [--threads N]"""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
from alpha_py.backend.cpu import CpuBackend  # noqa: E402
from cpu_train import alpha_steps  # noqa: E402
from cpu_vs_torch import data  # noqa: E402

PRIMITIVES = ("conv_fwd", "conv_eval", "conv_bwd_data", "conv_bwd_filter", "matmul", "bn_act_fwd", "bn_act_bwd",
              "pool_fwd", "pool_bwd", "act_fwd", "act_bwd", "add_act", "add", "optim_step")


def instrument(totals):
    """Wrap each primitive of CpuBackend so its time (outermost calls only) adds to totals[name]."""
    depth = [0]
    for name in PRIMITIVES:
        f = getattr(CpuBackend, name)

        def timed(self, *a, _f=f, _name=name, **k):
            depth[0] += 1
            t = time.perf_counter()
            try:
                return _f(self, *a, **k)
            finally:
                depth[0] -= 1
                if depth[0] == 0:
                    totals[_name] = totals.get(_name, 0.0) + time.perf_counter() - t
        setattr(CpuBackend, name, timed)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", default="mnist_cnn", choices=("mnist_cnn", "resnet18"))
    p.add_argument("--mode", default="train", choices=("train", "infer"))
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--rounds", type=int, default=10)
    p.add_argument("--steps", type=int, default=None, help="steps per round (default 20 mnist_cnn, 2 resnet18)")
    a = p.parse_args()
    batch, steps = (64, a.steps or 20) if a.model == "mnist_cnn" else (32, a.steps or 2)
    images, labels = data(a.model, batch)
    opts = {"width": 32, "hidden": 128} if a.model == "mnist_cnn" else {}
    net, train, infer = alpha_steps(a.model, images, labels, a.threads, **opts)
    step = train if a.mode == "train" else infer
    net.train() if a.mode == "train" else net.eval()
    totals = {}
    instrument(totals)
    for _ in range(3):
        step()
    best, best_totals = float("inf"), {}
    for _ in range(a.rounds):
        totals.clear()
        t = time.perf_counter()
        for _ in range(steps):
            step()
        wall = (time.perf_counter() - t) / steps
        if wall < best:
            best, best_totals = wall, {k: v / steps for k, v in totals.items()}
    print(f"{a.model} {a.mode} b{batch}, threads {a.threads or 'all'}: {best * 1e3:.2f} ms per step")
    for name, v in sorted(best_totals.items(), key=lambda kv: -kv[1]):
        print(f"  {name:<16} {v * 1e3:8.3f} ms")
    print(f"  {'(Python, rest)':<16} {(best - sum(best_totals.values())) * 1e3:8.3f} ms")


if __name__ == "__main__":
    main()
