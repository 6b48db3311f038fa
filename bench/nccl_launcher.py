"""Launcher: runs W ranks of a function on one host without Spark, one process and one GPU per rank,
and supplies the NCCL rendezvous the way the Spark barrier stage does (rank 0 makes the NCCL unique
id and publishes it to the others — here through a multiprocessing queue instead of allGather).
  from nccl_launcher import launch; results = launch(fn, world=2, args=(...))   # fn(rank, world, comm, *args)"""
import multiprocessing as mp
import os
import sys
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _rank_main(fn, rank, world, queue, results, args):
    try:
        sys.path.insert(0, ROOT)
        import cupy
        from alpha_py.distributed.nccl import NcclAllReduce, new_unique_id
        cupy.cuda.Device(rank).use()
        if rank == 0:                             # rank 0 publishes, like BarrierTaskContext.allGather
            uid = new_unique_id()
            for _ in range(world - 1):
                queue.put(uid)
        else:
            uid = queue.get(timeout=120)
        comm = NcclAllReduce(uid, rank, world)
        try:
            results.put((rank, fn(rank, world, comm, *args)))
        finally:
            comm.close()
    except BaseException:
        results.put((rank, {"error": traceback.format_exc()}))


def launch(fn, world, args=(), timeout=540):
    """Run fn(rank, world, comm, *args) on ranks 0..world-1 (GPU = rank); returns results by rank.
    fn must be importable (defined at module level) because ranks are spawned processes."""
    ctx = mp.get_context("spawn")
    queue, results = ctx.Queue(), ctx.Queue()
    procs = [ctx.Process(target=_rank_main, args=(fn, r, world, queue, results, args)) for r in range(world)]
    for p in procs:
        p.start()
    out = dict(results.get(timeout=timeout) for _ in range(world))
    for p in procs:
        p.join()
    errors = [f"rank {r}:\n{v['error']}" for r, v in out.items() if isinstance(v, dict) and "error" in v]
    if errors:
        raise RuntimeError("\n".join(errors))
    return [out[r] for r in range(world)]
