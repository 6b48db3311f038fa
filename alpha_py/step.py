"""Tools layer: `alpha.train_step` — one training step (forward, loss, backward, optimizer update, free the
step's graph) per call, never waiting for the device; on a CUDA engine recorded once per input shape into a
CUDA graph and replayed as one launch. Imports engine, nn.unit, loss, optim, step_results and errors; the
CUDA work goes through the backend (backend/cuda_graph.py)."""
import contextlib
import inspect
import math
import warnings
from collections import OrderedDict

from .core.tensor import Tensor
from .errors import (ArgumentError, GraphError, ShapeError, StateError, check_nonfinite_policy,
                     diverged, fmt_shape)
from .loss import LossFunction
from .nn.unit import Unit
from .optim.optimizer import Optimizer
from .step_results import ResultRing

RING = 4096            # per-step result slots (see ResultRing)
MAX_GRAPHS = 8         # captured shapes kept per runner (least recently used dropped)
USER_ERRORS = (ShapeError, ArgumentError, StateError)     # wrong inputs: raised as is, never a capture failure


class _Entry:
    """One captured step: its graph, static input/label buffers and loss/accuracy outputs."""

    __slots__ = ("graph", "x", "y", "outs")

    def __init__(self, graph, x, y, outs):
        self.graph, self.x, self.y, self.outs = graph, x, y, outs


