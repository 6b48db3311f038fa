"""Benchmark: the NCCL path of allreduce mode — the same per-rank loop a Spark barrier task runs
(alpha_py.distributed.allreduce.allreduce_steps: forward/backward, NCCL all-reduce of the flat
gradient through cupy.cuda.nccl, optimizer update) — on 1 GPU vs 2 GPUs, ResNet18 on CIFAR-shaped
synthetic uint8 batches (fixed batch per GPU). Rendezvous from bench/nccl_launcher.py (no Spark).
  python3 bench/nccl_scaling.py --gpus 1 2 --batch-per-gpu 256 --steps 20 [--tf32]"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

from nccl_launcher import launch  # noqa: E402


def rank_fn(rank, world, comm, opts, state):
    import cupy
    from alpha_py.distributed.allreduce import allreduce_steps
    from alpha_py.distributed.worker import JobSpec, Trainer
    spec = JobSpec(opts["model"], (32, 32, 3), 10, "adam", 1e-3, "cuda", opts["bpg"] * world, world,
                   seed=0, shuffle=True)
    tr = Trainer(spec, device_id=rank)
    tr.eg.backend.tf32 = opts["tf32"]
    tr.load(state)
    rng = np.random.default_rng(rank)
    n = opts["bpg"] * 8                                  # 8 distinct batches per rank, reshuffled
    images = rng.integers(0, 256, (n, 32, 32, 3), dtype=np.uint8)
    labels = rng.integers(0, 10, n)
    spe = n // spec.local_batch
    allreduce_steps(tr, comm, spec, images, labels, rank, 0, opts["warmup"], spe)
    cupy.cuda.Device(rank).synchronize()
    t0 = time.perf_counter()
    loss = allreduce_steps(tr, comm, spec, images, labels, rank, opts["warmup"],
                           opts["warmup"] + opts["steps"], spe)
    cupy.cuda.Device(rank).synchronize()
    dt = time.perf_counter() - t0
    w = tr.net.param_map()
    checksum = float(sum(float(cupy.abs(p.data).sum()) for p in w.values()))
    return {"seconds": dt, "images": opts["steps"] * spec.batch, "loss": loss, "checksum": checksum}


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--gpus", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--model", default="resnet18")
    ap.add_argument("--batch-per-gpu", dest="bpg", type=int, default=256)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--tf32", action="store_true")
    args = ap.parse_args()
    from alpha_py.distributed.fit import initial_state
    from alpha_py.distributed.worker import JobSpec
    state = initial_state(JobSpec(args.model, (32, 32, 3), 10, "adam", 1e-3, "cpu", args.bpg, 1))
    opts = {"model": args.model, "bpg": args.bpg, "steps": args.steps, "warmup": args.warmup, "tf32": args.tf32}
    rows = []
    for g in args.gpus:
        res = launch(rank_fn, g, (opts, state))
        sums = {round(r["checksum"], 2) for r in res}
        ips = res[0]["images"] / max(r["seconds"] for r in res)
        rows.append((g, ips, max(r["seconds"] for r in res) / args.steps * 1e3, res[0]["loss"], len(sums) == 1))
        print(f"done {g} GPU(s): {ips:.1f} images/s, replicas identical: {len(sums) == 1}", flush=True)
    base = rows[0][1]
    print(f"\n{args.model} CIFAR-shaped, batch {args.bpg}/GPU, {'TF32' if args.tf32 else 'fp32'}, "
          f"{args.steps} timed steps after {args.warmup} warm-up")
    print(f"{'GPUs':>4} {'images/s':>10} {'ms/step':>8} {'speedup':>8} {'loss':>8} {'replicas equal':>15}")
    for g, ips, ms, loss, same in rows:
        print(f"{g:>4} {ips:10.1f} {ms:8.1f} {ips / base:8.2f} {loss:8.4f} {str(same):>15}")


if __name__ == "__main__":
    main()
