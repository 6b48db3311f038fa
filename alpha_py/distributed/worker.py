"""Distributed layer: what one Spark task (or one launcher process) does — make its engine (the
GPU Spark assigned it), build net + optimizer from the job spec, walk its shard in a deterministic
batch order, and run its training steps through alpha.train_step. Imports alpha_py (facade, zoo, optim), numpy."""
import threading
import time

import numpy as np

from ..errors import ArgumentError, NonFiniteError, check_nonfinite_policy, diverged
from ..params import AlphaParam
from ..validation import OPTIMIZERS, check_training_args
from .state import GradBuffer, load_net_state, load_optim_state


class JobSpec:
    """Everything a task needs to rebuild the training setup; pickled into each task (keep small).
    model: a zoo name or a callable () -> Unit; optim: a name of alpha_py.validation.OPTIMIZERS (as
    `alpha train --optim`) or a callable (net) -> optimizer."""

    def __init__(self, model, image_shape, num_classes, optim="adam", lr=1e-3, engine="cpu",
                 batch=64, workers=1, seed=0, shuffle=True, fail_at_step=None, on_nonfinite="stop"):
        check_training_args("JobSpec", model=model, optim=optim, lr=lr, engine=engine, batch=batch,
                            workers=workers, seed=seed, fail_at_step=fail_at_step)
        self.model, self.image_shape, self.num_classes = model, tuple(image_shape), int(num_classes)
        self.optim, self.lr, self.engine = optim, float(lr), engine
        self.batch, self.workers, self.seed, self.shuffle = int(batch), int(workers), int(seed), shuffle
        self.fail_at_step = fail_at_step
        self.on_nonfinite = check_nonfinite_policy(on_nonfinite, "JobSpec")   # what a NaN/Inf loss does
        self.local_gpus = 0          # set by fit() in local mode: GPUs of this host, rank r -> r % n
        self.graph = None            # train_step's graph mode on GPUs (fit's graph=)
        self.precision = "fp32"      # the CUDA engine's precision (fit's precision=; docs/precision.md)
        self.alpha_params = AlphaParam.changed()   # the driver's changed fields: the replicas build with them

    @property
    def local_batch(self):
        return self.batch // self.workers

    def steps_per_epoch(self, shard_sizes):
        return min(shard_sizes) // self.local_batch


def make_engine(kind, device_id=0, precision="fp32"):
    from ..facade import alpha
    if kind == "cuda":
        return alpha.engine.cuda_float32(device_id, precision=precision)
    return alpha.engine.cpu_float32(task_cpus())


def task_cpus():
    """The cores Spark gave the running task (spark.task.cpus), so that the tasks of one executor do not
    oversubscribe its cores; None (all of the host's) outside a Spark task."""
    try:
        from pyspark import TaskContext
    except ImportError:
        return None
    ctx = TaskContext.get()
    return int(ctx.cpus()) if ctx is not None else None


def task_gpu(spec):
    """The GPU of the running task: the address Spark assigned (TaskContext.resources()['gpu']) on a
    cluster; in local mode (spec.local_gpus GPUs on this host) the partition's rank modulo that."""
    from pyspark import TaskContext
    ctx = TaskContext.get()
    res = ctx.resources() if ctx is not None else {}
    if "gpu" in res and res["gpu"].addresses:
        return int(res["gpu"].addresses[0])
    if spec.local_gpus:
        return ctx.partitionId() % spec.local_gpus
    raise ArgumentError("engine 'cuda': this Spark task was assigned no GPU; set "
                        "spark.task.resource.gpu.amount=1 and spark.executor.resource.gpu.amount")


def build_net(spec, eg):
    if callable(spec.model):
        net = spec.model()
    else:
        from ..zoo import get_model
        net = get_model(spec.model, spec.image_shape[-1], spec.num_classes, spec.image_shape[0])
    return net.init(eg)


def build_optim(spec, net):
    if callable(spec.optim):
        return spec.optim(net)
    from ..facade import alpha
    return getattr(alpha.optim, OPTIMIZERS[spec.optim.lower()])(net.params(), spec.lr)


_RELEASING = []     # helper threads tearing down finished stages' captured steps and communicators


def wait_released():
    """Wait for the teardowns earlier tasks of this Python worker left running (before its GPU is used again)."""
    while _RELEASING:
        _RELEASING.pop().join()


