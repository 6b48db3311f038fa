"""Distributed layer: fit()'s stages over a Spark Connect session (no SparkContext, no RDD on the client). The
shards are a DataFrame of one row per rank in `workers` partitions; an allreduce segment is a barrier
mapInArrow over it whose rank 0 hosts the stage's rendezvous (on its executor's host, at a port and key the
client drew for the stage); an averaging round is a plain mapInArrow whose W states the client averages.
An allreduce state stays in the executors' kept replicas between segments: it rides in the closure only when
no replica can hold it, rank 0 writes the checkpoints and returns the state after the last segment. Consecutive
segments run in one barrier job (fit's job_seconds), so Spark's per-job cost is paid once per job.
Imports numpy, pyarrow / pyspark (lazily) and this package."""
import os
import pickle
import random
import socket
import time

import numpy as np

from .checkpoint import Checkpointer
from .connect import plan_cache_paused
from .shards import ArrayDataset, FileDataset, FrameDataset, ShardRef, split_ranges

_ITEM = "rank long, item binary"
_OUT = "out binary"


class Value:
    """A broadcast's stand-in (`.value`): over Connect the state rides in the stage's pickled closure."""

    def __init__(self, value):
        self.value = value


def shard_item(batches, shape):
    """The one shard of this partition: a pickled item (ShardRef or (images, labels)) or a packed DataFrame row."""
    rows = []
    for rb in batches:
        rows += rb.to_pylist()
    if len(rows) != 1:
        raise RuntimeError(f"Spark Connect shard frame: a partition holds {len(rows)} shards, expected exactly 1")
    r = rows[0]
    if "item" in r:
        return pickle.loads(r["item"])
    return (np.frombuffer(r["images"], np.uint8).reshape((r["n"],) + tuple(shape)),
            np.frombuffer(r["labels"], np.int64))


def shard_frame(spark, ds, workers, job):
    """A cached DataFrame of `workers` partitions, partition r holding shard r."""
    if isinstance(ds, FrameDataset):       # the executors pack their own rows: nothing passes the client
        return ds.packed_frame(workers).cache()
    import pyarrow as pa
    if isinstance(ds, FileDataset):        # by reference: each task reads its records itself
        items = [ShardRef(ds, a, b, job) for a, b in split_ranges(ds.count, workers)]
    elif hasattr(ds, "shards"):            # ParquetDataset: each task reads its own part files
        items = ds.shards(workers, job)
    elif isinstance(ds, ArrayDataset):     # small host arrays: uploaded once (a cached local relation)
        items = [(ds.images[a:b], ds.labels[a:b]) for a, b in split_ranges(ds.count, workers)]
    else:
        from ..errors import ArgumentError
        raise ArgumentError(f"fit over Spark Connect: {type(ds).__name__} data is not supported (an RDD cannot "
                            "exist on a Connect client): pass a dataset name, arrays or a DataFrame")
    table = pa.table({"rank": list(range(workers)), "item": [pickle.dumps(x) for x in items]})
    return spark.createDataFrame(table).repartitionByRange(workers, "rank").cache()


def _rows(df, fn, schema, barrier=False):
    """Every Alpha job over Connect: its plan (closure and state in it) is not kept in the server's plan cache."""
    with plan_cache_paused(df.sparkSession):
        return [pickle.loads(r["out"]) for r in df.mapInArrow(fn, schema, barrier=barrier).collect()]


def _one(obj):
    import pyarrow as pa
    return pa.RecordBatch.from_pydict({"out": [pickle.dumps(obj)]})


def _rank0_server(ctx, port, authkey, timeout_s=20.0):
    """Rank 0 hosts the stage's RendezvousServer on its executor's host (as Spark names it in getTaskInfos, which
    every rank reads without an RPC), on the port and with the key the client drew for this stage; the other
    ranks wait until it listens. Returns (server or None, how). A port taken on that host fails the stage, and
    fit() restarts it on another port."""
    from .rendezvous import RendezvousServer
    host = ctx.getTaskInfos()[0].address.rsplit(":", 1)[0]
    if ctx.partitionId() == 0:
        return RendezvousServer(host, port=port, authkey=authkey), ((host, port), authkey)
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            socket.create_connection((host, port), timeout=timeout_s).close()
            break
        except OSError as e:
            if time.monotonic() > deadline:
                raise ConnectionError(f"rank {ctx.partitionId()}: rank 0's rendezvous at {host}:{port} did not "
                                      f"listen within {timeout_s:.0f} s ({e})") from None
            time.sleep(0.005)
    return None, ((host, port), authkey)


