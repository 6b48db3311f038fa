"""Benchmark: Spark data-parallel training throughput, local[1] vs local[N] (CPU), for the MNIST CNN
on the real 5k MNIST sample. Each configuration runs in its own process (one SparkContext each);
images/s counts training rounds after the first (which pays Python-worker start and net build).
  python3 bench/spark_scaling.py --mode average --epochs 2 --batch 64 --cores 1 2
  python3 bench/spark_scaling.py --mode allreduce --epochs 1 --batch 64 --cores 1 2 [--rendezvous barrier]
  python3 bench/spark_scaling.py --mode allreduce --epochs 4 --cores 2 --remote sc://127.0.0.1:15002
    [--segment-steps 5] [--job-seconds 0]   (each configuration classic and through a Spark Connect server running
    local[N]: stage overhead, a segment's wall time outside its tasks' phases, the training and fit() wall
    times, and images/s side by side)
  python3 bench/spark_scaling.py --mode average --cores 1 2 --master spark://127.0.0.1:7077   (standalone cluster)"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def one(args):
    """Child: train on local[cores] with workers=cores; print one JSON line."""
    sys.path.insert(0, ROOT)
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p)
    from pyspark.sql import SparkSession
    from alpha_py.distributed import fit
    from alpha_py.distributed.connect import remote_session
    if args.remote:
        spark = remote_session(args.remote)
    else:
        spark = (SparkSession.builder.master(args.master or f"local[{args.cores}]").config("spark.ui.enabled", "false")
                 .config("spark.ui.showConsoleProgress", "false").getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
    import time
    t0 = time.perf_counter()
    res = fit("mnist5k", args.model, test_data="mnist5k", epochs=args.epochs, batch=args.batch,
              optim="adam", lr=args.lr, workers=args.cores, mode=args.mode, sync_every=args.sync_every,
              rendezvous=args.rendezvous, checkpoint_every=args.segment_steps, spark=spark, log=lambda *a: None,
              job_seconds=args.job_seconds or None)
    fit_s = time.perf_counter() - t0
    spark.stop()
    steady = res.history[1:] or res.history
    ips = sum(h["images"] for h in steady) / sum(h["seconds"] for h in steady)
    inside = ("rendezvous", "build", "nccl", "steps", "state_out", "release")
    over = [h["seconds"] - sum(h["profile"].get(k) or 0.0 for k in inside) for h in steady if h.get("profile")]
    print("RESULT " + json.dumps({"cores": args.cores, "mode": args.mode, "images_per_s": ips,
                                  "session": "connect" if args.remote else "classic",
                                  "overhead_s": sum(over) / len(over) if over else None,
                                  "overhead_median_s": sorted(over)[len(over) // 2] if over else None,
                                  "training_s": sum(h["seconds"] for h in res.history), "fit_s": fit_s,
                                  "all_rounds_images_per_s": res.images_per_s,
                                  "test_accuracy": res.test_accuracy, "steps": res.step}))


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--mode", choices=("average", "allreduce"), default="average")
    p.add_argument("--model", default="mnist_cnn")
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--batch", type=int, default=64, help="global batch")
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--sync-every", dest="sync_every", type=int, default=10)
    p.add_argument("--rendezvous", choices=("driver", "barrier"), default="driver",
                   help="allreduce: all-gather through the driver's server or Spark's barrier messaging")
    p.add_argument("--cores", type=int, nargs="+", default=[1, 2])
    p.add_argument("--segment-steps", dest="segment_steps", type=int, default=None,
                   help="allreduce: steps per barrier stage (fit's checkpoint_every; default one epoch): more stages, "
                        "more overhead samples")
    p.add_argument("--job-seconds", dest="job_seconds", type=float, default=5.0,
                   help="allreduce over Connect: segments grouped into barrier jobs of about this many seconds (fit's "
                        "job_seconds; 0: one job per segment)")
    p.add_argument("--remote", default=None, metavar="sc://HOST:PORT",
                   help="also run every configuration from a Spark Connect client on this server (whose master "
                        "must be local[N] for the N of --cores) and compare")
    p.add_argument("--master", default=None, metavar="spark://HOST:PORT",
                   help="a standalone cluster's master instead of local[N] (e.g. from python3 -m "
                   "alpha_py.distributed.cluster start --workers 2); --cores then sets the workers (tasks)")
    p.add_argument("--repeats", type=int, default=1, help="alternate the configurations this many times "
                   "(the machine may be shared: compare the best of each)")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        args.cores = args.cores[0]
        one(args)
        return
    rows = []
    pair = [None, args.remote] if args.remote else [None]     # the order flips every repeat (a session's leftovers)
    runs = [(c, r) for i in range(args.repeats) for c in args.cores for r in (pair if i % 2 == 0 else pair[::-1])]
    for c, remote in runs:
        cmd = [sys.executable, os.path.abspath(__file__), "--child", "--cores", str(c), "--mode", args.mode,
               *([] if remote is None else ["--remote", remote]), *([] if args.master is None else
                                                                   ["--master", args.master]), "--model", args.model,
               "--epochs", str(args.epochs), "--batch", str(args.batch),
               "--lr", str(args.lr), "--sync-every", str(args.sync_every), "--rendezvous", args.rendezvous,
               "--job-seconds", str(args.job_seconds),
               *([] if args.segment_steps is None else ["--segment-steps", str(args.segment_steps)])]
        out = subprocess.run(cmd, capture_output=True, text=True)
        line = [ln for ln in out.stdout.splitlines() if ln.startswith("RESULT ")]
        if not line:
            sys.stderr.write(out.stdout[-3000:] + out.stderr[-3000:])
            raise SystemExit(f"configuration {args.master or 'local'}[{c}] failed")
        rows.append(dict(json.loads(line[0][7:]), load=os.getloadavg()[0]))
        if args.remote:
            r = rows[-1]
            print(f"{r['session']:<8} local[{c}] {r['mode']} {r['images_per_s']:.1f} images/s, stage overhead "
                  + ("n/a" if r["overhead_s"] is None else f"{r['overhead_s']:.3f} s (median "
                     f"{r['overhead_median_s']:.3f} s)") + f", training {r['training_s']:.2f} s, fit "
                  f"{r['fit_s']:.2f} s, load avg {r['load']:.2f}", flush=True)
    best = {c: max(r["images_per_s"] for r in rows if r["cores"] == c) for c in args.cores}
    base = best[args.cores[0]]
    lab = "cluster" if args.master else "local"
    print(f"{'master':<10} {'mode':<10} {'images/s':>9} {'vs best ' + lab + '[' + str(args.cores[0]) + ']':>18} "
          f"{'test acc':>9} {'steps':>6} {'load avg':>9}")
    if args.master:
        print(f"master {args.master}; cluster[N]: N workers (tasks)")
    for r in rows:
        print(f"{lab}[{r['cores']}]{'':<{4 - len(str(r['cores']))}} {r['mode']:<10} {r['images_per_s']:9.1f} "
              f"{r['images_per_s'] / base:18.2f} {r['test_accuracy']:9.4f} {r['steps']:6d} {r['load']:9.2f}")
    print("best: " + ", ".join(f"{lab}[{c}] {v:.1f} images/s ({v / base:.2f}x)" for c, v in best.items()))


if __name__ == "__main__":
    main()
