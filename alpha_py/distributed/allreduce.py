"""Distributed layer: synchronous data parallel in one Spark barrier stage per segment
(rdd.barrier().mapPartitions). Each rank computes gradients on its batch/W rows, the gradients are
all-reduced (mean) every step and every replica applies the same update — the same arithmetic as
one process on the global batch. Rank 0 returns the state; the driver checkpoints between
segments. Imports pyspark, numpy and this package."""
import time

import numpy as np

from .collective import make_allreduce
from .rendezvous import task_gather
from .state import net_state, optim_state
from .worker import Trainer, task_gpu


def _buffer_names(net):
    trainable = set(net.param_map())
    return [n for n in net.state_map() if n not in trainable]


def allreduce_steps(tr, coll, spec, images, labels, rank, start, end, steps_per_epoch):
    """The synchronous data-parallel loop one rank runs (inside a Spark barrier task, or under
    bench/nccl_launcher.py): global steps [start, end) on its shard through the replica's train_step
    runner, gradients all-reduced inside every step (on GPUs the NCCL call is captured with the step's
    CUDA graph), then buffers (BatchNorm running stats, seen only on local batches) averaged once.
    Returns the loss averaged over steps and ranks."""
    b = tr.eg.backend
    losses = tr.run_steps(images, labels, rank, start, end, steps_per_epoch, coll)
    smap = tr.net.state_map()
    names = _buffer_names(tr.net)
    parts = [b.reshape(smap[n].data, (-1,)) for n in names]
    parts.append(b.from_host(np.array([np.mean(losses) if losses else 0.0], np.float32)))
    flat = coll.allreduce_mean(b, b.concat(parts, 0))
    off = 0
    for n in names:
        size = int(np.prod(smap[n].shape))
        smap[n].data = b.reshape(flat[off:off + size], smap[n].shape)
        off += size
    return float(b.to_host(flat[off:off + 1])[0])


_REPLICAS = {}      # (job token, rank, device) -> the Trainer a reused Python worker kept from its last stage


def release_replicas():
    """Drop the kept replicas, their captured steps and communicators first (ncclCommAbort: peers may be gone)."""
    for tr in _REPLICAS.values():
        tr.close()
        if tr.kept_coll is not None:
            tr.kept_coll.abort()
            tr.kept_coll = None
    _REPLICAS.clear()


def warm_replica(spec, token, rank, device, start):
    """(Trainer, warm): the replica this Python worker kept when its state is at global step `start` (the
    driver's state: allreduce replicas are identical after every stage), with the random state of a fresh one;
    otherwise a new Trainer (the caller loads the state)."""
    key = (token, rank, device)
    tr = _REPLICAS.get(key)
    if tr is not None and tr.done_step == start:
        tr.rewind_rng()
        return tr, True
    release_replicas()
    tr = _REPLICAS[key] = Trainer(spec, device)
    return tr, False


def _collective(tr, gather, rank, world, spec, mine):
    """This stage's collective and rank 0's schedule. A communicator the replica kept (with the step captured
    around it) is reused when every rank kept the same one; otherwise the old step and communicator go."""
    kept, tr.kept_coll = tr.kept_coll, None
    coll, plan, reused = make_allreduce(gather, rank, world, spec.engine, mine, kept)
    if kept is not None and not reused:
        tr.close()                 # captured steps hold NCCL work: drop them before the communicator
        kept.abort()
    if plan != mine:
        raise RuntimeError(f"rank {rank}: schedule {mine} differs from rank 0's {plan}")
    return coll, reused


def segment_task(spec, state_bc, start, end, steps_per_epoch, token, rendezvous=None, keep=False):
    """The barrier task body: train global steps [start, end) on this rank's shard. rendezvous: the driver
    server's (address, authkey), or None for Spark's allGather. keep: more stages follow, so a GPU replica
    keeps its communicator and captured step for the next one."""

    def run(it):
        from pyspark import BarrierTaskContext
        clock, began = [("start", time.perf_counter())], time.time()
        ctx = BarrierTaskContext.get()
        rank, world = ctx.partitionId(), spec.workers
        images, labels = list(it)[0]
        device = task_gpu(spec) if spec.engine == "cuda" else 0
        tr, warm = warm_replica(spec, token, rank, device, start)
        if not warm:
            tr.load(state_bc.value)            # a warm replica never fetches the broadcast
        tr.done_step = None                    # until this stage completes, its state is in between
        clock.append(("build", time.perf_counter()))
        # Spark never retries a failed barrier result stage (fit restarts it under a new token): unique keys
        gather = task_gather(rendezvous, ctx, rank, world, f"{token}/{start}/{ctx.stageId()}")
        try:
            mine = {"start": start, "end": end, "spe": steps_per_epoch}
            coll, reused = _collective(tr, gather, rank, world, spec, mine)
            clock.append(("rendezvous", time.perf_counter()))
            mean_loss = allreduce_steps(tr, coll, spec, images, labels, rank, start, end, steps_per_epoch)
            clock.append(("steps", time.perf_counter()))
            if keep and spec.engine == "cuda":
                tr.kept_coll = coll
            else:
                tr.close()         # captured steps hold NCCL work: destroying the communicator first hangs
                coll.close()
            clock.append(("release", time.perf_counter()))
        finally:
            gather.close()
        tr.done_step = end
        if rank == 0:
            out = {"net": net_state(tr.net), "optim": optim_state(tr.opt), "loss": mean_loss,
                   "steps": end - start, "images": (end - start) * spec.batch}
            clock.append(("state_out", time.perf_counter()))
            out["profile"] = {name: t - prev for (_, prev), (name, t) in zip(clock, clock[1:])}
            out["profile"].update(first_steps=tr.first_steps_s, warm=warm, reused=reused,
                                  nccl_init=getattr(coll, "init_s", None), began=began, ended=time.time())
            yield out

    return run


def run_segment(sc, shard_rdd, spec, state, start, end, steps_per_epoch, token, rendezvous=None, keep=False):
    """One barrier stage; returns (new_state, metrics). token: the job's (new after a failed stage), under
    which reused Python workers keep their replica between stages; rendezvous and keep: see segment_task."""
    submitted = time.time()
    bc = sc.broadcast(state)
    try:
        task = segment_task(spec, bc, start, end, steps_per_epoch, token, rendezvous, keep)
        out = shard_rdd.barrier().mapPartitions(task).collect()
    finally:
        bc.unpersist()
    res = out[0]
    prof = res["profile"]      # wall clocks of this host and rank 0's: the split is approximate on a cluster
    prof["before"], prof["after"] = prof.pop("began") - submitted, time.time() - prof.pop("ended")
    return ({"net": res["net"], "optim": res["optim"]},
            {"loss": res["loss"], "images": res["images"], "profile": res["profile"]})
