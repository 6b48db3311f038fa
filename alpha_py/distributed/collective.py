"""Distributed layer: gradient all-reduce inside one Spark barrier stage. CPU executors use
Spark's own barrier messaging (BarrierTaskContext.allGather of serialized gradients: correct,
but every rank receives every gradient — slow, for small models); GPU executors use NCCL through
CuPy (nccl.py) after rank 0 publishes the NCCL unique id with allGather. Imports numpy, pyspark."""
import base64
import json

import numpy as np

# allGather messages travel through Spark's RPC layer (spark.rpc.message.maxSize, 128 MB by
# default, holds all ranks' messages of one call): gradients go in chunks of this many bytes.
CHUNK_BYTES = 4 << 20


class SparkAllReduce:
    """Sum-all-reduce of a flat float32 host buffer over BarrierTaskContext.allGather. Every rank
    adds the gathered buffers in rank order, so all replicas get bit-identical results."""

    name = "spark-allGather"

    def __init__(self, ctx, rank, world):
        self.ctx, self.rank, self.world = ctx, rank, world

    def allreduce_mean(self, backend, flat):
        if self.world == 1:                       # nothing to exchange (and each barrier call costs ~1 s)
            return flat
        host = np.ascontiguousarray(backend.to_host(flat), dtype=np.float32)
        raw = host.tobytes()
        total = None
        for lo in range(0, max(len(raw), 1), CHUNK_BYTES):
            msg = base64.b64encode(raw[lo:lo + CHUNK_BYTES]).decode("ascii")
            parts = self.ctx.allGather(msg)
            chunk = None
            for part in parts:                    # rank order: deterministic sum
                arr = np.frombuffer(base64.b64decode(part), dtype=np.float32)
                chunk = arr.copy() if chunk is None else chunk + arr
            total = chunk if total is None else np.concatenate([total, chunk])
        total /= np.float32(self.world)
        return backend.from_host(total)

    def close(self):
        pass


def publish_from_rank0(ctx, rank, make_info):
    """Rendezvous: rank 0 computes `make_info()` (JSON-able), every rank receives it through one
    allGather. Returns the info dict."""
    msg = json.dumps(make_info()) if rank == 0 else ""
    gathered = ctx.allGather(msg)
    return json.loads(gathered[0])


def make_allreduce(ctx, rank, world, engine_kind, plan):
    """The collective for this task (NCCL on the GPU Spark assigned, else Spark messaging) and rank
    0's `plan` (a JSON-able dict), both from ONE allGather in which rank 0 publishes its info."""
    if engine_kind == "cuda":
        from .nccl import NcclAllReduce, new_unique_id
        info = publish_from_rank0(ctx, rank, lambda: {"plan": plan, "nccl_id": new_unique_id()})
        return NcclAllReduce(info["nccl_id"], rank, world), info["plan"]
    info = publish_from_rank0(ctx, rank, lambda: {"plan": plan})
    return SparkAllReduce(ctx, rank, world), info["plan"]
