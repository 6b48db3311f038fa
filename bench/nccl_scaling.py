"""Benchmark: the NCCL path of allreduce mode — the same per-rank loop a Spark barrier task runs
(alpha_py.distributed.allreduce.allreduce_steps: forward/backward, NCCL all-reduce of the flat
gradient through cupy.cuda.nccl, optimizer update) — on 1 GPU vs 2 GPUs, ResNet18 on CIFAR-shaped
synthetic uint8 batches (fixed batch per GPU). Rendezvous from bench/nccl_launcher.py (no Spark).
--wires fp32 bf16: the multi-GPU runs once per all-reduce wire format (NcclAllReduce(wire=...)); --precision: the
engine's (fp32 | tf32 | bf16; --tf32 is --precision tf32).
  python3 bench/nccl_scaling.py --gpus 1 2 --batch-per-gpu 256 --steps 20 [--precision bf16] [--wires fp32 bf16]
       [--graph on|off]"""
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
    spec.graph = {"on": None, "off": False}[opts["graph"]]
    spec.precision = opts["precision"]
    comm.wire = opts["wire"]
    tr = Trainer(spec, device_id=rank)
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
    return {"seconds": dt, "images": opts["steps"] * spec.batch, "loss": loss, "checksum": checksum,
            "steps": tr.steps(comm).stats()}


def small_cnn():
    from alpha_py import nn
    return nn.sequence(nn.conv3D(3, 8, 3, 1, 1), nn.relu(), nn.maxPool2D(2), nn.flatten(),
                       nn.fullconnect(8 * 16 * 16, 10))


def check_fn(rank, world, comm, state, images, labels):
    """Equivalence on GPUs: `world` ranks with plain SGD, 3 steps, fixed global batch 16."""
    from alpha_py.distributed.allreduce import allreduce_steps
    from alpha_py.distributed.state import net_state
    from alpha_py.distributed.worker import JobSpec, Trainer
    spec = JobSpec(small_cnn, (32, 32, 3), 10, "sgd", 0.05, "cuda", 16, world, seed=0, shuffle=False)
    tr = Trainer(spec, device_id=rank)
    tr.load(state)
    n = len(labels) // world
    allreduce_steps(tr, comm, spec, images[rank * n:(rank + 1) * n], labels[rank * n:(rank + 1) * n],
                    rank, 0, 3, 3)
    return net_state(tr.net)


def equivalence_check():
    from alpha_py.distributed.fit import initial_state
    from alpha_py.distributed.worker import JobSpec
    state = initial_state(JobSpec(small_cnn, (32, 32, 3), 10, "sgd", 0.05, "cpu", 16, 1))
    rng = np.random.default_rng(7)
    images = rng.integers(0, 256, (48, 32, 32, 3), dtype=np.uint8)
    labels = rng.integers(0, 10, 48)
    # two ranks of 8 rows/step over halves [0,24) and [24,48) == one GPU on those 16 rows per step
    two = launch(check_fn, 2, (state, images, labels))
    order = np.concatenate([np.r_[s * 8:(s + 1) * 8, 24 + s * 8:24 + (s + 1) * 8] for s in range(3)])
    one = launch(check_fn, 1, (state, images[order], labels[order]))
    err = max(float(np.max(np.abs(two[0][k] - one[0][k])) / max(np.max(np.abs(one[0][k])), 1e-12))
              for k in one[0])
    same = all(np.array_equal(two[0][k], two[1][k]) for k in two[0])
    print(f"equivalence (NCCL, 2 GPUs vs 1 GPU on the global batch, SGD, 3 steps): max relative weight "
          f"difference {err:.2e} (bound 1e-5), ranks bit-identical: {same}", flush=True)
    return err < 1e-5 and same


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--gpus", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--model", default="resnet18")
    ap.add_argument("--batch-per-gpu", dest="bpg", type=int, default=256)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--tf32", action="store_true", help="the same as --precision tf32")
    ap.add_argument("--precision", choices=["fp32", "tf32", "bf16"], default="fp32")
    ap.add_argument("--wires", nargs="+", choices=["fp32", "bf16"], default=["fp32"],
                    help="all-reduce wire formats to run (multi-GPU runs; one GPU runs once)")
    ap.add_argument("--graph", choices=["on", "off"], default="on",
                    help="on: each rank's step (with its NCCL all-reduce) captured into a CUDA graph")
    ap.add_argument("--check", action="store_true", help="first verify 2-GPU == 1-GPU on the global batch")
    args = ap.parse_args()
    if args.check and not equivalence_check():
        raise SystemExit("equivalence check failed")
    from alpha_py.distributed.fit import initial_state
    from alpha_py.distributed.worker import JobSpec
    state = initial_state(JobSpec(args.model, (32, 32, 3), 10, "adam", 1e-3, "cpu", args.bpg, 1))
    precision = "tf32" if args.tf32 else args.precision
    opts = {"model": args.model, "bpg": args.bpg, "steps": args.steps, "warmup": args.warmup,
            "precision": precision, "graph": args.graph}
    rows = []
    for g in args.gpus:
        for wire in (args.wires if g > 1 else args.wires[:1]):
            res = launch(rank_fn, g, (dict(opts, wire=wire), state))
            sums = {round(r["checksum"], 2) for r in res}
            ips = res[0]["images"] / max(r["seconds"] for r in res)
            rows.append((g, wire, ips, max(r["seconds"] for r in res) / args.steps * 1e3, res[0]["loss"],
                         len(sums) == 1))
            st = res[0]["steps"]
            print(f"done {g} GPU(s), {wire} all-reduce: {ips:.1f} images/s, replicas identical: {len(sums) == 1}; "
                  f"rank 0 steps: {st['eager']} op by op, {st['captures']} captured, {st['replays']} replayed",
                  flush=True)
    base = rows[0][2]
    print(f"\n{args.model} CIFAR-shaped, batch {args.bpg}/GPU, {precision}, graph {args.graph}, "
          f"{args.steps} timed steps after {args.warmup} warm-up")
    print(f"{'GPUs':>4} {'wire':>5} {'images/s':>10} {'ms/step':>8} {'speedup':>8} {'loss':>8} {'replicas equal':>15}")
    for g, wire, ips, ms, loss, same in rows:
        print(f"{g:>4} {wire:>5} {ips:10.1f} {ms:8.1f} {ips / base:8.2f} {loss:8.4f} {str(same):>15}")


if __name__ == "__main__":
    main()
