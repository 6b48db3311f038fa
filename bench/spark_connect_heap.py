"""Benchmark: the Spark Connect server's live heap across fit() runs. Starts a local[2] Connect server from the pip
pyspark (1 GiB default driver heap), runs the given fits on one session, and reads the live heap (full GC, then
`jmap -histo:live`'s total, 3 s after the last job) before and after each run, every --every stages, after 75 s
idle and after the session's spark.stop(); stops the server by its pid.
  python3 bench/spark_connect_heap.py --runs average:1:5 allreduce:2:5 average:2:1 [--variant plain]
  python3 bench/spark_connect_heap.py --jobs 40 --closure-mb 20 --every 10 [--variant plain]
A run is MODE:EPOCHS:STEPS (STEPS: sync_every for average, checkpoint_every for allreduce; mnist5k has 62
steps an epoch). --jobs runs that many one-row-per-task jobs through Alpha's job runner (connect_stages._rows),
each with a fresh closure of --closure-mb MB, instead of fits. --variant plain runs Alpha's jobs without keeping
them out of the server's plan cache (the behaviour before that change), to compare on the same protocol."""
import argparse
import contextlib
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))


def live_mb(pid, settle_s=3.0):
    """Live heap in MB: jmap -histo:live runs a full GC first and totals what is left. settle_s first: a task's
    Python monitor thread holds its closure until about 2 s after the task ends."""
    time.sleep(settle_s)
    out = subprocess.run(["jmap", "-histo:live", str(pid)], check=True, capture_output=True, text=True,
                         timeout=300).stdout
    m = re.search(r"^Total\s+\d+\s+(\d+)", out, re.M)
    if not m:
        raise RuntimeError(f"jmap -histo:live {pid}: no Total line in {out[-300:]!r}")
    return int(m.group(1)) / 1e6


def run_spec(text):
    mode, epochs, steps = text.split(":")
    if mode not in ("average", "allreduce"):
        raise argparse.ArgumentTypeError(f"run {text!r}: mode must be average or allreduce")
    return mode, int(epochs), int(steps)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", nargs="+", type=run_spec, default=[], metavar="MODE:EPOCHS:STEPS")
    p.add_argument("--jobs", type=int, default=0, help="plain jobs instead of fits")
    p.add_argument("--closure-mb", type=float, default=2.6)
    p.add_argument("--variant", choices=("alpha", "plain"), default="alpha")
    p.add_argument("--every", type=int, default=0, help="also read the heap every N stages (0: per run only)")
    p.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE", help="server --conf")
    p.add_argument("--log-dir", default="/tmp/alpha-connect-heap")
    args = p.parse_args()
    if bool(args.runs) == bool(args.jobs):
        p.error("give either --runs or --jobs")
    from spark_daemons import connect_server, stop     # the tests' launcher: spark-submit SparkConnectServer
    from alpha_py.distributed import connect_stages, fit
    from alpha_py.distributed.connect import remote_session
    if args.variant == "plain":                        # Alpha's jobs as they ran before: plan cache left on
        connect_stages.plan_cache_paused = lambda spark: contextlib.nullcontext()
    os.makedirs(args.log_dir, exist_ok=True)
    proc, url = connect_server(args.log_dir, extra_conf=dict(c.split("=", 1) for c in args.conf))
    try:
        spark = remote_session(url)
        if args.jobs:
            return jobs(spark, proc, args)
        fit("mnist5k", "mnist_cnn", epochs=1, batch=64, workers=2, mode="average", sync_every=62, spark=spark,
            log=lambda *a: None)                       # warm: Python workers, imports, the data read once
        start = prev = live_mb(proc.pid)
        print(f"server pid {proc.pid} ({args.variant}): live heap {start:.1f} MB after a warm-up fit", flush=True)
        for mode, epochs, steps in args.runs:
            stages = [0]

            def log(msg, every=args.every, stages=stages, t0=time.monotonic()):
                if " loss " in msg and msg.startswith("[alpha.distributed] step "):
                    stages[0] += 1
                    if every and stages[0] % every == 0:
                        print(f"    after {stages[0]} stages: live heap {live_mb(proc.pid):.1f} MB "
                              f"({time.monotonic() - t0:.0f} s)", flush=True)
            t0 = time.monotonic()
            res = fit("mnist5k", "mnist_cnn", epochs=epochs, batch=64, workers=2, mode=mode, sync_every=steps,
                      checkpoint_every=steps, spark=spark, log=log)      # a log line per stage
            now = live_mb(proc.pid)
            print(f"{mode} epochs={epochs} steps/stage={steps}: {len(res.history)} stages in "
                  f"{time.monotonic() - t0:.0f} s, loss {res.history[-1]['loss']:.3f}; live heap {now:.1f} MB "
                  f"({now - prev:+.1f} MB, {(now - prev) / len(res.history):+.2f} MB per stage)", flush=True)
            prev = now
        print(f"total: {prev - start:+.1f} MB over the runs", flush=True)
        idle = live_mb(proc.pid, settle_s=75)          # idle Python workers and pool threads time out after 60 s
        print(f"after 75 s idle: live heap {idle:.1f} MB ({idle - start:+.1f} MB since the warm-up)", flush=True)
        spark.stop()                                   # the client releases its session on the server
        gone = live_mb(proc.pid)
        print(f"after spark.stop(): live heap {gone:.1f} MB ({gone - start:+.1f} MB since the warm-up)", flush=True)
    finally:
        stop(proc)


def jobs(spark, proc, args):
    """args.jobs mapInArrow jobs over a cached 2-row frame, each closure holding a new args.closure_mb MB array."""
    import numpy as np
    import pyarrow as pa
    from alpha_py.distributed import connect_stages
    frame = spark.createDataFrame(pa.table({"rank": [0, 1]})).repartitionByRange(2, "rank").cache()

    def job(i):
        payload = np.full(int(args.closure_mb * 1e6 / 8), float(i))

        def fn(batches):
            for _ in batches:
                pass
            yield connect_stages._one(float(payload[0]))
        return connect_stages._rows(frame, fn, "out binary")
    job(0)
    start = live_mb(proc.pid)
    print(f"server pid {proc.pid} ({args.variant}): live heap {start:.1f} MB after one job", flush=True)
    t0 = time.monotonic()
    for i in range(1, args.jobs + 1):
        try:
            job(i)
        except Exception as e:                         # e.g. the server's SparkContext stopped by an OOM
            print(f"job {i} failed after {time.monotonic() - t0:.0f} s: {type(e).__name__}: "
                  f"{str(e).splitlines()[0][:200]}", flush=True)
            log = os.path.join(args.log_dir, "connect-server.log")
            print(f"OutOfMemoryError lines in {log}: {open(log).read().count('OutOfMemoryError')}", flush=True)
            break
        if args.every and i % args.every == 0:
            now = live_mb(proc.pid)
            print(f"after {i} jobs: live heap {now:.1f} MB ({(now - start) / i:+.2f} MB per job, "
                  f"{time.monotonic() - t0:.0f} s)", flush=True)
    spark.stop()            # while the server runs: a client left open retries its release for minutes at exit


if __name__ == "__main__":
    main()