class Trainer:
    """One replica: engine, net, optimizer and loss, loaded from a host state."""

    def __init__(self, spec, device_id=0):
        from ..facade import alpha
        wait_released()
        self.spec = spec
        self.eg = make_engine(spec.engine, device_id, getattr(spec, "precision", "fp32"))
        self.eg.set_seed(spec.seed)
        if spec.engine == "cuda":
            self.eg.sync(False)        # ops queue on the stream; NCCL and the loss reads order the steps
        with AlphaParam.using(**getattr(spec, "alpha_params", {})):    # the defaults the driver saw
            self.net = build_net(spec, self.eg).train()
            self.opt = build_optim(spec, self.net)
        self.loss = alpha.loss.softmax_crossEntropy()
        self._rng0 = self.eg.backend.rng_state()     # the random state a freshly built replica trains from
        self.done_step = None          # global step this replica's state is at (None: unknown / loaded)
        self._runner = self._runner_coll = self.grads = None
        self.kept_coll = None          # the communicator kept (with the step captured around it) for the next stage
        self.first_steps_s = None      # host seconds of a segment's first two steps (warm-up and capture)

    def load(self, state):
        load_net_state(self.net, state["net"])
        load_optim_state(self.opt, state.get("optim"))

    def batch_tensors(self, images, labels):
        return self.eg.images(images), self.eg.onehot(labels, self.spec.num_classes)

    def steps(self, coll=None):
        """The alpha.train_step runner of this replica: on a GPU captured into a CUDA graph from its second
        step (the NCCL all-reduce inside it), op by op on the CPU. With `coll`, the gradients are all-reduced
        (mean) through one flat buffer between backward and the update. One runner per collective: a
        captured NCCL call belongs to its communicator."""
        if self._runner is not None and self._runner_coll is coll:
            return self._runner
        if self._runner is not None:
            self._runner.close()
        from ..facade import alpha
        reduce = self.grads = None
        if coll is not None:
            grads, backend = GradBuffer(self.net), self.eg.backend
            self.grads = grads

            def reduce(_params, loss):
                return grads.reduce(backend, coll, loss)
        graph = self.spec.graph if self.spec.engine == "cuda" else False
        self._runner = alpha.train_step(self.net, self.loss, self.opt, graph=graph, history=True,
                                        reduce_grads=reduce, on_nonfinite=getattr(self.spec, "on_nonfinite", "stop"))
        self._runner_coll = coll
        return self._runner

    def rewind_rng(self):
        """The random state of a freshly built replica (a warm replica then trains as a fresh one would)."""
        self.eg.backend.set_rng_state(self._rng0)

    def close(self):
        """Drop the step runner and its CUDA graphs (before the collective they captured is closed)."""
        if self._runner is not None:
            self._runner.close()
        self._runner = self._runner_coll = None

    def release_later(self, coll):
        """Close the step runner, then `coll`, on a helper thread: a finished stage's task returns without waiting
        for graph and communicator teardown (the next task of this Python worker waits: wait_released())."""
        def release():
            self.close()
            coll.close()
        t = threading.Thread(target=release, name="alpha-release", daemon=True)
        t.start()
        _RELEASING.append(t)

    def run_steps(self, images, labels, rank, start, end, steps_per_epoch, coll=None):
        """Global steps [start, end) on this rank's shard (the deterministic batch order of batch_rows), one
        train_step call each, no wait per step; returns their losses (one wait)."""
        run = self.steps(coll)
        run.history()                          # forget earlier segments' losses
        self.first_steps_s, t0, first = None, time.perf_counter(), run.stats()["eager"] + run.stats()["replays"]
        try:
            for step in range(start, end):
                maybe_fail(self.spec, rank, step)
                rows = batch_rows(self.spec, len(labels), rank, step, steps_per_epoch)
                run(*self.batch_tensors(images[rows], labels[rows]))
                if step == start + 1:          # host time of the op-by-op first step and the capture
                    self.first_steps_s = time.perf_counter() - t0
            return run.history()["loss"]
        except NonFiniteError as e:            # the step in the job's terms: global step (from 1), epoch
            if e.loss is None:
                raise
            at, who = start + e.step - first, ""
            if self.grads is not None and getattr(self.grads, "losses", None) is not None:   # allreduce: agreed
                bad = [r for r, v in enumerate(self.grads.rank_losses()) if not np.isfinite(v)]
                who = f" (the loss reduced over all ranks; not finite on rank(s) {bad})" if bad else ""
            raise diverged(e.loss, at, e.lr, epoch=(at - 1) // steps_per_epoch + 1,
                           where=f"fit (rank {rank})", after=who) from None

    def correct(self, images, labels, batch=256):
        """Number of correctly classified rows (eval mode)."""
        self.net.eval()
        hits = 0
        for lo in range(0, len(labels), batch):
            x = self.eg.images(images[lo:lo + batch])
            yh = self.net.forward(x)[0]
            pred = self.eg.row_max_index(yh).numpy().reshape(-1)
            hits += int((pred == labels[lo:lo + batch]).sum())
            self.net.gc()
        self.net.train()
        return hits


def finite_mean(losses):
    """Mean of the finite step losses (skipped / diverged steps left out); NaN when there is none."""
    good = [v for v in losses if np.isfinite(v)]
    return float(np.mean(good)) if good else float("nan")


def batch_rows(spec, shard_size, rank, step, steps_per_epoch):
    """Row indices of this rank's shard for global step `step`: a fresh permutation per epoch
    (seeded by seed, epoch, rank) or, with shuffle off, the shard in order."""
    epoch, k = divmod(step, steps_per_epoch)
    b = spec.local_batch
    if not spec.shuffle:
        return np.arange(k * b, (k + 1) * b)
    perm = np.random.default_rng([spec.seed, epoch, rank]).permutation(shard_size)
    return np.sort(perm[k * b:(k + 1) * b])


def maybe_fail(spec, rank, step):
    """Failure injection for tests and drills: rank 1 (or 0 when alone) kills its Python worker
    when it reaches global step `fail_at_step`, first task attempt only."""
    if spec.fail_at_step is None or step != spec.fail_at_step or rank != min(1, spec.workers - 1):
        return
    from pyspark import TaskContext
    ctx = TaskContext.get()
    if ctx is None or ctx.attemptNumber() == 0:
        import os
        os._exit(17)
