"""Distributed layer: parameter averaging (the fault-tolerant CPU default). Each round the driver
broadcasts the state, every partition trains k local steps on its shard, and treeAggregate averages
weights, buffers and optimizer state. Plain (non-barrier) tasks: Spark retries a failed one on its
own. Imports pyspark, numpy and this package."""
from .shards import shard_arrays
from .state import add_states, average_states, net_state, optim_state
from .worker import Trainer, finite_mean, task_gpu

_TRAINERS = {}      # job token -> Trainer, reused across rounds by a reused Python worker


def _trainer(spec, token):
    tr = _TRAINERS.get(token)
    if tr is None:
        _TRAINERS.clear()
        tr = _TRAINERS[token] = Trainer(spec, task_gpu(spec) if spec.engine == "cuda" else 0)
    return tr


def _add(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return {"net": add_states(a["net"], b["net"]), "optim": add_states(a["optim"], b["optim"]),
            "loss": a["loss"] + b["loss"], "count": a["count"] + b["count"]}


def round_task(spec, state_bc, start, end, steps_per_epoch, token):
    def run(rank, it):
        images, labels = shard_arrays(list(it)[0])
        tr = _trainer(spec, token)
        tr.load(state_bc.value)
        losses = tr.run_steps(images, labels, rank, start, end, steps_per_epoch)
        yield {"net": net_state(tr.net), "optim": optim_state(tr.opt),
               "loss": finite_mean(losses) if losses else 0.0, "count": 1}

    return run


def run_round(sc, shard_rdd, spec, state, start, end, steps_per_epoch, token):
    """One averaging round over global steps [start, end); returns (new_state, metrics)."""
    bc = sc.broadcast(state)
    try:
        total = shard_rdd.mapPartitionsWithIndex(round_task(spec, bc, start, end, steps_per_epoch, token)) \
            .treeAggregate(None, _add, _add, depth=2)
    finally:
        bc.unpersist()
    n = total["count"]
    new = {"net": average_states(total["net"], n), "optim": average_states(total["optim"], n)}
    return new, {"loss": total["loss"] / n, "images": (end - start) * spec.batch}