def _drain(server, timeout_s=60.0):
    """Close rank 0's server once every rank hung up (their last answers are out), or after timeout_s."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with server._cond:
            if not server._conns:
                break
        time.sleep(0.005)
    server.close()


def segment_fn(spec, state, parts, spe, token, port, authkey):
    """The barrier task of one job of consecutive allreduce segments, parts = [(start, end, keep, fetch, save)].
    state None: not shipped (the ranks' kept replicas hold it, allreduce.Shared); segments after the job's first
    always start from the kept replicas. Each segment is the classic stage's arithmetic (its own all-gathers,
    buffer averaging and replica hand-over), so grouping segments into one job changes no result. Per segment,
    rank 0 yields its metrics; fetch: with the end state; save (Checkpointer args, meta): rank 0 writes the
    checkpoint on its executor (a non-finite state is refused there and reported as a note)."""
    from .allreduce import Shared, segment_task
    from .state import unpack_state

    def task(batches):
        from pyspark import BarrierTaskContext
        ctx = BarrierTaskContext.get()
        item = shard_item(batches, spec.image_shape)
        server, how = _rank0_server(ctx, port, authkey)
        try:
            for i, (start, end, keep, fetch, save) in enumerate(parts):
                held = Value(state) if i == 0 and state is not None else Shared()
                run = segment_task(spec, held, start, end, spe, token, how, keep,
                                   state_out=fetch or save is not None)
                for out in run(iter([item])):
                    sent = server.take(f"{token}/{start}/state")
                    end_state = unpack_state(*sent) if sent is not None else None
                    if save is not None:
                        out["saved"] = _save(save, end_state)
                    if fetch:
                        out.update(end_state)
                    yield _one(out)
        finally:
            if server is not None:
                _drain(server)
    return task


def _save(save, state):
    """(path or None, note): rank 0 writes the stage's checkpoint; a non-finite state is not written."""
    from ..errors import NonFiniteError
    args, meta = save
    try:
        return Checkpointer(*args).save(state, meta), None
    except NonFiniteError as e:
        return None, f"warning: {e}; the newest finite checkpoint stays the resume point"


def round_fn(spec, state, start, end, spe, token):
    from .average import round_task
    held = Value(state)

    def task(batches):
        from pyspark import TaskContext
        item = shard_item(batches, spec.image_shape)
        for out in round_task(spec, held, start, end, spe, token)(TaskContext.get().partitionId(), iter([item])):
            yield _one(out)
    return task


