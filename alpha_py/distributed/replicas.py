"""Distributed layer: the replica a reused Python worker keeps between the barrier stages of one job (engine, net,
optimizer; on GPUs its captured step and NCCL communicator too), and how a stage's ranks agree on GPUs and on
reusing what they kept, from one all-gather. Allreduce replicas are identical after every stage, so a kept
replica may serve whichever rank its worker runs next. Imports this package."""
from .worker import Trainer, wait_released

_KEPT = {}          # "replica" -> (job token, device, Trainer): at most one per Python worker


def drop_step(tr):
    """Drop the replica's captured step, then its kept communicator (the replica itself stays)."""
    tr.close()                     # captured steps hold NCCL work: drop them before the communicator
    kept, tr.kept_coll = tr.kept_coll, None
    if kept is not None:
        kept.abort()               # ncclCommAbort: the peers may be gone


def release_replicas():
    """Drop the kept replica (after the teardowns earlier tasks left running)."""
    wait_released()
    entry = _KEPT.pop("replica", None)
    if entry is not None:
        drop_step(entry[2])


def held_replica(token, start):
    """(Trainer, device) this worker kept for job `token` when its state is at global step `start`, else
    (None, None) and any other replica is released."""
    wait_released()
    entry = _KEPT.get("replica")
    if entry is not None and entry[0] == token and entry[2].done_step == start:
        entry[2].rewind_rng()
        return entry[2], entry[1]
    release_replicas()
    return None, None


def new_replica(spec, token, device):
    """A new Trainer on `device`, kept by this worker for the job's next stage (the caller loads the state)."""
    release_replicas()
    tr = Trainer(spec, device)
    _KEPT["replica"] = (token, device, tr)
    return tr


def place_devices(infos, local_gpus):
    """Each rank's GPU from the ranks' infos ({"gpu": Spark's assignment or None, "holds": the GPU of a kept
    replica or None}): Spark's where given; in local mode (`local_gpus` on this host) a rank keeps the GPU its
    replica lives on when no lower rank claimed it, the others take free GPUs in rank order (rank % n when
    there are more ranks than GPUs)."""
    if all(i.get("gpu") is not None for i in infos):
        return [i["gpu"] for i in infos]
    n, world = max(int(local_gpus or 0), 1), len(infos)
    if world > n:
        return [r % n for r in range(world)]
    out, taken = [None] * world, set()
    for r, i in enumerate(infos):
        held = i.get("holds")
        if held is not None and 0 <= held < n and held not in taken:
            out[r] = held
            taken.add(held)
    free = [g for g in range(n) if g not in taken]
    return [g if g is not None else free.pop(0) for g in out]


def agree(infos, local_gpus, cuda):
    """(devices, keeps, reuse): every rank's GPU, which ranks keep their replica (it is at this stage's step and
    on the GPU placed for them), and whether all of them keep their communicator and captured step (every rank
    holds the same one). Every rank computes the same answer from the same infos."""
    devices = place_devices(infos, local_gpus) if cuda else [0] * len(infos)
    keeps = [i.get("holds") is not None and i["holds"] == d for i, d in zip(infos, devices)]
    comms = {i.get("comm") for i in infos}
    return devices, keeps, all(keeps) and len(comms) == 1 and None not in comms
