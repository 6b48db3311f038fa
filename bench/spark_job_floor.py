"""Benchmark: Spark's own cost of one tiny job, classic vs Connect: a mapInArrow (plain and barrier) over a cached
2-row frame, and, classic only, a barrier RDD stage over a cached 2-partition RDD (what Alpha's classic stages
are). Starts and stops a local Connect server as tests/spark_daemons.connect_server does. Prints the median and
minimum of 20 jobs after 5 warm-up ones. Usage: python3 bench/spark_job_floor.py"""
import os
import signal
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
sys.path.insert(0, os.path.join(HERE, ".."))

import pyarrow as pa  # noqa: E402
from spark_daemons import connect_server  # noqa: E402

JOBS, WARM = 25, 5


def report(label, times):
    ts = times[WARM:]
    print(f"{label}: median {statistics.median(ts) * 1e3:.1f} ms, min {min(ts) * 1e3:.1f} ms", flush=True)


def map_in_arrow(spark, label):
    def fn(batches):
        for b in batches:
            yield pa.RecordBatch.from_pydict({"out": [b.num_rows]})

    df = spark.createDataFrame([(i, b"x" * 100) for i in range(2)], "k long, v binary").repartition(2).cache()
    df.count()
    for barrier in (False, True):
        times = []
        for _ in range(JOBS):
            t = time.perf_counter()
            df.mapInArrow(fn, "out long", barrier=barrier).collect()
            times.append(time.perf_counter() - t)
        report(f"{label} mapInArrow barrier={barrier}", times)


def barrier_rdd(spark):
    rdd = spark.sparkContext.parallelize(range(2), 2).cache()
    rdd.count()
    times = []
    for _ in range(JOBS):
        t = time.perf_counter()
        rdd.barrier().mapPartitions(lambda it: [sum(1 for _ in it)]).collect()
        times.append(time.perf_counter() - t)
    report("classic barrier RDD stage", times)


def main():
    from pyspark.sql import SparkSession
    from alpha_py.distributed.connect import remote_session
    spark = SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false").getOrCreate()
    map_in_arrow(spark, "classic")
    barrier_rdd(spark)
    spark.stop()
    proc, url = connect_server(tempfile.mkdtemp(prefix="alpha-job-floor-"))
    try:
        remote = remote_session(url)
        map_in_arrow(remote, "connect")
        remote.stop()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(60)


if __name__ == "__main__":
    main()
