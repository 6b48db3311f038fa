"""Benchmark: Dragon-Alpha text zip writer and reader (alpha.stat.save_zip / load_zip) on a zoo net
(ResNet18 CIFAR by default), end to end: host copies, formatting, the zip file on disk, parsing and
loading into the net. Also the binary checkpoint (alpha_py.stat.train_checkpoint) for comparison, and the general
parser on Dragon-Alpha's own spelling ('%.9g' values, as Java's Float.toString writes them). Checks
that the round trip is bit-exact. Prints a table (best and median of --repeats).
Usage: python bench/zip_io.py [--model resnet18] [--repeats 5] [--dir /tmp]"""
import argparse
import os
import statistics
import sys
import tempfile
import time
import zipfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from alpha_py import alpha  # noqa: E402
from alpha_py.stat import formats  # noqa: E402
from alpha_py.stat.train_checkpoint import read_checkpoint, save_checkpoint  # noqa: E402
from alpha_py.zoo import get_model  # noqa: E402


def timed(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def general_zip(path, arrays):
    """A text zip in Dragon-Alpha's variable-width spelling, read by the general parser."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        for k, a in arrays.items():
            z.writestr(k, formats.encode_text(a))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="resnet18")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--dir", default=None, help="where to write the files (default: a temp dir)")
    ap.add_argument("--general", action="store_true", help="also time the general (variable-width) parser")
    a = ap.parse_args(argv)
    folder = a.dir or tempfile.mkdtemp(prefix="alpha-zip-bench-")
    eg = alpha.engine.cpu_float32().set_seed(0)
    net = get_model(a.model, 3, 10, 32).init(eg)
    other = get_model(a.model, 3, 10, 32).init(alpha.engine.cpu_float32().set_seed(1))
    values = sum(int(np.prod(t.shape)) for t in net.state_map().values())
    zpath, cpath = os.path.join(folder, f"{a.model}.zip"), os.path.join(folder, f"{a.model}.ckpt")
    rows = [("text zip write (alpha.stat.save_zip)", timed(lambda: alpha.stat.save_zip(net, zpath), a.repeats)),
            ("text zip read (alpha.stat.load_zip)", timed(lambda: alpha.stat.load_zip(other, zpath), a.repeats))]
    exact = all(np.array_equal(x.view(np.uint32), y.view(np.uint32)) for x, y in
                zip(alpha.stat.state(net).values(), alpha.stat.state(other).values()))
    kw = dict(model=a.model, model_args={"in_channels": 3, "num_classes": 10, "input_size": 32})
    rows += [("checkpoint write (stat.train_checkpoint, npz)", timed(lambda: save_checkpoint(cpath, net, **kw), a.repeats)),
             ("checkpoint read (read_checkpoint)", timed(lambda: read_checkpoint(cpath), a.repeats))]
    if a.general:
        gpath = os.path.join(folder, f"{a.model}-general.zip")
        general_zip(gpath, alpha.stat.state(net))
        rows.append(("text zip read, Dragon-Alpha spelling", timed(lambda: alpha.stat.load_zip(other, gpath), 1)))
    print(f"{a.model}: {len(net.state_map())} tensors, {values} values; text zip {os.path.getsize(zpath) / 2**20:.1f} "
          f"MiB, checkpoint {os.path.getsize(cpath) / 2**20:.1f} MiB; round trip bit-exact: {exact}")
    print(f"{'operation':40s} {'best s':>8s} {'median s':>9s}")
    for name, (best, med) in rows:
        print(f"{name:40s} {best:8.2f} {med:9.2f}")
    return 0 if exact else 1


if __name__ == "__main__":
    sys.exit(main())
