"""Distributed layer: `fit(...)`, the entry point usable from any PySpark program. Shards the data,
runs the pre-flight checks, then drives allreduce segments (barrier stages) or averaging rounds,
writing a checkpoint every epoch (or every N steps) and restarting from the latest checkpoint when
a stage fails. Imports pyspark, numpy and this package."""
import os
import time
import uuid
from functools import partial, wraps

import re

from ..errors import ArgumentError, NonFiniteError, check_nonfinite_policy
from ..precision import check_precision
from ..validation import check_training_args
from . import preflight
from .allreduce import run_segment
from .average import run_round
from .checkpoint import Checkpointer
from .connect import check_session, is_connect, plan_cache_paused, preflight_view
from .connect_stages import ConnectStages, ExecutorCheckpointer
from .parquet import as_parquet
from .rendezvous import RENDEZVOUS, driver_server
from .shards import DATASETS, as_dataset, shard_arrays
from .state import net_state
from .worker import JobSpec, Trainer


class FitResult:
    """What fit() returns: the final state (host arrays), progress and metrics."""

    def __init__(self, state, step, epoch, history, test_accuracy, restarts, images_per_s):
        self.state, self.step, self.epoch, self.history = state, step, epoch, history
        self.test_accuracy, self.restarts, self.images_per_s = test_accuracy, restarts, images_per_s

    def __repr__(self):
        return (f"FitResult(step={self.step}, epoch={self.epoch}, test_accuracy={self.test_accuracy}, "
                f"restarts={self.restarts}, images_per_s={self.images_per_s:.1f})")


_ALPHA_ERRORS = ("ShapeError", "ArgumentError", "StateError", "DataError", "CheckpointError",
                 "DeviceError", "MemoryCapError", "NonFiniteError", "AlphaError")


def stage_profile(prof, wall):
    """One line: where a barrier stage's wall time went (rank 0's phases; the rest is Spark's scheduling and,
    with the barrier rendezvous, the state broadcast and the task result's way back to the driver)."""
    names = {"rendezvous": "rendezvous", "build": "engine+net+state in", "nccl": "NCCL wait", "steps": "steps",
             "state_out": "state out", "release": "release"}
    notes = {"steps": prof.get("first_steps") is not None and f"first 2: {prof.get('first_steps', 0):.2f} s",
             "build": prof.get("warm") and "warm replica",
             "rendezvous": prof.get("reused") and "communicator and captured step kept",
             "nccl": (prof.get("nccl_init") is not None and not prof.get("reused")
                      and f"init {prof.get('nccl_init') or 0:.2f} s, the rest hidden by the build")}
    parts = [f"{label} {prof[k]:.2f} s" + (f" ({notes[k]})" if notes.get(k) else "")
             for k, label in names.items() if prof.get(k) is not None]
    inside = sum(prof.get(k) or 0.0 for k in names)
    line = f"wall {wall:.2f} s = " + ", ".join(parts) + f", outside the task {wall - inside:.2f} s"
    if prof.get("before") is not None and prof.get("after") is not None:
        line += f" (before {prof['before']:.2f} s, after {prof['after']:.2f} s)"
    return line


def prepare_shard(engine):
    """The set-up job's task, run before training is timed (as Spark's data caching was): starts a Python
    worker, reads (or caches) its shard, imports what the training tasks import; returns the shard's size."""
    def ready(item):
        from . import allreduce  # noqa: F401  (what the training tasks import)
        if engine == "cuda":
            try:
                import cupy  # noqa: F401
            except ImportError:
                pass                      # the training task reports it, with its remedy
        return len(shard_arrays(item)[1])
    return ready


def _deterministic(exc):
    """A task failed with one of Alpha's own errors (bad data, shapes, config): retrying cannot help."""
    text = str(exc)
    return any(f"alpha_py.errors.{name}" in text or f"\n{name}: " in text for name in _ALPHA_ERRORS)