class ConnectStages:
    """fit()'s Spark work over a Connect session: shard sizes, allreduce segments, averaging rounds, test
    accuracy. Same results as the classic path: rank r trains shard r, states are the same arrays."""

    def __init__(self, spark, ds, spec, workers, job):
        self.spark, self.spec, self.workers = spark, spec, workers
        self.frame = shard_frame(spark, ds, workers, job)
        self.warm = None                   # (token, step) the executors' kept replicas are at, after a segment

    def sizes(self):
        engine, shape = self.spec.engine, self.spec.image_shape

        def ready(batches):
            from . import allreduce  # noqa: F401  (what the training tasks import)
            from .shards import shard_arrays
            if engine == "cuda":
                try:
                    import cupy  # noqa: F401
                except ImportError:
                    pass                      # the training task reports it, with its remedy
            yield _one(len(shard_arrays(shard_item(batches, shape))[1]))
        return _rows(self.frame, ready, _OUT)

    def segments(self, state, parts, spe, token):
        """Consecutive allreduce segments parts = [(start, end, keep, fetch, save)] in one barrier job: (end state
        or None when not fetched, [(end, metrics, seconds)] per segment). `state`: the client's state at the first
        start, or None when it holds none that recent. It is shipped only when the replicas cannot be warm (the
        fit's first job, a new token); a job whose ranks kept no replica is run again with it."""
        from .allreduce import LOST
        start, end = parts[0][0], parts[-1][1]
        warm = self.warm == (token, start)
        if state is None and not warm:
            raise RuntimeError(f"Spark Connect segment [{start},{end}): {LOST} {start} and this client holds no "
                               "state at that step")
        try:
            res = self._job(None if warm else state, parts, spe, token)
        except Exception as e:
            if not (warm and state is not None and LOST in str(e)):
                raise
            res = self._job(state, parts, spe, token)          # the workers were replaced
        self.warm = (token, end)
        return res

    def _job(self, state, parts, spe, token):
        submitted = time.time()
        port, key = random.SystemRandom().randint(20000, 32767), os.urandom(32)   # below Linux's ephemeral range
        outs = _rows(self.frame, segment_fn(self.spec, state, parts, spe, token, port, key), _OUT, barrier=True)
        returned = time.time()
        if len(outs) != len(parts):
            raise RuntimeError(f"Spark Connect job of segments {[p[:2] for p in parts]}: rank 0 reported "
                               f"{len(outs)} of them")
        done, prev, end_state = [], submitted, None
        for i, ((_, end, *_), res) in enumerate(zip(parts, outs)):
            prof = res["profile"]          # rank 0's wall clock: the split is approximate on a cluster
            began, ended = prof.pop("began"), prof.pop("ended")
            last = i == len(parts) - 1
            prof["before"], prof["after"] = max(began - prev, 0.0), max(returned - ended, 0.0) if last else 0.0
            seconds = max((returned if last else ended) - prev, 1e-9)
            prev = ended
            done.append((end, {"loss": res["loss"], "images": res["images"], "profile": prof,
                               "saved": res.get("saved")}, seconds))
            if "net" in res:
                end_state = {"net": res["net"], "optim": res["optim"]}
        return end_state, done

    def round(self, state, start, end, spe, token):
        from .average import _add
        from .state import average_states
        outs = _rows(self.frame, round_fn(self.spec, state, start, end, spe, token), _OUT)
        total = None
        for o in outs:
            total = _add(total, o)
        n = total["count"]
        new = {"net": average_states(total["net"], n), "optim": average_states(total["optim"], n)}
        return new, {"loss": total["loss"] / n, "images": (end - start) * self.spec.batch}

    def evaluate(self, state, test_ds, job):
        spec, held = self.spec, Value(state)
        frame = shard_frame(self.spark, test_ds, self.workers, job)

        def score(batches):
            from .worker import Trainer as T, task_gpu
            from .shards import shard_arrays
            tr = T(spec, task_gpu(spec) if spec.engine == "cuda" else 0)
            tr.load(held.value)
            images, labels = shard_arrays(shard_item(batches, spec.image_shape))
            yield _one((tr.correct(images, labels), len(labels)))
        try:
            parts = _rows(frame, score, _OUT)
        finally:
            frame.unpersist()
        return sum(c for c, _ in parts) / max(sum(n for _, n in parts), 1)

    def close(self):
        self.frame.unpersist()

    def release(self, timeout_s=10.0):
        """close() on a path that is already raising: bounded (a dead server's client retries for minutes) and
        quiet (the original error is the one to report)."""
        from .connect import ConnectError, _bounded
        try:
            _bounded(self.close, timeout_s, "Spark Connect: unpersisting the shard frame")
        except ConnectError:
            pass


def executor_path(directory):
    """A checkpoint directory as the executors' file system sees it (file:// URLs become paths)."""
    d = str(directory)
    return d[len("file://"):] if d.startswith("file://") else d


class ExecutorCheckpointer:
    """Checkpointer's save / load_latest_good run by one task on an executor (the client may not see the
    executors' disks): the directory must be one the executors can write (local disk in local mode, a shared
    mount on a cluster)."""

    def __init__(self, spark, directory, model=None, model_args=None):
        self.spark, self.directory = spark, executor_path(directory)
        self.args = (self.directory, 2, model, dict(model_args or {}))

    def _run(self, fn):
        return _rows(self.spark.range(0, 1, 1, 1), fn, _OUT)[0]

    def latest(self):
        """The newest checkpoint file in the directory, as an executor sees it (None when there is none)."""
        args = self.args

        def newest(batches):
            for _ in batches:
                pass
            yield _one(Checkpointer(*args).latest())
        return self._run(newest)

    def save(self, state, meta):
        args = self.args

        def write(batches):
            for _ in batches:
                pass
            yield _one(Checkpointer(*args).save(state, meta))
        return self._run(write)

    def load_latest_good(self, warn=print):
        args = self.args

        def read(batches):
            for _ in batches:
                pass
            notes = []
            found = Checkpointer(*args).load_latest_good(warn=notes.append)
            yield _one((found, notes))
        found, notes = self._run(read)
        for note in notes:
            warn(note)
        return found
