"""Distributed layer: synchronous data parallel in one Spark barrier stage per segment
(rdd.barrier().mapPartitions). Each rank computes gradients on its batch/W rows, the gradients are
all-reduced (mean) every step and every replica applies the same update — the same arithmetic as
one process on the global batch. Rank 0 hands the state to the driver (through the rendezvous, or as its
task result), which checkpoints between segments. Imports pyspark, numpy and this package."""
import pickle
import time

import numpy as np

from .collective import exchange, new_collective, settle
from .rendezvous import task_gather
from .replicas import agree, drop_step, held_replica, new_replica, release_replicas
from .shards import shard_arrays
from .state import net_state, optim_state, pack_state, unpack_state
from .worker import finite_mean, task_gpu


def _buffer_names(net):
    """The float32 buffers (BatchNorm's running statistics): averaged over the ranks. A float64 buffer (BatchNorm's
    exp_beta, beta^t of the step count) is the same on every rank and keeps its dtype: replacing it by a float32
    average would change its precision and make a captured step refuse the replaced array."""
    trainable, smap = set(net.param_map()), net.state_map()
    return [n for n in smap if n not in trainable and str(smap[n].data.dtype) == "float32"]


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
    parts.append(b.from_host(np.array([finite_mean(losses) if losses else 0.0], np.float32)))
    flat = coll.allreduce_mean(b, b.concat(parts, 0))
    off = 0
    for n in names:
        size = int(np.prod(smap[n].shape))
        smap[n].data = b.reshape(flat[off:off + size], smap[n].shape)
        off += size
    return float(b.to_host(flat[off:off + 1])[0])


def stage_setup(spec, gather, rank, world, token, start, mine):
    """Agree on this stage with the other ranks in one all-gather (rank 0's schedule, GPUs, what each kept);
    returns (kept replica or None, this rank's GPU, collective — a new communicator may still be pending:
    settle() it —, reused: the kept communicator and captured step go on, keeps: which ranks kept theirs)."""
    cuda = spec.engine == "cuda"
    tr, held = held_replica(token, start)
    info = {"plan": mine, "gpu": task_gpu(spec) if cuda and not spec.local_gpus else None,
            "holds": held, "comm": None if tr is None or tr.kept_coll is None else tr.kept_coll.key}
    infos = exchange(gather, info)
    if infos[0]["plan"] != mine:
        raise RuntimeError(f"rank {rank}: schedule {mine} differs from rank 0's {infos[0]['plan']}")
    devices, keeps, reuse = agree(infos, spec.local_gpus, cuda)
    if tr is not None and not keeps[rank]:
        release_replicas()
        tr = None
    if reuse:
        coll, tr.kept_coll = tr.kept_coll, None
        return tr, devices[rank], coll, True, keeps
    if tr is not None and tr.kept_coll is not None:
        drop_step(tr)              # another rank holds no such communicator: a new one, captured anew
    coll = new_collective(gather, rank, world, spec.engine, devices[rank] if cuda else None)
    return tr, devices[rank], coll, False, keeps


class Shared:
    """The start state when none was shipped with the stage (Spark Connect, after the first stage): the ranks'
    kept replicas hold it (allreduce replicas are identical), and a rank without one takes it from the lowest
    rank that kept one (share_start)."""

    shared = True


LOST = "no rank kept a replica at the stage's start step"


def share_start(gather, tr, keeps, rank, start):
    """With a Shared start state and some rank without a kept replica: one all-gather in which the lowest rank
    that kept one sends its state; returns it (None on ranks that kept theirs). Every rank raises (the same
    text, LOST) when none kept one: the caller must ship the state."""
    if not any(keeps):
        raise RuntimeError(f"rank {rank}: {LOST} {start}; the stage needs its start state shipped")
    donor = keeps.index(True)
    mine = pickle.dumps({"net": net_state(tr.net), "optim": optim_state(tr.opt)}) if rank == donor else b""
    parts = gather.all_gather(mine)
    return None if tr is not None else pickle.loads(parts[donor])


