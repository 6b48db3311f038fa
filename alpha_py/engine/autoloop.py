"""Engine layer: the user's training loop captured without code changes (`cuda_float32(auto_graph=True)`).
Units, losses and optimizers hand their public calls here (duck-typed: nothing above the engine is
imported); the CUDA work goes through the backend's graph ops (backend/cuda_graph.py). See docs/user-loop.md.

An iteration is the calls from the first one after a boundary to the gc() that frees the last net forwarded
(forward, loss.gradient/loss, backward, opt.update, clear_grads, gc). Iterations run op by op and are
logged; once two in a row made the same calls with the same shapes, flags and objects, the next one is
deferred: each call only checks that it is the expected one, copies its external inputs into fixed buffers
and returns placeholders ("pending" tensors/results); at the boundary the logged calls are re-run inside a
CUDA stream capture (once per signature) and the graph is launched; pending objects then point at its
outputs. Anything else that needs a pending value or could observe the deferred work (a host read, F ops
on pending tensors, parameter or optimizer-state access, train()/eval(), set_seed, a random draw, a call
out of order) first re-runs the deferred calls op by op ("flush"), so results are those of op by op."""
import threading
from collections import OrderedDict

from ..core.tensor import LazyData, Result, Syncer, Tensor
from .loop_calls import LoopCalls
from .loop_graph import DEFER, EAGER, IDLE, SKIP, LoopGraphs, _outputs, _Template
from .loop_memory import LoopMemory

WARM = 2                  # op-by-op iterations with one signature before it is deferred
MAX_EVENTS = 256          # an iteration longer than this is not captured (its log is dropped)
MAX_TEMPLATES = 8         # signatures kept (least recently used dropped with their graphs)
MAX_FLUSHES = 3           # deferred attempts that had to flush before a signature is left op by op
_NOSYNC = Syncer(None)


