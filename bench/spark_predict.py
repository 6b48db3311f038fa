"""Benchmark: Spark inference throughput (alpha_py.distributed.predict) on local[N] against scoring
in-process (score_images), for a zoo net on random uint8 images. Run 1 pays the Python workers'
start and net build; run 2 reuses them (the net is cached per worker).
  python3 bench/spark_predict.py --model mnist_cnn --images 4000 --cores 2 [--engine cuda]"""
import argparse
import os
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p)

SHAPES = {"mnist_cnn": (28, 28, 1), "resnet18": (32, 32, 3), "vgg16": (32, 32, 3), "hairnet": (32, 32, 3)}


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--model", choices=sorted(SHAPES), default="mnist_cnn")
    p.add_argument("--images", type=int, default=4000)
    p.add_argument("--cores", type=int, default=2)
    p.add_argument("--partitions", type=int, default=None, help="default: 2 x cores")
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--engine", choices=("cpu", "cuda"), default="cpu")
    args = p.parse_args()
    from pyspark.sql import SparkSession

    from alpha_py import alpha
    from alpha_py.distributed import predict, score_images
    from alpha_py.stat.train_checkpoint import save_checkpoint
    from alpha_py.zoo import get_model
    shape = SHAPES[args.model]
    eg = alpha.engine.cpu_float32() if args.engine == "cpu" else alpha.engine.cuda_float32(0)
    net = get_model(args.model, shape[2], 10, shape[0]).init(eg)
    path = os.path.join(tempfile.mkdtemp(prefix="alpha-bench-"), f"{args.model}.alpha")
    save_checkpoint(path, net, model=args.model,
                    model_args={"in_channels": shape[2], "num_classes": 10, "input_size": shape[0]})
    imgs = np.random.default_rng(0).integers(0, 256, (args.images,) + shape, dtype=np.uint8)
    t = time.perf_counter()
    _, _, ref = score_images(net.eval(), imgs, args.batch)
    local_s = time.perf_counter() - t

    spark = (SparkSession.builder.master(f"local[{args.cores}]").config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    df = spark.createDataFrame([(i, im.tobytes()) for i, im in enumerate(imgs)], "id long, image binary") \
        .repartition(args.partitions or 2 * args.cores).cache()
    df.count()
    rows = []
    for run in (1, 2):
        t = time.perf_counter()
        got = predict(df, path, engine=args.engine, batch=args.batch).select("id", "prediction").collect()
        rows.append((f"predict local[{args.cores}] run {run}", time.perf_counter() - t))
        pred = np.array([r.prediction for r in sorted(got, key=lambda r: r.id)])
        agree = float(np.mean(pred == ref))
    spark.stop()
    print(f"{args.model} {shape}, {args.images} images, engine {args.engine}, batch {args.batch}; "
          f"predictions equal to in-process: {agree:.4f}")
    print("| how | seconds | images/s |\n|---|---|---|")
    print(f"| score_images in-process (1 Python process) | {local_s:.2f} | {args.images / local_s:.0f} |")
    for name, s in rows:
        print(f"| {name} | {s:.2f} | {args.images / s:.0f} |")


if __name__ == "__main__":
    main()
