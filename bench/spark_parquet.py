"""Benchmark: fit() throughput from a Parquet folder (alpha convert's layout: pathlib.Path, each rank reads its
own part files; and spark.read.parquet as a DataFrame, coalesced without a shuffle) against the built-in
file dataset (IDX files read by record ranges), the same images (the 4000-image mnist5k train split written both
ways), one local[N] SparkSession, the three inputs alternated `--repeats` times; images/s over the stages after
the first. With --remote sc://HOST:PORT the session is a Spark Connect client instead.
  python3 bench/spark_parquet.py --mode allreduce --epochs 3 --workers 2 --repeats 2"""
import argparse
import os
import pathlib
import struct
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write_idx(folder, images, labels):
    with open(os.path.join(folder, "train-images-idx3-ubyte"), "wb") as f:
        f.write(struct.pack(">4B3I", 0, 0, 8, 3, *images.shape[:3]) + images.tobytes())
    with open(os.path.join(folder, "train-labels-idx1-ubyte"), "wb") as f:
        f.write(struct.pack(">4BI", 0, 0, 8, 1, len(labels)) + labels.astype(np.uint8).tobytes())


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--mode", choices=("average", "allreduce"), default="allreduce")
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--partitions", type=int, default=8, help="Parquet part files")
    p.add_argument("--repeats", type=int, default=2)
    p.add_argument("--remote", default=None, metavar="sc://HOST:PORT")
    args = p.parse_args()
    sys.path.insert(0, ROOT)
    os.environ["PYTHONPATH"] = os.pathsep.join(x for x in (ROOT, os.environ.get("PYTHONPATH")) if x)
    from alpha_py.data.factory import data
    from alpha_py.distributed import fit
    from alpha_py.distributed.parquet import write_parquet
    ds = data.mnist_5k(True)
    tmp = tempfile.mkdtemp(prefix="alpha-parquet-bench-")
    write_idx(tmp, np.ascontiguousarray(ds.images[..., 0]), ds.labels)
    write_parquet(ds.images, ds.labels, os.path.join(tmp, "pq"), args.partitions, 10)
    if args.remote:
        from alpha_py.distributed.connect import remote_session
        spark = remote_session(args.remote)
    else:
        from pyspark.sql import SparkSession
        spark = (SparkSession.builder.master(f"local[{args.workers}]").config("spark.ui.enabled", "false")
                 .config("spark.ui.showConsoleProgress", "false").getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
    inputs = {"files (IDX)": lambda: dict(data="mnist", data_dir=tmp),
              "parquet": lambda: dict(data=pathlib.Path(tmp, "pq")),
              "dataframe": lambda: dict(data=spark.read.parquet(os.path.join(tmp, "pq")), image_shape=(28, 28, 1),
                                        num_classes=10)}
    best = {}
    for _ in range(args.repeats):
        for name, kw in inputs.items():
            res = fit(model="mnist_cnn", epochs=args.epochs, batch=args.batch, workers=args.workers, mode=args.mode,
                      spark=spark, log=lambda *a: None, **kw())
            steady = res.history[1:] or res.history
            ips = sum(h["images"] for h in steady) / sum(h["seconds"] for h in steady)
            best[name] = max(best.get(name, 0.0), ips)
            print(f"{name:<12} {ips:8.1f} images/s (stages after the first; load avg {os.getloadavg()[0]:.2f})",
                  flush=True)
    base = best["files (IDX)"]
    print("best: " + ", ".join(f"{k} {v:.1f} images/s" for k, v in best.items())
          + f"; parquet / files = {best['parquet'] / base:.3f}, dataframe / files = {best['dataframe'] / base:.3f}")
    spark.stop()


if __name__ == "__main__":
    main()