def nonfinite_stop(exc, ckpt):
    """A stage that failed because a rank's loss went NaN/Inf (on_nonfinite='stop'): NonFiniteError with the
    rank's message and where the newest checkpoint is, else None (another failure)."""
    found = re.search(r"NonFiniteError: (.+)", str(exc))
    if found is None:
        return None
    latest = ckpt.latest() if ckpt is not None else None
    where = (f"the newest checkpoint {latest} holds the last finite state written" if latest
             else "no checkpoint was written")
    return NonFiniteError(f"{found.group(1).strip()}; {where}")


def _spark_context(spark):
    from pyspark import SparkContext
    if spark is None:
        return SparkContext.getOrCreate()
    return getattr(spark, "sparkContext", spark)


def ship_package(sc):
    """Make alpha_py importable on executors that do not have it installed: zip the package this
    driver imported and add it with SparkContext.addPyFile (what --py-files does; a Connect session:
    addArtifacts). CPU engine only:
    the CUDA engine reads kernels/*.cu from an installed package (pip install alpha_py[cuda12])."""
    import shutil
    import tempfile
    pkg = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    base = os.path.join(tempfile.mkdtemp(prefix="alpha-pyfiles-"), "alpha_py")
    shutil.make_archive(base, "zip", os.path.dirname(pkg), os.path.basename(pkg))
    if is_connect(sc):                   # a Spark Connect session: uploaded as a Python artifact
        sc.addArtifacts(base + ".zip", pyfile=True)
    else:
        sc.addPyFile(base + ".zip")
    return base + ".zip"


def initial_state(spec):
    """Weights made once on the driver (CPU engine, seeded) so every replica starts identical."""
    cpu = JobSpec(spec.model, spec.image_shape, spec.num_classes, spec.optim, spec.lr, "cpu",
                  spec.batch, spec.workers, spec.seed, spec.shuffle)
    return {"net": net_state(Trainer(cpu).net), "optim": {}}


def evaluate(sc, spec, state, dataset, workers):
    """Test accuracy: every partition scores its shard with the broadcast weights."""
    bc = sc.broadcast(state)

    def score(it):
        from .worker import Trainer as T, task_gpu
        tr = T(spec, task_gpu(spec) if spec.engine == "cuda" else 0)
        tr.load(bc.value)
        for images, labels in it:
            yield tr.correct(images, labels), len(labels)

    try:
        parts = dataset.shard_rdd(sc, workers).mapPartitions(score).collect()
    finally:
        bc.unpersist()
    return sum(c for c, _ in parts) / max(sum(n for _, n in parts), 1)