class AutoLoop(LoopGraphs, LoopMemory, LoopCalls):
    """The recorder of one engine. `call(kind, obj, fn, args)` is what the hooked methods call; `flush()` is
    what any observer of deferred work calls; `stats()` says what happened."""

    def __init__(self, eg, defer_without_graphs=False, capture=True):
        self.eg, self.b = eg, eg.backend
        self.capture = capture               # False (auto_graph off): iterations only, each with planned memory
        self.can_capture = bool(getattr(self.b, "graphs_supported", False))
        self.defer_anyway = defer_without_graphs     # tests on the CPU: defer, then fail the capture, flush
        if self.can_capture:
            self.b.rng_hook = self.flush
        self.inside = False                  # the real code of a call is running: nested calls pass
        self.owner = None                    # the thread whose calls are recorded
        self.templates = OrderedDict()
        self.live = []                       # weakrefs: objects resolved to graph outputs at the last launch
        self.live_alias = False              # ... one of them views an input buffer the next inputs overwrite
        self.counts = {"eager": 0, "captures": 0, "replays": 0, "flushes": 0, "failed": 0}
        self.reason = None                   # the last capture failure
        self.f_units = {}                    # (F name, parameters) -> the unit of top-level F calls
        self._plan_init()
        self._reset(IDLE)

    def _reset(self, mode):
        self._plan_end(False)                # an op-by-op iteration left unfinished: its trace is not learnt
        self.mode, self.tpl = mode, None
        self.log, self.sigs, self.outs = [], [], []
        self.made, self.open, self.seen_roots = {}, set(), set()
        self.fed = {}                        # id(external input tensor) -> (call, position) where it first came in
        self.pending, self.hidden, self.slots, self.opt_snaps, self.keep = [], [], {}, {}, []

    # ------------------------------------------------------------------ the hook
    def call(self, kind, obj, fn, args):
        if self.inside:
            return fn(*args)
        me = threading.get_ident()
        if self.owner is None:
            self.owner = me
        elif me != self.owner:
            if self.mode != IDLE:
                return fn(*args)
            self.owner = me
        if self.mode == SKIP:                # op by op, unlogged, until the boundary
            return self._skip(kind, obj, fn, args)
        sig = self._sig(kind, obj, args)
        if self.mode == DEFER:
            i = len(self.sigs)
            if sig is not None and i < len(self.tpl.sig) and self.tpl.sig[i] == sig and self._ready(args):
                return self._defer(kind, obj, fn, args, sig)
            self.flush()
        elif self.mode == IDLE and sig is not None and self.capture:
            tpl = self._pick(sig)
            if tpl is not None and self._start(tpl) and self._ready(args):
                return self._defer(kind, obj, fn, args, sig)
            if self.mode == DEFER:
                self.flush()
        self.mode = EAGER
        return self._eager(kind, obj, fn, args, sig)

    def _skip(self, kind, obj, fn, args):
        self.inside = True
        try:
            out = self.eg.public(fn, args)
        finally:
            self.inside = False
        self._absorb(kind, obj)
        if kind == "gc" and not self.open:
            self._reset(IDLE)
        return out

    # ------------------------------------------------------------------ signatures
    def _sig(self, kind, obj, args):
        """The call's signature: kind, object, each argument (a reference to an output of this iteration,
        or an external tensor's shape/dtype/need_grad, or a plain value), and at a net's first appearance
        its units' modes and parameters (identity, trainable, gradient present); None: not recordable."""
        parts = [kind, id(obj)]
        for a in args:
            if isinstance(a, Tensor):
                ref = self.made.get(id(a))
                if ref is None:
                    first = self.fed.get(id(a))      # an input an earlier call of the iteration took: the same
                    d = a._data                      # buffer in a captured graph, so the same object each time
                    if first is not None:
                        ref = ("same", first)
                    elif d is None:
                        return None
                    else:
                        ref = ("x", d.shape, d.dtype.str, a._need_grad)
                parts.append(ref)
            elif a is None or isinstance(a, (int, float, str, bool)):
                parts.append(("v", a))
            else:
                return None
        if kind in ("fwd", "bwd") and id(obj) not in self.seen_roots:
            self.seen_roots.add(id(obj))
            units = obj.units()
            parts.append((tuple(u.training for u in units),
                          tuple((id(p), p.trainable, p._grad is None) for u in units for p in u._params.values()),
                          getattr(self.b, "precision", None), getattr(self.b, "conv_autotune", None)))
        elif kind == "update":
            parts.append(obj._layout)
        return tuple(parts)

    def _pick(self, sig):
        for tpl in reversed(self.templates.values()):
            if tpl.bad is None and tpl.sig[0] == sig and (tpl.seen >= WARM or tpl.graph is not None):
                return tpl
        return None

    def _ready(self, args):
        """External tensor arguments must hold data (a hidden parameter passed in must be flushed first)."""
        return all(a._data is not None or id(a) in self.made for a in args if isinstance(a, Tensor))

    # ------------------------------------------------------------------ op by op (logged)
    def _eager(self, kind, obj, fn, args, sig):
        if not self.log:
            self._plan_begin(sig)            # the iteration's first call: its memory from a plan
        self.inside = True
        try:
            out = self._plan_call(fn, args)
        except BaseException:
            self._skip_rest()                # not a clean iteration: no signature learnt from it
            raise
        finally:
            self.inside = False
        self._log(kind, obj, fn, args, sig, out)
        if kind == "gc" and not self.open:
            self._learn()
        return out

    def _log(self, kind, obj, fn, args, sig, out):
        i = len(self.log)
        self.log.append((kind, obj, fn, args))
        self.sigs.append(sig)
        self.outs.append(out)
        self._feed(i, args)
        for k, t in enumerate(_outputs(kind, out)):
            if t is not None:
                self.made[id(t)] = (i, k)
        self._absorb(kind, obj)
        if sig is None or len(self.log) > MAX_EVENTS:
            self._skip_rest()

    def _skip_rest(self):
        """Run the rest of this iteration op by op, unlogged; the log's tensors are let go now."""
        self._plan_end(False)
        self.mode = SKIP
        self.log, self.sigs, self.outs, self.made, self.keep, self.fed = [], [], [], {}, [], {}

    def _learn(self):
        """The end of an op-by-op iteration: count its signature."""
        if not self.capture:
            self.counts["eager"] += 1
            self._plan_end(True)
            self._reset(IDLE)
            return
        sig = tuple(self.sigs)
        tpl = self.templates.get(sig)
        if tpl is None:
            tpl = self._template(sig)
            self.templates[sig] = tpl
            if len(self.templates) > MAX_TEMPLATES:
                self._drop(self.templates.popitem(last=False)[1])
        self.templates.move_to_end(sig)
        tpl.seen += 1
        self.counts["eager"] += 1
        self._plan_end(True)
        self._reset(IDLE)

    def _template(self, sig):
        params, opts, seen, bad, fwd = [], [], set(), None, set()
        for kind, obj, _, _ in self.log:
            ps = ()
            if kind == "bwd" and id(obj) not in fwd:
                bad = "a backward without a forward of the same net in the iteration"
            fwd.add(id(obj) if kind in ("fwd", "rec") else None)
            if kind in ("fwd", "bwd"):
                ps = [p for u in obj.units() for p in u._params.values()]
            elif kind == "update":
                ps = obj.params()
                if obj in opts:
                    bad = "one optimizer updated twice in an iteration"
                opts.append(obj)
            params += [p for p in ps if id(p) not in seen and not seen.add(id(p))]
        if not any(k in ("fwd", "rec", "batch") for k, _, _, _ in self.log):
            bad = "no forward"
        elif any(p._grad is not None for p in params):
            bad = "gradients still set at the end of the iteration (clear_grads() is not called)"
        elif any(id(a) in seen for _, _, _, args in self.log for a in args):
            bad = "a parameter is passed as an input"
        elif not self.can_capture and not self.defer_anyway:
            bad = "this engine has no CUDA graphs"
        spec = [[None if t is None else (isinstance(t, Result), None if isinstance(t, Result) else t.shape)
                 for t in _outputs(kind, out)] for (kind, _, _, _), out in zip(self.log, self.outs)]
        return _Template(sig, spec, params, opts, bad, [obj for _, obj, _, _ in self.log])

    # ------------------------------------------------------------------ deferred
    def _start(self, tpl):
        """Begin a deferred iteration following tpl: earlier graph outputs still held are copied out, a
        parameter array replaced since the capture is copied into the graph's, parameters are hidden."""
        if self.live_alias:                  # an output of the last launch is a view of an input buffer
            self._detach()
        if tpl.bound is not None:
            for p, arr in tpl.bound:
                d = p._data
                if d is None or d.shape != arr.shape or d.dtype != arr.dtype:
                    tpl.bad = f"{p!r} was deleted or changed shape/dtype"
                    return False
                if d is not arr:
                    self.eg.copy_into(arr, d)
                    p._data = arr
        if any(p._data is None for p in tpl.params):
            return False
        self.mode, self.tpl = DEFER, tpl
        for p in tpl.params:
            self.hidden.append((p, p._data))
            p._data, p._lazy = None, self
        return True

    def _defer(self, kind, obj, fn, args, sig):
        i = len(self.log)
        self.log.append((kind, obj, fn, args))
        self.sigs.append(sig)
        tpl, eg = self.tpl, self.eg
        if tpl.ins is None:
            tpl.ins = []
        for pos, a in enumerate(args):
            if isinstance(a, Tensor) and id(a) not in self.made:
                first = self.fed.get(id(a))
                if first is not None:                # (its signature says so) already in its buffer
                    self.slots[(i, pos)] = self.slots[first]
                    continue
                j = len(set(self.slots.values()))
                if j == len(tpl.ins):
                    tpl.ins.append(self.b.empty(a._data.shape, a._data.dtype))
                eg.copy_into(tpl.ins[j], a._data)
                self.slots[(i, pos)] = j
        self._feed(i, args)
        if kind == "zero":
            self.inside = True
            try:
                fn(*args)
            finally:
                self.inside = False
        elif kind == "update":
            if id(obj) not in self.opt_snaps:
                self.opt_snaps[id(obj)] = (obj, obj.host_state())
            if self.can_capture:
                obj.replay_update()          # step count, scheduler, and the step's scalars on the device
            else:
                obj._begin_step()
                obj._end_step()
        out = self._placeholders(kind, obj, i)
        self.outs.append(out)
        if i == len(tpl.sig) - 1:
            self._launch()
        return out

    def _feed(self, i, args):
        """Note the external input tensors call i took that no earlier call took (after the call's signature was
        made: an input twice within one call is two inputs)."""
        for pos, a in enumerate(args):
            if isinstance(a, Tensor) and id(a) not in self.made and id(a) not in self.fed:
                self.fed[id(a)] = (i, pos)

    def _placeholders(self, kind, obj, i):
        outs = []
        for k, s in enumerate(self.tpl.spec[i]):
            if s is None:
                outs.append(None)
                continue
            if s[0]:
                t = Result(self.eg, None)
            else:
                t = Tensor.__new__(Tensor)
                t.engine, t._data, t.node, t.index, t._need_grad, t._grad = self.eg, None, None, 0, False, None
                t.syncer, t._lazy, t._shape = _NOSYNC, self, s[1]
            self.made[id(t)] = (i, k)
            self.pending.append((t, i, k))
            outs.append(t)
        if kind in ("fwd", "bwd", "F", "batch"):
            return outs
        if kind in ("grad", "loss"):
            return outs[0]
        return obj

    def _unhide(self):
        for p, arr in self.hidden:
            p._data, p._lazy = arr, None
        self.hidden = []

    def flush(self):
        """Run the deferred calls of this iteration op by op now (pending objects get their values); the
        iteration goes on op by op. A no-op unless a deferred iteration is under way on this thread."""
        if self.mode != DEFER or self.inside or threading.get_ident() != self.owner:
            return
        tpl, log, pend = self.tpl, self.log, self.pending
        self._unhide()
        for opt, st in self.opt_snaps.values():
            opt.restore_host_state(st)
        self.counts["flushes"] += 1
        tpl.flushes += 1
        if tpl.flushes >= MAX_FLUSHES and tpl.runs == 0 and not self.defer_anyway:
            tpl.bad = "deferred iterations kept needing their values early (a host read, an F op...)"
        self._reset(EAGER)
        by_event = {}
        for t, i, k in pend:
            by_event.setdefault(i, []).append((t, k))
        for i, (kind, obj, fn, args) in enumerate(log):
            out = self._eager(kind, obj, fn, args, self._sig(kind, obj, args))
            real = _outputs(kind, out)
            for t, k in by_event.get(i, ()):
                _bind(t, real[k])
                self.made[id(t)] = (i, k)
            self.keep.append(by_event.get(i))    # placeholders stay alive while their ids are in `made`
        if self.mode == EAGER and not self.open:  # no net forwarded yet (e.g. a loss read after gc): the
            self._reset(IDLE)                    # next forward may start a deferred iteration again

    def resolve(self, obj):
        """A pending tensor/result (or a hidden parameter) is needed: flush, then it has its value."""
        self.flush()
        if isinstance(obj, Result):
            return obj._array
        return obj._data

    def shape_of(self, t):
        return t._shape if hasattr(t, "_shape") else tuple(t.data.shape)

    # ------------------------------------------------------------------ capture / launch
    def reset(self):
        """Forget every signature and graph (flushing a deferred iteration first)."""
        self.flush()
        self._detach()
        for tpl in self.templates.values():
            self._drop(tpl)
        self.templates.clear()
        if self.mode != IDLE:
            self._reset(SKIP if self.open else IDLE)

    def stats(self):
        why = {str(i): t.bad for i, t in enumerate(self.templates.values()) if t.bad}
        return dict(self.counts, memory=self.plan_stats(), graphs=sum(t.graph is not None for t in self.templates.values()),
                    signatures=len(self.templates), not_captured=why, last_failure=self.reason)


def _bind(t, real):
    """A placeholder takes the value (and autograd link) of the object computed op by op."""
    if isinstance(t, Result):
        t._array, t._value = real._array, real._value
    else:
        d = real.data if type(real._lazy) is LazyData else real._data     # lazy data: computed now (one owner)
        t._data, t.node, t.index, t.syncer, t._lazy = d, real.node, real.index, real.syncer, None
