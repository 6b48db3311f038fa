"""Benchmark: Alpha's CPU engine vs PyTorch CPU eager, one after the other on this machine, in one invocation: the
MNIST CNN (conv 1->32, BN, leakyReLU, maxPool, conv 32->64, BN, leakyReLU, maxPool, FC 128, FC 10) training step
(batch 64, Adam) and inference batch (64), and the ResNet18-CIFAR training step (32x32x3, batch 32). Each side runs
in its own child process (two OpenMP runtimes in one process would compete for the cores). PyTorch is optional.
Usage: python3 bench/cpu_vs_torch.py [--torch-python /path/to/venv/bin/python] [--rounds 5] [--steps 5] [--threads N]
[--repeat N]"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CASES = (("mnist_cnn", "train", 64), ("mnist_cnn", "infer", 64), ("resnet18", "train", 32))
GEOMETRY = {"mnist_cnn": (28, 1), "resnet18": (32, 3)}


def timed(step, rounds, steps, warmup):
    """Best over `rounds` of the mean step time of `steps` steps (ms), after `warmup` steps."""
    for _ in range(warmup):
        step()
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(steps):
            step()
        best = min(best, (time.perf_counter() - t) / steps * 1e3)
    return best


def data(name, batch):
    import numpy as np
    size, c = GEOMETRY[name]
    rng = np.random.default_rng(0)
    return rng.integers(0, 256, (batch, size, size, c), dtype=np.uint8), rng.integers(0, 10, batch)


def alpha_side(a):
    sys.path.insert(0, HERE)
    from cpu_train import alpha_steps
    out = {}
    for name, mode, batch in CASES:
        opts = {"width": 32, "hidden": 128} if name == "mnist_cnn" else {}
        net, train, infer = alpha_steps(name, *data(name, batch), threads=a.threads, **opts)
        net.train() if mode == "train" else net.eval()
        out[f"{name} {mode} b{batch}"] = timed(train if mode == "train" else infer, a.rounds, a.steps, a.warmup)
    return out


def torch_side(a):
    import torch
    sys.path.insert(0, HERE)
    from epoch_vs_torch import torch_net
    from resnet18_cifar import torch_nets
    torch.manual_seed(0)
    if a.threads:
        torch.set_num_threads(a.threads)
    out = {"_version": torch.__version__, "_threads": torch.get_num_threads()}
    for name, mode, batch in CASES:
        model = torch_net(width=32, hidden=128) if name == "mnist_cnn" else torch_nets()[name]()
        opt, lossf = torch.optim.Adam(model.parameters(), lr=1e-3), torch.nn.CrossEntropyLoss()
        images, labels = data(name, batch)
        lab = torch.from_numpy(labels)

        def x():
            return torch.from_numpy(images).permute(0, 3, 1, 2).float() * (2 / 255) - 1

        def train():
            opt.zero_grad()
            loss = lossf(model(x()), lab)
            loss.backward()
            opt.step()
            float(loss)

        def infer():
            with torch.no_grad():
                model(x()).numpy()

        model.train() if mode == "train" else model.eval()
        out[f"{name} {mode} b{batch}"] = timed(train if mode == "train" else infer, a.rounds, a.steps, a.warmup)
    return out


def child(python, side, a, env=None):
    argv = [python, os.path.abspath(__file__), "--side", side, "--rounds", str(a.rounds), "--steps", str(a.steps),
            "--warmup", str(a.warmup)] + (["--threads", str(a.threads)] if a.threads else [])
    r = subprocess.run(argv, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        return None, r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"exit {r.returncode}"
    return json.loads(r.stdout.strip().splitlines()[-1]), None


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--torch-python", default=sys.executable,
                   help="interpreter that has torch (e.g. a venv outside the repo); default: this one")
    p.add_argument("--rounds", type=int, default=5, help="timed rounds per case; the best round counts")
    p.add_argument("--steps", type=int, default=5, help="steps per round")
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--repeat", type=int, default=1,
                   help="run the two sides' processes this many times, alternating; each case keeps its best (a noisy "
                   "machine's slow minute then hits both sides alike)")
    p.add_argument("--threads", type=int, default=None,
                   help="both sides: Alpha's cpu_float32(threads) and torch.set_num_threads; default: all cores for "
                   "Alpha, PyTorch's own default")
    p.add_argument("--side", choices=("alpha", "torch"), help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.repeat < 1:
        p.error(f"--repeat must be >= 1, got {a.repeat}")
    if a.side:
        print(json.dumps(alpha_side(a) if a.side == "alpha" else torch_side(a)))
        return
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    print(f"load average before: {os.getloadavg()[0]:.2f}; {os.cpu_count()} CPUs; best of {a.rounds} rounds of "
          f"{a.steps} steps after {a.warmup} warm-up steps, of {a.repeat} alternating run(s) per side", flush=True)
    al = th = terr = None
    for _ in range(a.repeat):           # the sides alternate; each case keeps its best over the repeats
        got, err = child(sys.executable, "alpha", a, env)
        if got is None:
            raise SystemExit(f"cpu_vs_torch: the Alpha side failed: {err}")
        al = got if al is None else {k: min(v, al[k]) for k, v in got.items()}
        if terr is None:
            got, terr = child(a.torch_python, "torch", a, env)
            if got is not None:
                th = got if th is None else {k: v if k.startswith("_") else min(v, th[k]) for k, v in got.items()}
    if th is None:
        print(f"PyTorch side skipped ({a.torch_python}): {terr}")
    else:
        print(f"PyTorch {th.pop('_version')}, {th.pop('_threads')} threads" + ("" if a.threads else " (its default)"))
    print(f"{'case':<22} {'alpha ms':>9} {'img/s':>8} {'torch ms':>9} {'img/s':>8} {'alpha/torch throughput':>23}")
    for name, mode, batch in CASES:
        key = f"{name} {mode} b{batch}"
        row = f"{key:<22} {al[key]:>9.1f} {batch / al[key] * 1e3:>8.0f}"
        if th is not None:
            row += f" {th[key]:>9.1f} {batch / th[key] * 1e3:>8.0f} {th[key] / al[key]:>23.2f}"
        print(row, flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