def job_parts(step, total, every, count, ckpt, run_meta, spe):
    """The next `count` allreduce segments from `step` as (start, end, keep, fetch, save), and the rest too when at
    most count // 2 would be left (no short last job): a segment ends at each multiple of `every`
    (checkpoint_every, default an epoch); save: rank 0's checkpoint arguments or None."""
    parts, limit = [], count + count // 2 + 1        # as many left as `limit`: this job takes `count` only
    while step < total and len(parts) < limit:
        end = min((step // every + 1) * every, total)
        save = ((ckpt.args, dict(run_meta, step=end, epoch=end // spe))
                if ckpt is not None and (end % every == 0 or end == total) else None)
        parts.append((step, end, end < total, end == total, save))
        step = end
    return parts if len(parts) < limit else parts[:count]


def _quiet(call):
    """call(), its error ignored: cleanup on a path that is already raising."""
    try:
        call()
    except Exception:                    # the original error is the one to report
        pass


def _one_pause_over_connect(run):
    """fit over Connect turns the server's plan cache off once for its whole run (connect.plan_cache_paused), not
    with three RPCs around each of its jobs."""
    @wraps(run)
    def fit(*args, **kw):
        spark = kw.get("spark")
        if spark is None or not is_connect(spark):
            return run(*args, **kw)
        with plan_cache_paused(spark):
            return run(*args, **kw)
    return fit


@_one_pause_over_connect
def fit(data, model, *, test_data=None, data_dir=None, epochs=1, batch=64, optim="adam", lr=1e-3,
        workers=2, mode="average", sync_every=10, checkpoint_dir=None, checkpoint_every=None,
        resume=False, engine="cpu", seed=0, shuffle=True, max_restarts=3, fail_at_step=None, graph=None,
        rendezvous="driver", image_shape=None, num_classes=None, spark=None, log=print, on_nonfinite="stop",
        precision="fp32", job_seconds=5.0):
    """Train `model` data-parallel on `workers` Spark tasks.

    data / test_data: a dataset name ("mnist", "fashion_mnist", "cifar10", "cifar100" with data_dir;
    "mnist5k"), an alpha.data DataSet, a FileDataset / ArrayDataset, or a DataFrame / RDD of
    (image bytes, label) rows (then image_shape and num_classes). model: a zoo name or a callable returning an
    un-initialised Unit. mode "allreduce": gradients all-reduced every step (NCCL on GPUs, the rendezvous's
    all-gather on CPUs);
    mode "average": k=sync_every local steps per round, then weights and optimizer state averaged.
    batch is the global batch (each worker takes batch/workers rows per step). checkpoint_every:
    steps between checkpoints (default: one per epoch). fail_at_step injects one task death (tests).
    graph: on GPUs each rank's step, its NCCL all-reduce included, is captured into a CUDA graph (None:
    where possible, True: or fail, False: op by op). rendezvous (allreduce): how a stage's ranks all-gather
    (schedule, NCCL id; gradients on CPUs): "driver" through a server thread of this driver (executors must
    reach its host), "barrier" through Spark's BarrierTaskContext.allGather (up to 1 s per call). On GPUs,
    between stages every rank keeps its NCCL communicator and captured step. on_nonfinite: what a NaN/Inf loss
    does ('stop': NonFiniteError naming rank, epoch, global step, loss and lr; 'skip': that step's update is
    dropped; 'continue'); in allreduce mode all ranks decide on the loss reduced with the gradients, so they stop
    or skip together; a state holding NaN/Inf is never checkpointed (docs/divergence.md). Every argument is validated
    (alpha_py.validation) before Spark is touched. precision: "fp32", "tf32" or "bf16", the tasks' CUDA engines'
    (docs/precision.md; tf32 / bf16 need engine 'cuda'). job_seconds (allreduce over Spark Connect): consecutive
    segments run in one barrier job of about this many seconds, so Spark's per-job cost (0.13-0.2 s) is paid once
    per job; progress lines then arrive once per job (None: one job per segment, as in the classic session).
    """
    check_training_args("fit", datasets=DATASETS, data=data, test_data=test_data, data_dir=data_dir,
                        model=model, epochs=epochs, batch=batch, optim=optim, lr=lr, workers=workers,
                        mode=mode, sync_every=sync_every, checkpoint_every=checkpoint_every,
                        engine=engine, seed=seed, max_restarts=max_restarts, fail_at_step=fail_at_step,
                        checkpoint_dir=checkpoint_dir, precision=precision)
    if graph is not None and not isinstance(graph, bool):
        raise ArgumentError(f"fit: graph must be None (capture where possible), True or False, got {graph!r}")
    check_nonfinite_policy(on_nonfinite, "fit")
    if job_seconds is not None and (isinstance(job_seconds, bool) or not isinstance(job_seconds, (int, float))
                                    or not job_seconds > 0):
        raise ArgumentError(f"fit: job_seconds must be None (one Spark job per segment) or a number of seconds "
                            f"> 0, got {job_seconds!r}")
    if rendezvous not in RENDEZVOUS:
        raise ArgumentError(f"fit: rendezvous must be one of {list(RENDEZVOUS)}, got {rendezvous!r}")
    if graph and engine != "cuda":
        raise ArgumentError(f"fit: graph=True (--graph) captures CUDA graphs and needs engine 'cuda', "
                            f"got {engine!r}")
    remote = is_connect(spark)            # Spark Connect: no SparkContext, stages are DataFrame.mapInArrow
    if remote:
        check_session(spark)
    sc = preflight_view(spark) if remote else _spark_context(spark)
    checked = preflight.check(sc, workers, mode, engine)
    data, test_data = as_parquet(data), as_parquet(test_data)       # a pathlib.Path: a Parquet folder
    ds = as_dataset(data, data_dir, True, image_shape, num_classes)
    spec = JobSpec(model, ds.image_shape, ds.num_classes, optim, lr, engine, batch, workers, seed,
                   shuffle, fail_at_step, on_nonfinite)
    spec.graph = graph
    spec.precision = check_precision(precision, "fit")
    if engine == "cuda" and preflight.local_cores(sc.master) is not None:
        spec.local_gpus = checked["gpus"]
    t0 = time.perf_counter()
    stages = ConnectStages(spark, ds, spec, workers, uuid.uuid4().hex) if remote else None
    if remote:
        shard_rdd = None
    elif hasattr(ds, "shard_refs"):       # FileDataset, ParquetDataset: tasks read their records once per Python
        # worker and keep them
        shard_rdd = ds.shard_refs(sc, workers, uuid.uuid4().hex)
    else:                                 # data that must travel: Spark keeps the shards
        shard_rdd = ds.shard_rdd(sc, workers).cache()
    sizes = stages.sizes() if remote else shard_rdd.map(prepare_shard(engine)).collect()
    spe = spec.steps_per_epoch(sizes)
    if spe < 1:
        raise ArgumentError(f"fit: shards of {sizes} images cannot fill one step of {spec.local_batch} "
                            f"images per worker (batch {batch} / {workers} workers)")
    total = epochs * spe
    every = int(checkpoint_every or spe)
    ckpt = None
    if checkpoint_dir:
        geometry = {"in_channels": ds.image_shape[-1], "num_classes": ds.num_classes,
                    "input_size": ds.image_shape[0]}
        kind = partial(ExecutorCheckpointer, spark) if remote else Checkpointer    # over Connect: an executor writes
        ckpt = kind(checkpoint_dir, model=model if isinstance(model, str) else None,
                    model_args=geometry if isinstance(model, str) else None)
    run_meta = {"steps_per_epoch": spe, "mode": mode, "workers": workers, "batch": batch,
                "image_shape": list(ds.image_shape), "num_classes": ds.num_classes}
    if isinstance(data, str):
        run_meta.update(dataset=data, data_dir=None if data_dir is None else os.path.abspath(data_dir))
    log(f"[alpha.distributed] mode={mode} workers={workers} engine={engine} shards={sizes} "
        f"steps/epoch={spe} total steps={total} slots={checked['slots']}; executors ready in "
        f"{time.perf_counter() - t0:.2f} s (Python workers started, shards read)")

    def restore():
        found = ckpt.load_latest_good(warn=log) if ckpt is not None else None
        if found is None:
            return initial_state(spec), 0
        path, state, meta = found
        if meta.get("batch", batch) != batch:
            raise ArgumentError(f"fit: checkpoint {path} was written with global batch "
                                f"{meta['batch']}, this run uses {batch}: a step means a different "
                                "number of images; resume with the same --batch")
        if isinstance(model, str) and meta.get("model") not in (None, model):
            raise ArgumentError(f"fit: checkpoint {path} holds model {meta['model']!r}, this run trains "
                                f"{model!r}: use another checkpoint_dir or the same model")
        log(f"[alpha.distributed] resumed from {path} (step {meta['step']})")
        return state, meta["step"]

    state, step = restore() if resume else (initial_state(spec), 0)
    held = step                 # the step `state` is at (over Connect, allreduce keeps it on the executors)
    lazy = remote and mode == "allreduce"
    history, restarts, trained_images, train_time, per_job, jobs = [], 0, 0, 0.0, 1, 0
    token = uuid.uuid4().hex
    server = driver_server(sc) if mode == "allreduce" and rendezvous == "driver" and not remote else None
    try:
        while step < total:
            end = min((step // every + 1) * every, total)
            if mode == "average":
                end = min(end, step + sync_every)
            t0 = time.perf_counter()
            try:
                if lazy:                    # rank 0 checkpoints; the state comes back at the end only
                    parts = job_parts(step, total, every, per_job, ckpt, run_meta, spe)
                    end = parts[-1][1]
                    got, done = stages.segments(state if held == step else None, parts, spe, token)
                    state = got if got is not None else state
                else:
                    if remote:
                        state, metrics = stages.round(state, step, end, spe, token)
                    elif mode == "allreduce":
                        state, metrics = run_segment(sc, shard_rdd, spec, state, step, end, spe, token, server,
                                                     keep=end < total)
                    else:
                        state, metrics = run_round(sc, shard_rdd, spec, state, step, end, spe, token)
                    done = [(end, metrics, None)]
            except Exception as e:          # a task died and Spark gave up on the stage
                stop = nonfinite_stop(e, ckpt)
                if stop is not None:
                    raise stop from None
                restarts += 1
                if restarts > max_restarts or _deterministic(e):
                    raise
                log(f"[alpha.distributed] stage for steps [{step},{end}) failed ({type(e).__name__}: "
                    f"{str(e).splitlines()[0][:200]}); restart {restarts}/{max_restarts} from the last "
                    f"{'checkpoint' if ckpt else 'completed stage (no checkpoint_dir)'}")
                spec.fail_at_step = None
                token = uuid.uuid4().hex
                if ckpt is not None:
                    state, step = restore()
                    held = step
                elif held != step:          # over Connect the replicas held the newer state: from the last held
                    log(f"[alpha.distributed] no checkpoint_dir: restarting from step {held}, the newest state "
                        "this client holds")
                    step = held
                continue
            dt = time.perf_counter() - t0
            train_time += dt
            jobs += 1
            if lazy and job_seconds is not None:    # segments for the next job to last about job_seconds, at the
                per_job = max(1, round(job_seconds / min(d[2] for d in done)))    # fastest segment's pace
            for end, metrics, seconds in done:
                seconds = seconds or dt
                trained_images += metrics["images"]
                step = end
                held = end if not lazy or end == total else held
                history.append({"step": step, "epoch": step / spe, "loss": metrics["loss"], "seconds": seconds,
                                "images": metrics["images"], "images_per_s": metrics["images"] / seconds,
                                "profile": metrics.get("profile"), "job": jobs})
                if metrics.get("profile"):
                    log("[alpha.distributed] stage profile: " + stage_profile(metrics["profile"], seconds))
                if step % every == 0 or step == total:
                    saved = (metrics.get("saved") or (None, None))[1]
                    if saved:                   # rank 0 refused a non-finite state
                        log(f"[alpha.distributed] {saved}")
                    if ckpt is not None and not lazy:
                        try:
                            ckpt.save(state, dict(run_meta, step=step, epoch=step // spe))
                        except NonFiniteError as e:      # on_nonfinite='continue' let the weights go NaN
                            log(f"[alpha.distributed] warning: {e}; the newest finite checkpoint stays the resume "
                                "point")
                    log(f"[alpha.distributed] step {step}/{total} epoch {step / spe:.2f} loss {metrics['loss']:.4f} "
                        f"{metrics['images'] / seconds:.1f} images/s")
    except BaseException:               # a failed fit, too, leaves no cached shards on the server
        stages.release() if remote else _quiet(shard_rdd.unpersist)
        raise
    finally:
        if server is not None:
            server.close()
    stages.close() if remote else shard_rdd.unpersist()
    acc = None
    if test_data is not None:
        test_ds = as_dataset(test_data, data_dir, False, image_shape, num_classes)
        acc = stages.evaluate(state, test_ds, uuid.uuid4().hex) if remote else evaluate(sc, spec, state, test_ds,
                                                                                          workers)
        log(f"[alpha.distributed] test accuracy {acc:.4f}")
    ips = trained_images / train_time if train_time else 0.0
    return FitResult(state, step, step // spe, history, acc, restarts, ips)