def segment_task(spec, state_bc, start, end, steps_per_epoch, token, rendezvous=None, keep=False, state_out=True):
    """The barrier task body: train global steps [start, end) on this rank's shard. rendezvous: the driver
    server's (address, authkey) — the start state is fetched from it —, or None for Spark's allGather and
    the broadcast `state_bc` (a Shared: the replicas' own, share_start). keep: more stages follow, so a GPU
    replica keeps its communicator and captured step for the next one. state_out: rank 0 hands out the end state
    (False: it stays in the kept replicas)."""

    def run(it):
        from pyspark import BarrierTaskContext
        clock, began = [("start", time.perf_counter())], time.time()
        ctx = BarrierTaskContext.get()
        rank, world = ctx.partitionId(), spec.workers
        # Spark never retries a failed barrier result stage (fit restarts it under a new token): unique keys
        gather = task_gather(rendezvous, ctx, rank, world, f"{token}/{start}/{ctx.stageId()}")
        try:
            mine = {"start": start, "end": end, "spe": steps_per_epoch}
            tr, device, coll, reused, keeps = stage_setup(spec, gather, rank, world, token, start, mine)
            warm = tr is not None
            shared = getattr(state_bc, "shared", False)
            given = share_start(gather, tr, keeps, rank, start) if shared and not all(keeps) else None
            clock.append(("rendezvous", time.perf_counter()))
            images, labels = shard_arrays(list(it)[0])
            if tr is None:                     # built while a new communicator is being made
                tr = new_replica(spec, token, device)
                # a warm replica never fetches the stage's start state
                tr.load(given if shared else state_bc.value if state_bc is not None
                        else unpack_state(*gather.get(f"{token}/{start}/start")))
            tr.done_step = None                # until this stage completes, its state is in between
            clock.append(("build", time.perf_counter()))
            coll = settle(coll)
            if spec.engine == "cuda":
                clock.append(("nccl", time.perf_counter()))
            mean_loss = allreduce_steps(tr, coll, spec, images, labels, rank, start, end, steps_per_epoch)
            clock.append(("steps", time.perf_counter()))
            out = None
            if rank == 0:
                state = {"net": net_state(tr.net), "optim": optim_state(tr.opt)} if state_out else {}
                if state and hasattr(gather, "put"):     # straight to the driver, not Spark's result path
                    gather.put(f"{token}/{start}/state", *pack_state(state))
                    state = {}
                out = dict(state, loss=mean_loss, steps=end - start, images=(end - start) * spec.batch)
                clock.append(("state_out", time.perf_counter()))
            if keep and spec.engine == "cuda":
                tr.kept_coll = coll
            elif spec.engine == "cuda":
                tr.release_later(coll)         # graph and communicator teardown after the task returns
            else:
                tr.close()
                coll.close()
            clock.append(("release", time.perf_counter()))
        finally:
            gather.close()
        tr.done_step = end
        if out is not None:
            out["profile"] = {name: t - prev for (_, prev), (name, t) in zip(clock, clock[1:])}
            out["profile"].update(first_steps=tr.first_steps_s, warm=warm, reused=reused,
                                  nccl_init=getattr(coll, "init_s", None), began=began, ended=time.time())
            yield out

    return run


def run_segment(sc, shard_rdd, spec, state, start, end, steps_per_epoch, token, server=None, keep=False):
    """One barrier stage; returns (new_state, metrics). token: the job's (new after a failed stage), under
    which reused Python workers keep their replica between stages; server: the driver's RendezvousServer (None:
    Spark's allGather, and the state comes back as the task's result); keep: see segment_task."""
    submitted, key = time.time(), f"{token}/{start}"
    if server is None:
        bc, how = sc.broadcast(state), None
    else:                          # cold replicas fetch the state raw from the driver; warm ones need nothing
        bc, how = None, (server.address, server.authkey)
        server.offer(key + "/start", *pack_state(state))
    try:
        task = segment_task(spec, bc, start, end, steps_per_epoch, token, how, keep)
        res = shard_rdd.barrier().mapPartitions(task).collect()[0]
    finally:
        if bc is not None:
            bc.unpersist()
        sent = None
        if server is not None:
            server.withdraw(key + "/start")
            sent = server.take(key + "/state")
    if sent is not None:
        res.update(unpack_state(*sent))
    prof = res["profile"]      # wall clocks of this host and rank 0's: the split is approximate on a cluster
    prof["before"], prof["after"] = prof.pop("began") - submitted, time.time() - prof.pop("ended")
    return ({"net": res["net"], "optim": res["optim"]},
            {"loss": res["loss"], "images": res["images"], "profile": prof})