class TrainStep:
    """`step = alpha.train_step(net, loss_fn, optimizer, graph=None, accuracy=False, history=False)`;
    `loss = step(x, y)` (or `step.run(x, y)`) runs one training step on input x [N, ...] and labels y (rows
    matching `loss_fn`), in this order: gradients cleared, yh = net.forward(x)[0], loss_fn.loss(yh, y),
    net.backward(loss_fn.gradient(yh, y)) (as backward_params: x's gradient, never read, is not computed),
    optimizer.update(), gradients cleared, net.gc(). It returns at
    once with a StepResult: `loss.get()` waits for that step only (the only wait), `loss.accuracy` is the
    step's training accuracy (a Result) with accuracy=True.

    graph=None: on a CUDA engine, the first step of each input shape runs op by op (warm-up), the second
    is captured into a CUDA graph, and every later one is a single graph launch; elsewhere op by op. If a
    step cannot be captured, it warns once and runs op by op. graph=True: the same, but a step that cannot
    be captured raises GraphError (the net, optimizer and random state stay as before that step).
    graph=False: always op by op. Either way the results equal the op-by-op step bit for bit.

    A graph is recorded again only when the input/label shapes or dtypes, the units' train/eval modes or
    the parameters' trainable flags change (up to 8 shapes kept). The learning rate, a scheduler, set_seed
    and checkpoint loads need no new capture: lr and the step's scalars, and the random state, are written
    to device memory before each launch; an array replaced by a new one (e.g. by a unit) is copied back.
    history=True: `step.history()` returns {'loss': [...], 'accuracy': [...]} of every step since its
    previous call (one wait per call); otherwise of at most the last 4096 steps.

    reduce_grads: a callable run on the list of the net's parameters between backward and the update, e.g. an
    all-reduce of the gradients across data-parallel ranks (alpha_py.distributed); a reduce_grads(params, loss)
    also gets the step's 0-d loss and may return the ranks' agreed loss (see on_nonfinite); it is captured with the
    step when it only queues device work (NCCL), and makes the step op by op when it needs the host.
    Steps run op by op for good on a CUDA engine take their memory from a plan per input shape: once two
    steps asked for the same sizes, every block comes from one arena at a precomputed offset instead of the
    pool (core/step_plan.py; `stats()['memory']`).

    on_nonfinite: what a NaN/Inf loss does (reduce_grads may return the ranks' agreed loss, which is then checked
    and recorded instead of the local one, so that all ranks decide alike). 'stop' (default): NonFiniteError naming
    the step, loss and learning rate; on the CPU at that step, before its update (the weights stay the last finite
    ones); on a GPU without a per-step wait, when history() next reads the losses (the weights then hold that
    interval's updates). 'skip': that step's update is dropped: gradients discarded, parameters, optimizer moments,
    step count, learning-rate schedule and BatchNorm running statistics as before it (`stats()['skipped']` counts;
    on a GPU each step then waits for its loss and runs op by op). 'continue': train on."""

    def __init__(self, net, loss_fn, optimizer, graph=None, accuracy=False, history=False, reduce_grads=None,
                 on_nonfinite="stop"):
        if not isinstance(net, Unit):
            raise ArgumentError(f"train_step: net must be a Unit/Module, got {type(net).__name__}")
        if not isinstance(loss_fn, LossFunction):
            raise ArgumentError(f"train_step: loss_fn must come from alpha.loss, got {type(loss_fn).__name__}")
        if not isinstance(optimizer, Optimizer):
            raise ArgumentError(f"train_step: optimizer must come from alpha.optim, got {type(optimizer).__name__}")
        if reduce_grads is not None and not callable(reduce_grads):
            raise ArgumentError(f"train_step: reduce_grads must be a callable (params) -> None, got "
                                f"{type(reduce_grads).__name__}")
        if graph is not None and not isinstance(graph, bool):
            raise ArgumentError(f"train_step: graph must be None (automatic), True or False, got {graph!r}")
        if net.engine is None:
            raise StateError(f"train_step: {net.describe()} is not initialised; call net.init(engine) first")
        eg = optimizer._engine
        if net.engine is not eg:
            raise ArgumentError(f"train_step: the optimizer's parameters live on {eg.dataType()} ({eg!r}), "
                                f"the net on {net.engine.dataType()} ({net.engine!r}); use one engine")
        capable = getattr(eg.backend, "graphs_supported", False)
        self.on_nonfinite = check_nonfinite_policy(on_nonfinite, "train_step")
        if graph is True and on_nonfinite == "skip" and capable:
            raise ArgumentError("train_step(graph=True, on_nonfinite='skip'): skipping an update needs the loss on "
                                "the host before it, which a captured step cannot wait for; use graph=None/False")
        # the CPU reads a loss for free; a device only when a skip must be decided before the update
        self._host_check = not capable or on_nonfinite == "skip"
        if graph is True and not capable:
            raise ArgumentError(f"train_step(graph=True): CUDA graphs need a CUDA engine "
                                f"(alpha.engine.cuda_float32), this net lives on {eg.dataType()}; "
                                "use graph=None (capture where possible) or graph=False")
        self.net, self.loss_fn, self.opt, self.eg = net, loss_fn, optimizer, eg
        self.accuracy, self.forced = bool(accuracy), graph is True
        self.graphs = capable and graph is not False and on_nonfinite != "skip"
        self.fallback = None                     # why automatic mode gave up capturing
        self._ring = ResultRing(eg, 2 if self.accuracy else 1, RING, keep=history)
        self._units = net.units()
        params = list(net.state_map().values())
        seen = {id(p) for p in params}
        params += [p for p in optimizer.params() if id(p) not in seen]
        self._params = params
        self._entries = OrderedDict()            # key -> _Entry
        self._warm = set()                       # keys whose op-by-op warm-up step ran
        self._bound = None                       # [(param, array)]: the arrays the graphs update
        self._layout = optimizer._layout
        self._pool = None
        self._plans = OrderedDict()              # key -> planned memory of the op-by-op steps (CUDA)
        self.reduce_grads, self._grad_params = reduce_grads, list(net.param_map().values())
        self._reduce_loss = reduce_grads is not None and _positional(reduce_grads) >= 2
        self.counts = {"eager": 0, "captures": 0, "replays": 0, "skipped": 0}

    # ------------------------------------------------------------------ public
    def run(self, x, y):
        """One training step on (x, y); returns its StepResult at once."""
        with self.eg.auto_paused():              # the step is not a user loop for engine/autoloop.py
            return self._run(x, y)

    def _run(self, x, y):
        self._check(x, y)
        self.eg.anomaly_step = self._ring.count + 1
        if not self.graphs or self.eg.anomaly:   # anomaly mode reads every tensor: op by op
            return self._eager(x, y)
        self.eg.backend.graph_collect()
        if self.opt._layout != self._layout:     # e.g. amsgrad switched: other state arrays
            self._retire_all()
            self._bound, self._layout = None, self.opt._layout
        key = self._key(x, y)
        entry = self._entries.get(key)
        if entry is None and key in self._warm:
            entry = self._capture(key, x)
        if entry is not None:
            self._entries.move_to_end(key)
            return self._replay(entry, x, y)
        out = self._eager(x, y)
        if self.graphs:
            self._warm.add(key)
        return out

    __call__ = run

    def history(self):
        """{'loss': [...], 'accuracy': [...] or None} of the steps since the previous call (one wait)."""
        rows = self._ring.history()
        if self.on_nonfinite == "stop" and not self._host_check:    # a device's losses: checked as they arrive
            first = self._ring.count - len(rows[0]) + 1
            for i, v in enumerate(rows[0]):
                if not math.isfinite(v):
                    raise diverged(v, first + i, self.lr(), after=f" (found when the losses were read at step "
                                   f"{self._ring.count}; the weights hold the updates up to there)")
        return {"loss": rows[0], "accuracy": rows[1] if self.accuracy else None}

    def lr(self):
        """The optimizer's current learning rate (None when it has none)."""
        return self.opt._hp.get("lr")

    def stats(self):
        """Steps run op by op / captured / replayed, graphs held, mode, (if any) why capture gave up, and the
        planned memory of the op-by-op steps: blocks served from plans / by the pool, arena bytes."""
        mem = {"planned": 0, "pooled": 0, "arena_bytes": 0, "replans": 0, "pool_steps": 0}
        for plan in self._plans.values():
            for k in mem:
                mem[k] += plan.stats[k]
        mem["states"] = [plan.state for plan in self._plans.values()]
        return dict(self.counts, graphs=len(self._entries), mode="graph" if self.graphs else "eager",
                    fallback=self.fallback, memory=mem)

    def close(self):
        """Drop the captured graphs and give their private memory back to the engine's pool (waits for
        the queued work). The runner stays usable: later steps capture again."""
        self._plans.clear()                      # arenas go back to the pool once their blocks are freed
        if self._entries or self._pool is not None:
            self._retire_all()
            self.eg.backend.graph_collect(wait=True)
        return self

    def __repr__(self):
        s = self.stats()
        return (f"TrainStep({self.net.describe()}, {self.loss_fn!r}, {type(self.opt).__name__}, mode={s['mode']}, "
                f"graphs={s['graphs']}, steps={s['eager'] + s['replays']})")

    # ------------------------------------------------------------------ the step
    def _check(self, x, y):
        for t, what in ((x, "x"), (y, "y")):
            if not isinstance(t, Tensor):
                raise ArgumentError(f"train_step: {what} must be a Tensor, got {type(t).__name__}")
            if t.engine is not self.eg:
                raise ArgumentError(f"train_step: {what} lives on another engine ({t.engine!r}) than the net "
                                    f"({self.eg!r})")
        if x.ndim() < 1 or y.ndim() < 1 or x.shape[0] != y.shape[0]:
            raise ShapeError(f"train_step: input {fmt_shape(x.shape)} and labels {fmt_shape(y.shape)} must have "
                             "the same number of rows")

    def _key(self, x, y):
        return (x.shape, x.data.dtype.str, y.shape, y.data.dtype.str, tuple(u.training for u in self._units),
                tuple(p.trainable for p in self._params))

    def _clear_grads(self):
        for p in self._params:
            p.zero_grad()

    def _body(self, x, y):
        """The step itself, in engine ops; returns the 0-d loss (and accuracy) arrays."""
        self._clear_grads()
        with self.eg.deferring():                # buffer updates (BatchNorm running stats) after the update
            yh = self.net.forward(x)[0]
            outs = [self.loss_fn.loss(yh, y)._array]
            if self.accuracy:
                outs.append(self.eg.accuracy(yh, y)._array)
            self.net.backward_params(self.loss_fn.gradient(yh, y))     # (no input gradient: nothing reads it)
            agreed = None
            if self.reduce_grads is not None:
                agreed = self.reduce_grads(*([self._grad_params, outs[0]] if self._reduce_loss else [self._grad_params]))
            if agreed is not None:
                outs[0] = agreed                 # every rank records (and judges) the same loss
            if self._host_check and self.on_nonfinite != "continue" and self._nonfinite(outs[0]):
                self.eg.discard_deferred()
                self.counts["skipped"] += 1
            else:
                self.opt.update()
        self._clear_grads()
        self.net.gc()
        return outs

    def _nonfinite(self, loss):
        """On the host: is this step's loss NaN/Inf? 'stop' raises here, before the update."""
        v = self.eg.backend.scalar(loss)
        if math.isfinite(v):
            return False
        if self.on_nonfinite == "stop":
            raise diverged(v, self._ring.count + 1, self.lr(), after=" (stopped before that step's update)")
        return True

    def _eager(self, x, y):
        snap = self._snapshot()
        self._ring.prepare()                     # may copy an unread old value out: not inside a planned step
        with self.eg.stepping(), self._planned(x, y):
            try:
                outs = self._body(x, y)
            except BaseException:
                self._undo(snap)
                raise
            if self._bound is not None:
                self._rebind()
            self.counts["eager"] += 1
            res = self._ring.put(outs)
            del outs                             # freed inside the step: planned like the other temporaries
        return res

    def _planned(self, x, y):
        """Steps run op by op for good (graph=False, or capture gave up) take their memory from a plan per
        input shape on a CUDA engine (backend step_memory: no pool handouts once two steps ran alike)."""
        make = getattr(self.eg.backend, "step_memory", None)
        if self.graphs or make is None:
            return contextlib.nullcontext()
        key = self._key(x, y)
        mem = self._plans.get(key)
        if mem is None:
            mem = self._plans[key] = make()
            if len(self._plans) > MAX_GRAPHS:
                self._plans.popitem(last=False)
        else:
            self._plans.move_to_end(key)
        return self.eg.backend.planned_step(mem)

    def _rebind(self):
        """Keep every parameter/buffer on the array the graphs update: an array replaced since (by a unit's
        op-by-op step, or by the user) is copied into it, queued like any op."""
        for p, arr in self._bound:
            d = p._data
            if d is arr:
                continue
            if d is None or d.shape != arr.shape or d.dtype != arr.dtype:
                raise StateError(f"train_step: {p!r} was deleted or changed shape/dtype since the step was "
                                 "captured; make a new alpha.train_step for the changed net")
            self.eg.copy_into(arr, d)
            p._data = arr

    # ------------------------------------------------------------------ capture / replay
    def _capture(self, key, x):
        eg, b = self.eg, self.eg.backend
        if self._pool is None:
            self._pool = b.graph_pool()
        if self._bound is None:
            self._bound = [(p, p._data) for p in self._params]
        else:
            self._rebind()
        bound, snap = self._bound, self._snapshot()

        def body():
            outs = self._body(X, Y)
            for p, arr in bound:                 # write replaced arrays back into the graphs' arrays
                if p._data is not arr:
                    eg.copy_into(arr, p._data)
                    p._data = arr
            return outs

        with eg.stepping():
            sx, sy = b.empty(key[0], key[1]), b.empty(key[2], key[3])
            X, Y = Tensor(eg, sx), Tensor(eg, sy)
            try:
                graph, outs = b.graph_capture(body, self._pool, reset=lambda: self._undo(snap))
            except BaseException as e:
                self._undo(snap)
                if isinstance(e, USER_ERRORS) or not isinstance(e, Exception):
                    raise
                return self._capture_failed(x, e)
        self._undo(snap)                         # nothing ran: the replay redoes the host bookkeeping
        self.counts["captures"] += 1
        entry = self._entries[key] = _Entry(graph, sx, sy, outs)
        if len(self._entries) > MAX_GRAPHS:
            _, old = self._entries.popitem(last=False)
            b.graph_retire([old.graph], keep=[old])
        return entry

    def _snapshot(self):
        b = self.eg.backend
        rng = b.rng_state() if hasattr(b, "rng_state") else None
        return self.opt.host_state(), rng, [(p, p._data) for p in self._params]

    def _undo(self, snap):
        """Host state back to `snap`: optimizer step/lr/scheduler, random calls (device engines), the arrays
        bound to parameters and buffers; gradients and the step's graph dropped. A capture ran nothing, and
        an op-by-op step that raised updated no weight in place (the update is its last op)."""
        opt_state, rng, data = snap
        self.opt.restore_host_state(opt_state)
        if rng is not None:
            self.eg.backend.set_rng_state(rng)
        for p, d in data:
            p._data = d
        self._clear_grads()
        self.net.gc()

    def _capture_failed(self, x, e):
        why = f"{type(e).__name__}: {e}"
        msg = (f"train_step: the step for input {fmt_shape(x.shape)} could not be captured into a CUDA graph "
               f"({why}); the net, optimizer and random state are as before this step")
        if self.forced:
            raise GraphError(msg + ". Run it with graph=False (op by op).") from e
        warnings.warn(msg + "; running op by op from now on (graph=False avoids the attempt)", RuntimeWarning,
                      stacklevel=4)
        self.graphs, self.fallback = False, why
        self._retire_all()
        return None

    def _replay(self, entry, x, y):
        eg = self.eg
        self._rebind()
        eg.copy_into(entry.x, x.data)
        eg.copy_into(entry.y, y.data)
        self.opt.replay_update()
        eg.backend.graph_launch(entry.graph)
        self.counts["replays"] += 1
        return self._ring.put(entry.outs)

    def _retire_all(self):
        entries = list(self._entries.values())
        self._entries.clear()
        if entries or self._pool is not None:
            self.eg.backend.graph_retire([e.graph for e in entries], keep=entries, pool=self._pool)
        self._pool = None


def _positional(fn):
    """How many positional arguments fn takes (reduce_grads(params) or reduce_grads(params, loss))."""
    try:
        ps = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return 1
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    if any(p.kind == inspect.Parameter.VAR_POSITIONAL for p in ps):
        return 2
    return sum(p.kind in kinds for p in ps)


def train_step(net, loss_fn, optimizer, graph=None, accuracy=False, history=False, reduce_grads=None,
               on_nonfinite="stop"):
    """alpha.train_step: a TrainStep runner (see TrainStep); `step(x, y)` returns the step's lazy loss."""
    return TrainStep(net, loss_fn, optimizer, graph, accuracy, history, reduce_grads, on_nonfinite)


__all__ = ["TrainStep", "train_step"]
